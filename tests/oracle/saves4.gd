# Writes the Godot 4 save-file corpus (tests/fixtures/saves/godot4.3/, godot4.4.1/) the way games
# write saves: FileAccess.store_var (one value, several values, full objects, big_endian),
# var_to_bytes written with store_buffer, and ProjectSettings.save_custom to a .binary (ECFG)
# file. On 4.4 and later saves44.gd adds typed Dictionaries (a syntax 4.3 does not parse).
#
#   SAVES_OUT=<abs out dir> godot --headless --path PROJECT --script res://saves4.gd
#   (PROJECT holds project.godot and a copy of saves4.gd and saves44.gd;
#   tests/oracle/make_saves.sh does all this)
#
# Every value is a constant: rerunning gives the same bytes. No NodePath (var_to_bytes leaves
# its padding uninitialised) and no Object without full_objects (that writes its instance id).
# Each file gets one line in <out dir>/files.tsv:
#   name \t dialect \t container \t framing (as gdvariant's Framing displays it) \t call \t what
# The engine reads each store_var file and each one-value bare file back (get_var,
# bytes_to_var) and must get values that encode to the same bytes; when all is well the last
# line is "end".
extends SceneTree

const LE = "store_var (little-endian prefix)"
const BE = "store_var (big-endian prefix)"
const BARE = "bare values (no prefix)"

# A save-data resource as games declare it (class_name SaveData extends Resource). Godot 4
# encodes an object's script as its path, so the script is written to res://save_data.gd.
const SAVE_DATA_SOURCE = """extends Resource

@export var slot := 1
@export var player_name := "Ann"
@export var gold := 250
@export var unlocked: Array[int] = [1, 2, 5]
"""

# What a game that serialises to JSON first stores: one String.
const JSON_TEXT = "{\"name\":\"Ann\",\"level\":7,\"hp\":87.5,\"inventory\":[\"sword\",\"potion\"]}"

var out_dir = ""
var rows = PackedStringArray()
var failed = false


func _initialize():
	out_dir = OS.get_environment("SAVES_OUT")
	if out_dir == "":
		printerr("saves4.gd: SAVES_OUT is not set")
		quit(1)
		return
	write_all()
	if Engine.get_version_info().hex >= 0x040400:
		var more = load("res://saves44.gd")
		if more == null:
			fail("cannot load saves44.gd")
		else:
			more.new().write_all(self)
	if not failed:
		rows.append("end")
	var f = FileAccess.open(out_dir + "/files.tsv", FileAccess.WRITE)
	if f == null:
		printerr("saves4.gd: cannot write files.tsv")
	else:
		for r in rows:
			f.store_string(r + "\n")
		f.close()
	quit(1 if failed else 0)


