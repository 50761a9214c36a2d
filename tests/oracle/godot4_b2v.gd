# The live Godot 4 oracle of tests/differential_engines.rs: bytes_to_var of a batch of inputs
# in one engine run.
#
#   ORACLE4_IN=hex.txt ORACLE4_OUT=out.txt godot --headless --path PROJECT --script res://godot4_b2v.gd
#
# One input per line as hex ("-" for no bytes); one line out per input, in order:
#   ok \t <bytes used, decode_var_size> \t <hex of var_to_bytes(bytes_to_var(input))>   |   err
# decode_var_size gives 0 (4.3, 4.4) when decode_variant fails, so 0 means an error. Before each
# input "@@case N" goes to stderr, so the engine's own "Returning: ERR_*" lines that follow
# name the error of input N. With ORACLE4_OBJECTS=1 full objects are allowed
# (bytes_to_var_with_objects, var_to_bytes_with_objects).
extends SceneTree

func _initialize():
	var fin = FileAccess.open(OS.get_environment("ORACLE4_IN"), FileAccess.READ)
	var fout = FileAccess.open(OS.get_environment("ORACLE4_OUT"), FileAccess.WRITE)
	var objects = OS.get_environment("ORACLE4_OBJECTS") == "1"
	var i = 0
	while fin != null and fout != null and not fin.eof_reached():
		var line = fin.get_line()
		if line == "":
			continue
		var b = ("" if line == "-" else line).hex_decode()
		printerr("@@case ", i)
		var size = b.decode_var_size(0, objects) if b.size() >= 4 else 0
		if size <= 0:
			fout.store_line("err")
		else:
			var v = bytes_to_var_with_objects(b) if objects else bytes_to_var(b)
			var out = var_to_bytes_with_objects(v) if objects else var_to_bytes(v)
			fout.store_line("ok\t" + str(size) + "\t" + out.hex_encode())
		i += 1
	printerr("@@end")
	if fout != null:
		fout.close()
	quit()
