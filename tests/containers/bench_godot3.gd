# Times Godot 3 reading each container in READ_DIR/list.txt to its plain data (open, then
# get_buffer of the whole length), into READ_DIR/times.txt: name, microseconds, plain bytes.
# A file the engine cannot open (Godot 4's encrypted layout) is written as "name FAIL error"
# and skipped: the script always reaches quit(), or the engine would idle until killed.
extends SceneTree

func _init():
	var dir = OS.get_environment("READ_DIR")
	var out = File.new()
	out.open(dir + "/times.txt", File.WRITE)
	var list = File.new()
	list.open(dir + "/list.txt", File.READ)
	var lines = list.get_as_text().split("\n", false)
	list.close()
	for line in lines:
		var parts = line.split(" ")
		var path = dir + "/" + parts[0]
		var start = OS.get_ticks_usec()
		var f = File.new()
		var err
		if parts[1] == "pass":
			err = f.open_encrypted_with_pass(path, File.READ, parts[2])
		else:
			err = f.open_compressed(path, File.READ, int(parts[1]))
		if err != OK:
			out.store_line("%s FAIL %d" % [parts[0].get_basename(), err])
			continue
		var data = f.get_buffer(f.get_len())
		var usec = OS.get_ticks_usec() - start
		out.store_line("%s %d %d" % [parts[0].get_basename(), usec, data.size()])
		f.close()
	out.close()
	quit()