func write_all():
	# Single values: one store_var call, as most save systems do.
	store("player.sav", [player()], false, false, "the player state")
	store("player_be.sav", [player()], true, false, "the player state, big_endian")
	store("level_3d.sav", [level_3d()], false, false, "a 3D level: transforms, AABBs, packed arrays")
	store("settings.sav", [settings()], false, false, "game settings and key codes")
	store("highscores.sav", [highscores()], false, false, "an Array of score Dictionaries")
	store("world_chunk.sav", [world_chunk()], false, false, "tile data in packed arrays, Vector2i keys")
	store("stats_doubles.sav", [stats()], false, false, "reals that need 64 bits, big ints")
	store("unicode_names.sav", [unicode_names()], false, false, "non-ASCII strings")
	store("stringname_keys.sav", [stringname_keys()], false, false, "a Dictionary literal with StringName keys and values")
	store("typed_arrays.sav", [typed_arrays()], false, false, "typed Arrays (Array[int], Array[String], ...)")
	store("records.sav", [records()], false, false, "best times with INF and 1e38 as \"no record yet\"")
	store("empty_dict.sav", [{}], false, false, "an empty Dictionary")
	store("empty_array.sav", [[]], false, false, "an empty Array")
	# Small saves: ids 0-5 are the same in every dialect, so these are ambiguous by nature.
	store("level_number.sav", [3], false, false, "one int")
	store("slot_name.sav", ["slot_1"], false, false, "one short String")
	store("tutorial_done.sav", [true], false, false, "one bool")
	store("playtime_ms.sav", [98765432101], false, false, "one 64-bit int")
	store("checkpoint_pos.sav", [Vector2(320.5, 148)], false, false, "one Vector2")
	store("grid_pos.sav", [Vector2i(12, -3)], false, false, "one Vector2i")
	store("json_text.sav", [JSON_TEXT], false, false, "a save kept as JSON text in one String")
	store("scalars.sav", [2, "Ann", 87.5, false], false, false, "four scalars, one store_var each")
	# Several values in one file: a header, then sections.
	store("versioned.sav", [2, player()], false, false, "a format version (int), then the state")
	store("compressed.sav", compressed(), false, false, "the size, then var_to_bytes(state).compress(DEFLATE)")
	store("slot_thumbnail.sav", [{"slot": 1, "title": "Chapter 2"}, thumbnail()], false, false, "slot info and a 16x16 RGB thumbnail")
	store("savegame.sav", savegame(), false, false, "a header and five sections")
	store("savegame_be.sav", savegame(), true, false, "a header and five sections, big_endian")
	# Objects with full_objects = true.
	store("keybinds_objects.sav", [keybinds()], false, true, "InputEvent objects per action")
	store("save_data_resource.sav", [save_data()], false, true, "a scripted Resource (class SaveData)")
	store("resource_be.sav", [named_resource()], true, true, "a Resource, big_endian")
	# var_to_bytes written with store_buffer: no length prefix.
	bare("player_bare.sav", [player()], false, "the player state")
	bare("savegame_bare.sav", savegame(), false, "a header and five sections")
	bare("settings_bare.sav", [settings()], false, "game settings")
	bare("level_3d_bare.sav", [level_3d()], false, "a 3D level")
	bare("typed_arrays_bare.sav", [typed_arrays()], false, "typed Arrays")
	bare("color_bare.sav", [Color(0.2, 0.4, 0.8, 1)], false, "one Color")
	bare("score_bare.sav", [12000], false, "one int")
	bare("keybinds_bare.sav", [keybinds()], true, "InputEvent objects per action")
	# StreamPeerBuffer.put_var, its data_array written with store_buffer: store_var's framing.
	peer("peer_buffer.sav", savegame(), false, "a header and five sections")
	peer("peer_buffer_be.sav", [settings(), highscores()], true, "settings and scores, big_endian")
	# The binary project settings (what an export writes as project.binary).
	project("project_settings.binary", false, "game settings in ProjectSettings")
	project("project_export.binary", true, "settings with an input map and features, as an export has")


# ---- the values ---------------------------------------------------------------------------

func player():
	return {
		"name": "Ann",
		"class": "ranger",
		"level": 7,
		"xp": 12345,
		"hp": 87.5,
		"max_hp": 100,
		"position": Vector2(320.5, 148),
		"velocity": Vector2(0, -9.8),
		"cell": Vector2i(20, 9),
		"tint": Color(0.9, 0.3, 0.2, 1),
		"inventory": [
			{"id": "sword", "count": 1, "durability": 0.75},
			{"id": "potion", "count": 5},
			{"id": "arrow", "count": 42, "enchant": null},
		],
		"equipped": {"hand": "sword", "head": null, "rings": []},
		"flags": PackedStringArray(["intro_done", "met_bob", "found_key"]),
		"saved_at": 1700000000,
		"played_ms": 987654321012,
		"settings": {
			"audio": {"music": 0.8, "sfx": 1.0, "muted": false},
			"video": {"fullscreen": true, "vsync": true, "scale": 2},
		},
		"stars_by_level": {1: 3, 2: 2, 5: 1},
		"pets": {},
		"quests": [],
	}


