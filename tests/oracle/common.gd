# Shared helpers of the Godot 3.2.3 oracle: the `G` object that corpus expressions see,
# expression compilation, error-catching bytes2var, hex and line escaping.
#
# Loaded by harness.gd and streams.gd with load(<dir of the caller>/common.gd).new().
# Every expression of the corpus is compiled by compile_expr() below, as
#     func f(G):
#         var __v = <expr>
#         G.eval_ok = true
#         return __v
# so `G.` in an expression names an instance of this script.
extends Reference

# Set by the compiled expression once the value is computed: a GDScript runtime error
# aborts the function before it gets there (and returns null to the caller, which goes on).
var eval_ok = false

# Set by _decode_raw() once bytes2var returned: a failing bytes2var raises a script error
# that aborts _decode_raw() (its caller goes on).
var _decode_ok = false
var _decode_val = null

var _player_script = null
var _item_script = null
var _bag_script = null
var _keep = []          # nodes made by the helpers, freed by cleanup()
var _log = null         # the engine's own log file (user://logs/godot.log), read for ERR_* names
var _err_re = null
var _hex_tbl = {}

const PLAYER_SOURCE = """extends Reference

export var name = "hero"
export var hp = 100
export(float) var speed = 2.5
var level = 3
var tags = ["a", "b"]
"""

const ITEM_SOURCE = """extends Resource

export(int) var id = 7
export(String) var title = "Sword"
export(float) var weight = 1.25
export(PoolStringArray) var tags = PoolStringArray(["melee", "iron"])
export(Vector2) var icon_size = Vector2(32, 32)
export(Array) var stack = [1, 2]
var cache = {}
"""

const BAG_SOURCE = """extends Reference

export var owner_name = "ann"
export var gold = 250
export var items = []
export var equipped = {}
var dirty = false
"""


func _init():
	_err_re = RegEx.new()
	_err_re.compile("Return(?:ed|ing): (ERR_[A-Z_]+)")
	for i in range(256):
		_hex_tbl["%02x" % i] = i
		_hex_tbl["%02X" % i] = i


# ---------------------------------------------------------------------------------------------
# Values the corpus expressions build (G.xxx)

# An OBJECT-typed Variant holding a null pointer (typeof == TYPE_OBJECT).
func null_object():
	return instance_from_id(0)


# A Node that has already been freed: the Variant still has type OBJECT.
func freed_node():
	var n = Node.new()
	n.free()
	return n


func make_reference():
	return Reference.new()


func make_node(name = "Hero"):
	var n = Node.new()
	n.name = name
	_keep.append(n)
	return n


func make_node2d(name = "Sprite", pos = Vector2(3, 4)):
	var n = Node2D.new()
	n.name = name
	n.position = pos
	_keep.append(n)
	return n


func make_resource(name = "res"):
	var r = Resource.new()
	r.resource_name = name
	return r


func make_object():
	var o = ClassDB.instance("Object")
	_keep.append(o)
	return o


# An EncodedObjectAsID (what bytes2var(…, false) gives for an object sent as an id).
func make_encoded_id(id):
	var e = EncodedObjectAsID.new()
	e.object_id = id
	return e


func _script(source):
	var s = GDScript.new()
	s.source_code = source
	var err = s.reload()
	assert(err == OK)
	return s


func player_script():
	if _player_script == null:
		_player_script = _script(PLAYER_SOURCE)
	return _player_script


func item_script():
	if _item_script == null:
		_item_script = _script(ITEM_SOURCE)
	return _item_script


func bag_script():
	if _bag_script == null:
		_bag_script = _script(BAG_SOURCE)
	return _bag_script


# A Reference with PLAYER_SOURCE: exports name, hp, speed; plain vars level, tags.
func make_player(name = null, hp = null, speed = null):
	var p = player_script().new()
	if name != null:
		p.name = name
	if hp != null:
		p.hp = hp
	if speed != null:
		p.speed = speed
	return p


# A Resource with ITEM_SOURCE.
func make_item(id = null, title = null):
	var it = item_script().new()
	if id != null:
		it.id = id
	if title != null:
		it.title = title
	return it


# A Reference with BAG_SOURCE holding items (objects inside an exported Array).
func make_bag():
	var b = bag_script().new()
	b.items = [make_item(1, "Sword"), make_item(2, "Potion")]
	b.equipped = {"hand": make_item(3, "Shield")}
	return b


# A live RID (PhysicsServer sphere shape). Godot 3 sends no RID payload.
func make_rid():
	return PhysicsServer.shape_create(PhysicsServer.SHAPE_SPHERE)


