# Writes every container × mode with store_var values (WRITE_DIR), then reads every
# container in READ_DIR back and stores its values plainly (READ_DIR/<name>.plain).
extends SceneTree

const PASSWORD = "correct horse"

func key():
	var k = PackedByteArray()
	for i in range(32):
		k.append((i * 7 + 3) % 256)
	return k

func values():
	var big = PackedByteArray()
	for i in range(10000):
		big.append((i * 31 + i / 97) % 256)
	return [null, true, 42, -7000000000, 3.5, "héllo ✓", Vector2(1, 2), Vector2i(3, 4),
		Rect2(1, 2, 3, 4), Rect2i(1, 2, 3, 4), Vector3(1, 2, 3), Vector3i(1, 2, 3),
		Transform2D(0.5, Vector2(3, 4)), Vector4(1, 2, 3, 4), Vector4i(1, 2, 3, 4),
		Plane(1, 2, 3, 4), Quaternion(0, 0, 0, 1), AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		Basis(Vector3(0, 1, 0), 0.5), Transform3D(), Projection(), Color(0.1, 0.2, 0.3, 0.4),
		StringName("sn"), NodePath("a/b:c"), {"a": 1, 2: [3]}, [1, "x", null],
		PackedByteArray([1, 2, 3]), PackedInt32Array([1, -2]), PackedInt64Array([1 << 40]),
		PackedFloat32Array([1.5]), PackedFloat64Array([2.25]), PackedStringArray(["a", "b"]),
		PackedVector2Array([Vector2(1, 2)]), PackedVector3Array([Vector3(1, 2, 3)]),
		PackedColorArray([Color(1, 0, 0)]), big]

func store(f):
	for v in values():
		f.store_var(v)
	f.close()

func _initialize():
	var dir = OS.get_environment("WRITE_DIR")
	if dir != "":
		store(FileAccess.open(dir + "/plain.bin", FileAccess.WRITE))
		store(FileAccess.open_encrypted_with_pass(dir + "/encrypted-pass.bin", FileAccess.WRITE, PASSWORD))
		store(FileAccess.open_encrypted(dir + "/encrypted-key.bin", FileAccess.WRITE, key()))
		for mode in [[FileAccess.COMPRESSION_FASTLZ, "fastlz"], [FileAccess.COMPRESSION_DEFLATE, "deflate"], [FileAccess.COMPRESSION_ZSTD, "zstd"], [FileAccess.COMPRESSION_GZIP, "gzip"]]:
			store(FileAccess.open_compressed(dir + "/compressed-" + mode[1] + ".bin", FileAccess.WRITE, mode[0]))
			var f = FileAccess.open_compressed(dir + "/exact-" + mode[1] + ".bin", FileAccess.WRITE, mode[0])
			var b = PackedByteArray()
			for i in range(8192):
				b.append(i % 251)
			f.store_buffer(b)
			f.close()

		var cfg = ConfigFile.new()
		cfg.set_value("player", "name", "ann")
		cfg.set_value("player", "hp", 90)
		cfg.set_value("player", "pos", Vector2(1, 2))
		cfg.set_value("world", "items", [1, "x", {"a": Color(1, 0, 0)}])
		cfg.set_value("world", "seen", PackedInt32Array([1, 2]))
		cfg.save(dir + "/config.cfg")
		cfg.save_encrypted_pass(dir + "/config-encrypted.cfg", PASSWORD)
	var rdir = OS.get_environment("READ_DIR")
	if rdir != "":
		for line in FileAccess.get_file_as_string(rdir + "/list.txt").split("\n", false):
			var parts = line.split(" ")
			var path = rdir + "/" + parts[0]
			if parts[1].begins_with("cfg"):
				var c = ConfigFile.new()
				var err = c.load(path) if parts[1] == "cfg" else c.load_encrypted_pass(path, PASSWORD)
				var plain = FileAccess.open(path + ".plain", FileAccess.WRITE)
				if err != OK:
					plain.store_string("error %d" % err)
				else:
					for s in c.get_sections():
						for k in c.get_section_keys(s):
							plain.store_var(c.get_value(s, k))
				plain.close()
				continue
			var f
			if parts[1] == "pass":
				f = FileAccess.open_encrypted_with_pass(path, FileAccess.READ, PASSWORD)
			elif parts[1] == "key":
				f = FileAccess.open_encrypted(path, FileAccess.READ, key())
			else:
				f = FileAccess.open_compressed(path, FileAccess.READ, int(parts[1]))
			var out = FileAccess.open(path + ".plain", FileAccess.WRITE)
			if f == null:
				out.store_string("error %d" % FileAccess.get_open_error())
			else:
				while f.get_position() < f.get_length():
					out.store_var(f.get_var())
			out.close()
	quit()
