# Writes every container × mode with store_var values (WRITE_DIR), then reads every
# container in READ_DIR back and stores its values plainly (READ_DIR/<name>.plain).
extends SceneTree

const PASSWORD = "correct horse"

func key():
	var k = PoolByteArray()
	for i in range(32):
		k.append((i * 7 + 3) % 256)
	return k

func values():
	var big = PoolByteArray()
	for i in range(10000):
		big.append((i * 31 + i / 97) % 256)
	return [null, true, 42, -7000000000, 3.5, "héllo ✓", Vector2(1, 2), Rect2(1, 2, 3, 4),
		Vector3(1, 2, 3), Transform2D(0.5, Vector2(3, 4)), Plane(1, 2, 3, 4), Quat(0, 0, 0, 1),
		AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), Basis(Vector3(0, 1, 0), 0.5), Transform(),
		Color(0.1, 0.2, 0.3, 0.4), NodePath("a/b:c"), {"a": 1, 2: [3]}, [1, "x", null],
		PoolByteArray([1, 2, 3]), PoolIntArray([1, -2]), PoolRealArray([1.5]),
		PoolStringArray(["a", "b"]), PoolVector2Array([Vector2(1, 2)]),
		PoolVector3Array([Vector3(1, 2, 3)]), PoolColorArray([Color(1, 0, 0)]), big]

func store(f):
	for v in values():
		f.store_var(v)
	f.close()

func _init():
	var dir = OS.get_environment("WRITE_DIR")
	if dir != "":
		var f = File.new()
		f.open(dir + "/plain.bin", File.WRITE)
		store(f)
		f = File.new()
		f.open_encrypted_with_pass(dir + "/encrypted-pass.bin", File.WRITE, PASSWORD)
		store(f)
		f = File.new()
		f.open_encrypted(dir + "/encrypted-key.bin", File.WRITE, key())
		store(f)
		for mode in [[File.COMPRESSION_FASTLZ, "fastlz"], [File.COMPRESSION_DEFLATE, "deflate"], [File.COMPRESSION_ZSTD, "zstd"], [File.COMPRESSION_GZIP, "gzip"]]:
			f = File.new()
			f.open_compressed(dir + "/compressed-" + mode[1] + ".bin", File.WRITE, mode[0])
			store(f)
			# Exactly two blocks: the engine adds an empty third.
			f = File.new()
			f.open_compressed(dir + "/exact-" + mode[1] + ".bin", File.WRITE, mode[0])
			var b = PoolByteArray()
			for i in range(8192):
				b.append(i % 251)
			f.store_buffer(b)
			f.close()

		var cfg = ConfigFile.new()
		cfg.set_value("player", "name", "ann")
		cfg.set_value("player", "hp", 90)
		cfg.set_value("player", "pos", Vector2(1, 2))
		cfg.set_value("world", "items", [1, "x", {"a": Color(1, 0, 0)}])
		cfg.set_value("world", "seen", PoolIntArray([1, 2]))
		cfg.save(dir + "/config.cfg")
		cfg.save_encrypted_pass(dir + "/config-encrypted.cfg", PASSWORD)
	var rdir = OS.get_environment("READ_DIR")
	if rdir != "":
		var names = File.new()
		names.open(rdir + "/list.txt", File.READ)
		while true:
			var line = names.get_line()
			if line == "":
				break
			var parts = line.split(" ")
			if parts[1].begins_with("cfg"):
				var c = ConfigFile.new()
				var cerr
				if parts[1] == "cfg":
					cerr = c.load(rdir + "/" + parts[0])
				else:
					cerr = c.load_encrypted_pass(rdir + "/" + parts[0], PASSWORD)
				var plain = File.new()
				plain.open(rdir + "/" + parts[0] + ".plain", File.WRITE)
				if cerr != OK:
					plain.store_string("error %d" % cerr)
				else:
					for s in c.get_sections():
						for k in c.get_section_keys(s):
							plain.store_var(c.get_value(s, k))
				plain.close()
				continue
			var f = File.new()
			var err
			if parts[1] == "pass":
				err = f.open_encrypted_with_pass(rdir + "/" + parts[0], File.READ, PASSWORD)
			elif parts[1] == "key":
				err = f.open_encrypted(rdir + "/" + parts[0], File.READ, key())
			else:
				err = f.open_compressed(rdir + "/" + parts[0], File.READ, int(parts[1]))
			var out = File.new()
			out.open(rdir + "/" + parts[0] + ".plain", File.WRITE)
			if err != OK:
				out.store_string("error %d" % err)
			else:
				while f.get_position() < f.get_len():
					out.store_var(f.get_var())
			out.close()
	quit()
