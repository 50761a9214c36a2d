# The live Godot 3.2.3 oracle: answers a batch of requests in one engine run.
#
#   ORACLE3_IN=requests.txt ORACLE3_OUT=responses.txt LANG=en godot3-server -s /abs/path/harness.gd
#
# One request per line, fields separated by a tab; one response line per request, in order:
#   b2v \t <hex> \t <allow_objects 0|1>
#       -> ok \t <var2str, escaped> \t <hex of var2bytes(value, allow_objects)>   |  err \t <ERR name>
#   s2v \t <escaped text>
#       -> ok \t <hex of var2bytes(str2var(text))> \t <var2str of it, escaped>     |  err \t ERR_PARSE_ERROR
#   eval \t <escaped GDScript expression> [\t <full_objects 0|1>]
#       -> ok \t <hex of var2bytes(value, full_objects)> \t <var2str, escaped>    |  err \t ERR_PARSE_ERROR | error
#   gen \t <escaped expression> \t <full_objects 0|1>   (used by generate.py)
#       -> ok \t <typeof> \t <hex> \t <var2str> \t <1 if bytes2var(hex, full_objects) worked, else 0>
#          \t <hex of its re-encoding, or the ERR name> \t <var2str of the decoded value>
# Escaping (both ways): \ -> \\, newline -> \n, tab -> \t, CR -> \r; in responses only, a code point
# UTF-8 cannot carry (lone surrogate) -> \u{hex}. A malformed request line gets `err \t bad request`.
# The ERR name of a failed bytes2var is the first `Returned: ERR_*` the engine logged for it
# (the innermost failure), read back from its own log file user://logs/godot.log; "error" if none.
# A failing request never stops the batch.
extends SceneTree

var C = null


func _init():
	# Leave at once whatever happens below: a runtime error in _init would abort it before
	# quit() and leave the engine idling forever.
	quit()
	var common = load(get_script().resource_path.get_base_dir() + "/common.gd")
	if common == null or not common.can_instance():
		printerr("harness.gd: cannot load common.gd")
		return
	C = common.new()
	var in_path = OS.get_environment("ORACLE3_IN")
	var out_path = OS.get_environment("ORACLE3_OUT")
	var fin = File.new()
	if in_path == "" or fin.open(in_path, File.READ) != OK:
		printerr("harness.gd: cannot read ORACLE3_IN=", in_path)
		quit()
		return
	var text = fin.get_buffer(fin.get_len()).get_string_from_utf8()
	fin.close()
	var lines = text.split("\n")
	if lines.size() > 0 and lines[lines.size() - 1] == "":
		lines.remove(lines.size() - 1)
	var out = PoolStringArray()
	for line in lines:
		out.append(handle(line))
	C.cleanup()
	var fout = File.new()
	if out_path == "" or fout.open(out_path, File.WRITE) != OK:
		printerr("harness.gd: cannot write ORACLE3_OUT=", out_path)
		quit()
		return
	for r in out:
		fout.store_string(r + "\n")
	fout.close()
	quit()


func handle(line):
	var f = line.split("\t")
	var verb = f[0]
	if verb == "b2v" and f.size() == 3:
		var b = C.hex_to_bytes(f[1])
		if b == null:
			return "err\tbad request"
		var allow = f[2] == "1"
		var r = C.decode(b, allow)
		if not r[0]:
			return "err\t" + r[2]
		return "ok\t" + C.esc(var2str(r[1])) + "\t" + var2bytes(r[1], allow).hex_encode()
	if verb == "s2v" and f.size() == 2:
		var t = C.unesc(f[1])
		var v = str2var(t)
		# 3.2.3's str2var prints nothing on a parse error and returns its input String unchanged;
		# a successful parse can never give back its own text (a String literal loses its quotes).
		if typeof(v) == TYPE_STRING and v == t:
			return "err\tERR_PARSE_ERROR"
		return "ok\t" + var2bytes(v).hex_encode() + "\t" + C.esc(var2str(v))
	if verb == "eval" and (f.size() == 2 or f.size() == 3):
		var full = f.size() == 3 and f[2] == "1"
		var r = C.compile_expr(C.unesc(f[1]))
		if not r[0]:
			return "err\t" + r[2]
		return "ok\t" + var2bytes(r[1], full).hex_encode() + "\t" + C.esc(var2str(r[1]))
	if verb == "gen" and f.size() == 3:
		# Used by generate.py: everything the corpus manifest needs about one expression.
		var full = f[2] == "1"
		var r = C.compile_expr(C.unesc(f[1]))
		if not r[0]:
			return "err\t" + r[2]
		var b = var2bytes(r[1], full)
		var out = "ok\t" + str(typeof(r[1])) + "\t" + b.hex_encode() + "\t" + C.esc(var2str(r[1]))
		var d = C.decode(b, full)
		if not d[0]:
			return out + "\t0\t" + d[2] + "\t"
		return out + "\t1\t" + var2bytes(d[1], full).hex_encode() + "\t" + C.esc(var2str(d[1]))
	return "err\tbad request"
