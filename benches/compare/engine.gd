# The engine's side of benches/compare/run.sh (Godot 3.2.3, `godot3-server -s engine.gd`).
#
# GDV_MODE=make: builds W1-W4 in the engine and writes var2bytes of each to
#   $GDV_DIR/<name>.engine3.bin (ours must be the same bytes: `compare check`).
# GDV_MODE=time: times the engine's own bytes2var / var2bytes on $GDV_DIR/<name>.godot3.bin and
#   prints one JSON line per measurement: the median over samples of a timing loop, minus the
#   cost of the same loop with an empty body (so the engine is not charged for GDScript's loop).
# Inputs come through environment variables: Godot 3.2 keeps parsing options after `--`.
extends SceneTree

const NAMES = ["w1_float32_1m", "w2_bytes_16mib", "w3_dicts_100k", "w4_dict"]


func player(i):
	return {"id": i, "name": "player_%d" % i, "pos": Vector2(i, 2 * i), "hp": 100.0}


func workload(name):
	if name == "w1_float32_1m":
		var a = PoolRealArray()
		a.resize(1000000)
		for i in range(1000000):
			a[i] = float(i) * 0.25
		return a
	if name == "w2_bytes_16mib":
		# i % 251, built by doubling (the copy starts at a multiple of 251, so it stays i % 251).
		var a = PoolByteArray()
		for i in range(251):
			a.append(i)
		while a.size() < 16 * 1024 * 1024:
			a.append_array(a)
		a.resize(16 * 1024 * 1024)
		return a
	if name == "w3_dicts_100k":
		var a = []
		for i in range(100000):
			a.append(player(i))
		return a
	return player(1)


func read(path):
	var f = File.new()
	if f.open(path, File.READ) != OK:
		return null
	var b = f.get_buffer(f.get_len())
	f.close()
	return b


func median(xs):
	xs.sort()
	return xs[xs.size() / 2]


# Median microseconds per call of the loop body over `samples` samples of `batch` calls.
func time_decode(bytes, batch, samples):
	var times = []
	var v = null
	for s in range(samples):
		var t0 = OS.get_ticks_usec()
		for i in range(batch):
			v = bytes2var(bytes)
		times.append(float(OS.get_ticks_usec() - t0) / batch)
	return median(times)


func time_encode(value, batch, samples):
	var times = []
	var b = null
	for s in range(samples):
		var t0 = OS.get_ticks_usec()
		for i in range(batch):
			b = var2bytes(value)
		times.append(float(OS.get_ticks_usec() - t0) / batch)
	return median(times)


func time_empty(value, batch, samples):
	var times = []
	var b = null
	for s in range(samples):
		var t0 = OS.get_ticks_usec()
		for i in range(batch):
			b = value
		times.append(float(OS.get_ticks_usec() - t0) / batch)
	return median(times)


func emit(op, name, us, overhead_us, size):
	var net = max(us - overhead_us, 0.0)
	var tool = OS.get_environment("GDV_TOOL")
	if tool == "":
		tool = "godot3"
	print('{"tool":"' + tool + '","op":"%s","dialect":"godot3","workload":"%s","median_ns":%.1f,"loop_overhead_ns":%.1f,"bytes":%d}' % [op, name, net * 1000.0, overhead_us * 1000.0, size])


func _init():
	var dir = OS.get_environment("GDV_DIR")
	var mode = OS.get_environment("GDV_MODE")
	var only = OS.get_environment("GDV_FILTER")
	for name in NAMES:
		if only != "" and name.find(only) < 0:
			continue
		if mode == "make":
			var f = File.new()
			f.open(dir + "/" + name + ".engine3.bin", File.WRITE)
			f.store_buffer(var2bytes(workload(name)))
			f.close()
			continue
		var bytes = read(dir + "/" + name + ".godot3.bin")
		if bytes == null:
			continue
		var value = bytes2var(bytes)
		var big = bytes.size() > 1024 * 1024
		var batch = 1 if big else 20000
		var samples = 11 if big else 21
		var overhead = time_empty(value, batch, samples)
		emit("decode", name, time_decode(bytes, batch, samples), overhead, bytes.size())
		emit("encode", name, time_encode(value, batch, samples), overhead, bytes.size())
	quit()