func rep(s, n):
	var out = ""
	for i in range(n):
		out += s
	return out


func range_array(n):
	var a = []
	for i in range(n):
		a.append(i)
	return a


# b[i] = (7*i + 3) % 256
func bytes_pattern(n):
	var a = PoolByteArray()
	a.resize(n)
	for i in range(n):
		a[i] = (7 * i + 3) % 256
	return a


# a[i] = (i*2654435761) % 2^32 - 2^31
func int_pattern(n):
	var a = PoolIntArray()
	a.resize(n)
	for i in range(n):
		a[i] = (i * 2654435761) % 4294967296 - 2147483648
	return a


# a[i] = i*0.25 - 100
func real_pattern(n):
	var a = PoolRealArray()
	a.resize(n)
	for i in range(n):
		a[i] = i * 0.25 - 100
	return a


# "s" repeated i % 7 times, then i
func string_pattern(n):
	var a = PoolStringArray()
	for i in range(n):
		a.append(rep("s", i % 7) + str(i))
	return a


# (i, -i/2)
func vec2_pattern(n):
	var a = PoolVector2Array()
	for i in range(n):
		a.append(Vector2(i, -i / 2.0))
	return a


# (i, i/2, -i)
func vec3_pattern(n):
	var a = PoolVector3Array()
	for i in range(n):
		a.append(Vector3(i, i / 2.0, -i))
	return a


# (i/255, 0.5, 1 - i/255, 1)
func color_pattern(n):
	var a = PoolColorArray()
	for i in range(n):
		a.append(Color(i / 255.0, 0.5, 1 - i / 255.0, 1))
	return a


# keys cycle "key_i" -> i, i -> "value_i", Vector2(i, i) -> [i, i/4.0]
func big_dict(n):
	var d = {}
	for i in range(n):
		if i % 3 == 0:
			d["key_%d" % i] = i
		elif i % 3 == 1:
			d[i] = "value_%d" % i
		else:
			d[Vector2(i, i)] = [i, i / 4.0]
	return d


# [] wrapped in `depth` Arrays (depth + 1 Arrays in all)
func nest_array(depth):
	var a = []
	for i in range(depth):
		a = [a]
	return a


# {"d<k>": inner, "i": k} at each level, around {"leaf": true}
func nest_dict(depth):
	var d = {"leaf": true}
	for k in range(depth):
		d = {"d%d" % k: d, "i": k}
	return d


# Alternating Array / Dictionary levels around "bottom".
func nest_mixed(depth):
	var v = "bottom"
	for k in range(depth):
		if k % 2 == 0:
			v = [k, v]
		else:
			v = {"k": v}
	return v


# [[[... ["x"] ...]]]: `value` wrapped in `depth` Arrays
func nest_array_value(depth, value):
	var a = [value]
	for i in range(depth - 1):
		a = [a]
	return a


# {"a", "b", "c"} with "a" erased and set again: it moves to the end.
func dict_reinserted():
	var d = {"a": 1, "b": 2, "c": 3}
	d.erase("a")
	d["a"] = 4
	return d


# {"a", "b", "c"} with "a" overwritten in place: it keeps its position.
func dict_overwritten():
	var d = {"a": 1, "b": 2, "c": 3}
	d["a"] = 4
	return d


# One Array referenced twice from another.
func same_ref_twice():
	var inner = [1, 2]
	return [inner, inner]


# PoolStringArray of n strings of lengths 0, 1, 2, … (mod 9) with a varying letter.
func string_pads(n):
	var a = PoolStringArray()
	for i in range(n):
		a.append(rep(char(97 + i % 26), i % 9))
	return a


# A Dictionary of n sections, each with n entries of mixed values.
func big_nested(n):
	var d = {}
	for i in range(n):
		var sec = {}
		for j in range(n):
			sec["e%d" % j] = [i * n + j, "s%d" % j, Vector2(i, j), j % 2 == 0]
		d["section_%d" % i] = sec
	return d


# n records {"id": i, "name": "player_i", "pos": Vector2(i, 2i), "hp": 100.0}
func players(n):
	var a = []
	for i in range(n):
		a.append({"id": i, "name": "player_%d" % i, "pos": Vector2(i, 2 * i), "hp": 100.0})
	return a


