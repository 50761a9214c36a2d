# Times Godot 4 reading each container in READ_DIR/list.txt to its plain data (open and
# get_buffer of the whole length), into READ_DIR/times.txt: name, microseconds, plain bytes.
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
			f = FileAccess.open_encrypted_with_pass(path, FileAccess.READ, "correct horse")
		else:
			f = FileAccess.open_compressed(path, FileAccess.READ, int(parts[1]))
		var data = f.get_buffer(f.get_length())
		var usec = Time.get_ticks_usec() - start
		out.store_line("%s %d %d" % [parts[0].get_basename(), usec, data.size()])
	out.close()
	quit()