func level_3d():
	return {
		"level": "forest_02",
		"spawn": Transform3D(Basis(Vector3(0, 1, 0), 0.5), Vector3(12, 0.5, -4)),
		"camera": Transform3D(Basis(), Vector3(0, 10, 15)),
		"bounds": AABB(Vector3(-64, -8, -64), Vector3(128, 32, 128)),
		"sun": Quaternion(Vector3(1, 0, 0), -0.8),
		"enemies": [
			{"kind": "wolf", "pos": Vector3(3, 0, 7), "hp": 30},
			{"kind": "wolf", "pos": Vector3(-5, 0, 9.5), "hp": 12},
			{"kind": "bear", "pos": Vector3(20, 1, -3), "hp": 120, "asleep": true},
		],
		"patrol": PackedVector3Array([Vector3(0, 0, 0), Vector3(4, 0, 0), Vector3(4, 0, 4)]),
		"floor": Plane(Vector3(0, 1, 0), 0),
		"chunk": Vector3i(1, 0, -2),
		"opened_chests": PackedInt32Array([3, 8, 21]),
		"fog": Color(0.6, 0.7, 0.75, 0.5),
		"wind": Vector4(1, 0, 0.5, 2),
		"wind_field": PackedVector4Array([Vector4(1, 0, 0, 0.5), Vector4(0.5, 0, 0.5, 1)]),
	}


func settings():
	return {
		"version": 2,
		"language": "en",
		"audio": {"master": 1.0, "music": 0.6, "sfx": 0.9},
		"video": {"fullscreen": false, "resolution": Vector2i(1920, 1080), "window": Rect2i(64, 64, 1280, 720)},
		"keys": {"jump": KEY_SPACE, "left": KEY_A, "right": KEY_D, "attack": KEY_J},
		"mouse_sensitivity": 0.35,
		"invert_y": false,
		"recent_saves": PackedStringArray(["user://slot1.sav", "user://slot2.sav"]),
	}


func highscores():
	return [
		{"name": "ANN", "score": 125000, "date": 1699999000, "level": 9},
		{"name": "BOB", "score": 98000, "date": 1699000000, "level": 7},
		{"name": "CY", "score": 4200, "date": 1690000000, "level": 2},
	]


func world_chunk():
	var tiles = PackedInt32Array()
	var heights = PackedByteArray()
	var light = PackedFloat32Array()
	var ids = PackedInt64Array()
	for i in range(256):
		tiles.append((i * 7) % 23)
		heights.append((i * 13) % 256)
	for i in range(16):
		light.append(i / 16.0)
		ids.append(4000000000 + i)
	var objects = {}
	objects[Vector2i(2, 5)] = "door"
	objects[Vector2i(14, 9)] = "chest"
	return {
		"chunk": Vector2i(3, -2),
		"tiles": tiles,
		"heights": heights,
		"light": light,
		"entity_ids": ids,
		"objects": objects,
		"doors": PackedVector2Array([Vector2(2, 5), Vector2(14, 9)]),
		"tints": PackedColorArray([Color(1, 1, 1), Color(0.5, 0.5, 0.5)]),
		"region": Rect2i(48, -32, 16, 16),
		"layout": Transform2D(0.25, Vector2(48, -32)),
	}


func stats():
	return {
		"distance_walked": 12345.678901,
		"accuracy": 0.1,
		"best_lap": 61.237,
		"gold_total": 5000000000,
		"kills": 1234,
		"deaths": -1,
		"seed": -7046029254386353131,
		"ratios": [0.3, 1.0 / 3.0, 2.0 / 3.0],
		"lap_times": PackedFloat64Array([61.237, 62.5, 60.0009]),
	}


func unicode_names():
	return {
		"hero": "Ærøskøbing",
		"pet": "ポチ",
		"motto": "Привет, мир",
		"emoji": "🐉 fire",
		"town": "Zürich",
	}


# Godot 4.3 stores the &"" keys of a Dictionary literal as Strings (the values stay StringNames);
# 4.4 keeps them StringNames.
func stringname_keys():
	return {
		&"hp": 40,
		&"state": &"idle",
		&"animation": &"walk_left",
		&"target": "player",
		&"groups": [&"enemies", &"persist"],
	}