# The nested save-state Dictionary (same value as the Godot 4.3 corpus's game_state).
func game_state():
	return {
		"version": 3,
		"map": "res://maps/level_01.tscn",
		"seed": 1234567890123,
		"time": 1234.5678,
		"players": players(20),
		"spawn": PoolVector3Array([Vector3(1, 0, 1), Vector3(-4, 0, 2.5)]),
		"flags": PoolByteArray([1, 0, 1, 1, 0]),
		"scores": PoolIntArray([10, 20, -5]),
		"names": PoolStringArray(["alpha", "beta", "gamma"]),
		"tint": Color(0.2, 0.4, 0.6, 0.8),
		"camera": Transform(Basis(Vector3(0, 1, 0), 0.25), Vector3(0, 10, -5)),
		"path": NodePath("/root/Game/World:transform"),
		"nested": {"a": [1, [2, [3, {"b": null}]]]},
	}


func cleanup():
	for n in _keep:
		if is_instance_valid(n):
			n.free()
	_keep.clear()


# ---------------------------------------------------------------------------------------------
# Compiling expressions

# [true, value, ""] or [false, null, "ERR_PARSE_ERROR" | "error"]
func compile_expr(expr):
	var s = GDScript.new()
	s.source_code = "extends Reference\n\nfunc f(G):\n\tvar __v = " + expr + "\n\tG.eval_ok = true\n\treturn __v\n"
	if s.reload() != OK:
		return [false, null, "ERR_PARSE_ERROR"]
	var inst = s.new()
	eval_ok = false
	var v = inst.f(self)
	if not eval_ok:
		return [false, null, "error"]
	return [true, v, ""]


# ---------------------------------------------------------------------------------------------
# bytes2var that survives failure

func _decode_raw(b, allow_objects):
	_decode_ok = false
	_decode_val = null
	_decode_val = bytes2var(b, allow_objects)
	_decode_ok = true


func _log_len():
	if _log == null:
		var path = ProjectSettings.get_setting("logging/file_logging/log_path")
		if path == null or path == "":
			return -1
		var f = File.new()
		if f.open(path, File.READ) != OK:
			return -1
		_log = f
	return _log.get_len()


# The first ERR_* name the engine logged since offset `from` (the innermost failure), or "error".
func _log_err(from):
	if _log == null or from < 0:
		return "error"
	var end = _log.get_len()
	if end <= from:
		return "error"
	_log.seek(from)
	var text = _log.get_buffer(end - from).get_string_from_utf8()
	var m = _err_re.search(text)
	if m == null:
		return "error"
	return m.get_string(1)


# [true, value, ""] or [false, null, "ERR_..."] — exactly what bytes2var(b, allow_objects) did.
func decode(b, allow_objects):
	var before = _log_len()
	_decode_raw(b, allow_objects)
	if _decode_ok:
		return [true, _decode_val, ""]
	return [false, null, _log_err(before)]


# ---------------------------------------------------------------------------------------------
# Hex and line escaping

func hex_to_bytes(h):
	var n = h.length() / 2
	var b = PoolByteArray()
	b.resize(n)
	for i in range(n):
		var pair = h.substr(2 * i, 2)
		if not _hex_tbl.has(pair):
			return null
		b[i] = _hex_tbl[pair]
	if h.length() % 2 != 0:
		return null
	return b


# \ -> \\, newline -> \n, tab -> \t, CR -> \r; a code point that UTF-8 cannot carry
# (a lone surrogate U+D800..U+DFFF, or > U+10FFFF) -> \u{hex}.
func esc(s):
	var out = s.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
	var bad = false
	for i in range(out.length()):
		var c = out.ord_at(i)
		if (c >= 0xD800 and c <= 0xDFFF) or c > 0x10FFFF:
			bad = true
			break
	if not bad:
		return out
	var r = ""
	for i in range(out.length()):
		var c = out.ord_at(i)
		if (c >= 0xD800 and c <= 0xDFFF) or c > 0x10FFFF:
			r += "\\u{%x}" % c
		else:
			r += out[i]
	return r


# The inverse of esc() for \\ \n \t \r (\u{...} is not decoded: requests never need it).
func unesc(s):
	if s.find("\\") < 0:
		return s
	var out = ""
	var i = 0
	var n = s.length()
	while i < n:
		var j = s.find("\\", i)
		if j < 0 or j == n - 1:
			out += s.substr(i, n - i)
			break
		out += s.substr(i, j - i)
		var c = s[j + 1]
		if c == "n":
			out += "\n"
		elif c == "t":
			out += "\t"
		elif c == "r":
			out += "\r"
		else:
			out += c
		i = j + 2
	return out
