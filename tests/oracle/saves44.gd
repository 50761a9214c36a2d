# The Godot 4.4+ part of the save corpus (loaded by saves4.gd on 4.4 and later): typed
# Dictionaries, whose syntax Godot 4.3 does not parse.
extends RefCounted


func write_all(s):
	s.store("typed_dicts.sav", [typed_dicts()], false, false, "typed Dictionaries (Dictionary[String, int], ...)")
	s.store("typed_dicts_be.sav", [typed_dicts()], true, false, "typed Dictionaries, big_endian")
	s.bare("typed_dicts_bare.sav", [typed_dicts()], false, "typed Dictionaries")
	s.store("inventory_counts.sav", [item_counts()], false, false, "one Dictionary[String, int]")


func item_counts():
	var counts: Dictionary[String, int] = {"potion": 5, "arrow": 42, "key": 1}
	return counts


func typed_dicts():
	var tiles: Dictionary[Vector2i, StringName] = {Vector2i(2, 5): &"door", Vector2i(14, 9): &"chest"}
	var stats: Dictionary[StringName, float] = {&"speed": 2.5, &"jump": 7.25}
	var loose: Dictionary[String, Variant] = {"name": "Ann", "level": 7}
	return {"items": item_counts(), "tiles": tiles, "stats": stats, "misc": loose}
