# Times Godot 4 reading each container in READ_DIR/list.txt to its plain data (open, then
# get_buffer of the whole length), into READ_DIR/times.txt: name, microseconds, plain bytes.
# A file the engine cannot open (Godot 3's encrypted layout) is written as "name FAIL error"
# and skipped: the script always reaches quit(), or the engine would idle until killed.
extends SceneTree

func _initialize():
	var dir = OS.get_environment("READ_DIR")
	var out = FileAccess.open(dir + "/times.txt", FileAccess.WRITE)
	for line in FileAccess.get_file_as_string(dir + "/list.txt").split("\n", false):
		var parts = line.split(" ")
		var path = dir + "/" + parts[0]
		var start = Time.get_ticks_usec()
		var f
		if parts[1] == "pass":
			f = FileAccess.open_encrypted_with_pass(path, FileAccess.READ, parts[2])
		else:
			f = FileAccess.open_compressed(path, FileAccess.READ, int(parts[1]))
		if f == null:
			out.store_line("%s FAIL %d" % [parts[0].get_basename(), FileAccess.get_open_error()])
			continue
		var data = f.get_buffer(f.get_length())
		var usec = Time.get_ticks_usec() - start
		out.store_line("%s %d %d" % [parts[0].get_basename(), usec, data.size()])
		f.close()
	out.close()
	quit()