func typed_arrays():
	var unlocked: Array[int] = [1, 2, 5, 8]
	var names: Array[String] = ["Ann", "Bob"]
	var path: Array[Vector2i] = [Vector2i(0, 0), Vector2i(1, 0), Vector2i(1, 1)]
	var items: Array[Dictionary] = [{"id": "sword"}, {"id": "shield", "def": 3}]
	var tags: Array[StringName] = [&"boss_beaten", &"secret_found"]
	var none: Array[float] = []
	return {"unlocked": unlocked, "names": names, "path": path, "items": items, "tags": tags, "times": none}


func savegame():
	return [
		{"magic": "MYGAME", "version": 3, "saved_at": 1700000000, "slot": 1},
		player(),
		{"gold": 250, "chests": PackedInt32Array([1, 4, 9]), "shops": {"smith": {"stock": 3}}},
		PackedStringArray(["intro_done", "met_bob", "found_key"]),
		{"day": 12, "time_of_day": 0.75, "weather": &"rain"},
		{"checksum": 305419896},
	]


func records():
	return {
		"best_time": INF,
		"best_lap": 1e38,
		"worst_lap": -INF,
		"best_score": 0,
		"tracks": ["dunes", "harbour"],
	}


# A save compressed by the game itself: the uncompressed size, then the deflated bytes (a byte
# array whose length is not a multiple of 4, so its encoding ends in padding).
func compressed():
	var raw = var_to_bytes(player())
	return [raw.size(), raw.compress(FileAccess.COMPRESSION_DEFLATE)]


func thumbnail():
	var rgb = PackedByteArray()
	for y in range(16):
		for x in range(16):
			rgb.append(x * 16)
			rgb.append(y * 16)
			rgb.append(128)
	return rgb


func keybinds():
	var jump = InputEventKey.new()
	jump.keycode = KEY_SPACE
	var left = InputEventKey.new()
	left.keycode = KEY_A
	left.shift_pressed = true
	var fire = InputEventMouseButton.new()
	fire.button_index = MOUSE_BUTTON_LEFT
	var pad = InputEventJoypadButton.new()
	pad.button_index = JOY_BUTTON_A
	var jump_events: Array[InputEvent] = [jump, pad]
	return {"jump": jump_events, "left": [left], "fire": [fire]}


func save_data():
	var sf = FileAccess.open("res://save_data.gd", FileAccess.WRITE)
	if sf == null:
		fail("save_data: cannot write res://save_data.gd")
		return null
	sf.store_string(SAVE_DATA_SOURCE)
	sf.close()
	var script = load("res://save_data.gd")
	if script == null:
		fail("save_data: the script does not compile")
		return null
	var r = Resource.new()
	r.set_script(script)
	r.set("gold", 1234)
	r.set("player_name", "Bob")
	return r


func named_resource():
	var r = Resource.new()
	r.resource_name = "autosave"
	return r


# ---- the writers ------------------------------------------------------------------------

# One FileAccess.store_var call per value; big_endian makes the length prefixes big-endian.
func store(name, values, big_endian, full_objects, what):
	var path = out_dir + "/" + name
	var f = FileAccess.open(path, FileAccess.WRITE)
	if f == null:
		fail(name + ": cannot open")
		return
	f.big_endian = big_endian
	for v in values:
		f.store_var(v, full_objects)
	f.close()
	var call = "FileAccess.store_var(value%s) x%d%s" % [", true" if full_objects else "", values.size(), ", big_endian = true" if big_endian else ""]
	row(name, "none", BE if big_endian else LE, call, what)
	# The engine reads its own save back.
	f = FileAccess.open(path, FileAccess.READ)
	if f == null:
		fail(name + ": cannot reopen")
		return
	f.big_endian = big_endian
	for v in values:
		same(name, v, f.get_var(full_objects), full_objects)
	if f.get_position() != f.get_length():
		fail(name + ": bytes left after the values")
	f.close()


# var_to_bytes of each value, written with FileAccess.store_buffer: no length prefix.
func bare(name, values, full_objects, what):
	var path = out_dir + "/" + name
	var f = FileAccess.open(path, FileAccess.WRITE)
	if f == null:
		fail(name + ": cannot open")
		return
	for v in values:
		f.store_buffer(var_to_bytes_with_objects(v) if full_objects else var_to_bytes(v))
	f.close()
	var fn = "var_to_bytes_with_objects" if full_objects else "var_to_bytes"
	row(name, "none", BARE, "FileAccess.store_buffer(%s(value)) x%d" % [fn, values.size()], what)
	if values.size() == 1:
		var b = FileAccess.get_file_as_bytes(path)
		same(name, values[0], bytes_to_var_with_objects(b) if full_objects else bytes_to_var(b), full_objects)


# StreamPeerBuffer.put_var for each value (big_endian: the prefixes), then the buffer's bytes
# written with FileAccess.store_buffer.
func peer(name, values, big_endian, what):
	var spb = StreamPeerBuffer.new()
	spb.big_endian = big_endian
	for v in values:
		spb.put_var(v)
	var f = FileAccess.open(out_dir + "/" + name, FileAccess.WRITE)
	if f == null:
		fail(name + ": cannot open")
		return
	f.store_buffer(spb.data_array)
	f.close()
	row(name, "none", BE if big_endian else LE, "StreamPeerBuffer.put_var(value) x%d%s, then FileAccess.store_buffer(data_array)" % [values.size(), ", big_endian = true" if big_endian else ""], what)


# ProjectSettings.save_custom to a .binary path writes the ECFG container: every setting that
# differs from its default. `export_like` adds what an exported game's project.binary holds
# (an input map of InputEvent objects, autoloads, a main scene, the feature list).
func project(name, export_like, what):
	ProjectSettings.set_setting("application/config/name", "Save Corpus")
	ProjectSettings.set_setting("game/difficulty", 2)
	ProjectSettings.set_setting("game/start_gold", 100)
	ProjectSettings.set_setting("game/gravity_scale", 1.5)
	ProjectSettings.set_setting("game/title_color", Color(0.95, 0.8, 0.2))
	if export_like:
		var v = Engine.get_version_info()
		ProjectSettings.set_setting("application/config/features", PackedStringArray(["%d.%d" % [v.major, v.minor], "GL Compatibility"]))
		ProjectSettings.set_setting("application/run/main_scene", "res://main.tscn")
		ProjectSettings.set_setting("autoload/Globals", "*res://globals.gd")
		ProjectSettings.set_setting("display/window/size/viewport_width", 640)
		ProjectSettings.set_setting("display/window/size/viewport_height", 360)
		ProjectSettings.set_setting("display/window/stretch/mode", "canvas_items")
		ProjectSettings.set_setting("layer_names/2d_physics/layer_1", "world")
		ProjectSettings.set_setting("layer_names/2d_physics/layer_2", "player")
		var kb = keybinds()
		for action in ["jump", "left", "fire"]:
			ProjectSettings.set_setting("input/" + action, {"deadzone": 0.5, "events": kb[action]})
		ProjectSettings.set_setting("global/spawn_points", PackedVector2Array([Vector2(16, 32), Vector2(600, 32)]))
		ProjectSettings.set_setting("global/grid_size", Vector2i(16, 16))
	if ProjectSettings.save_custom(out_dir + "/" + name) != OK:
		fail(name + ": save_custom failed")
		return
	row(name, "project-binary", BARE, "ProjectSettings.save_custom(\"%s\")" % name, what)


# ---- bookkeeping ------------------------------------------------------------------------

func row(name, container, framing, call, what):
	rows.append("%s\tgodot4\t%s\t%s\t%s\t%s" % [name, container, framing, call, what])


func same(name, want, got, full_objects):
	var a = var_to_bytes_with_objects(want) if full_objects else var_to_bytes(want)
	var b = var_to_bytes_with_objects(got) if full_objects else var_to_bytes(got)
	if a != b:
		fail(name + ": the engine reads back another value")


func fail(msg):
	failed = true
	printerr("saves4.gd: " + msg)
