# The engine's side of benches/compare/run.sh (Godot 3.2.3, `godot3-server -s engine.gd`).
#
# GDV_MODE=make: builds W1-W4 in the engine and writes var2bytes of each to
#   $GDV_DIR/<name>.engine3.bin (ours must be the same bytes: `compare check`).
# GDV_MODE=time: times the engine's own bytes2var / var2bytes on $GDV_DIR/<name>.godot3.bin and
#   prints one JSON line per operation with two times per call (the protocol of engine4.gd, which
#   times Godot 4.3 and 4.4.1): keep_ns, the call with its result kept alive, and free_ns, the
#   call plus releasing its result; each a median over samples minus GDScript's loop.
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


# Seven samples per operation and round: a W3 sample (call and release) costs an engine a quarter
# of a second to a second, and the best of several rounds steadies more than more samples do.
const SAMPLES = 7
# W4 is about a microsecond, at the clock's resolution: many calls per sample, their results
# stored in a pre-sized Array as a caller would keep them.
const SMALL_BATCH = 20000
# glibc keeps many small frees in its fast bins and does the work of merging them at the next
# malloc of 1 KiB or more, whoever makes it. Every timed release ends with such an allocation so
# that this cost is charged to the release and not to the next timed call.
const PAD_BYTES = 4096


# The timed bodies are functions of their own: a call's result passes through a stack temporary,
# and a temporary of the timing function itself could keep the last result alive past its
# release; one whose function has returned cannot.
func decode_into(keep, batch, bytes):
	for i in range(batch):
		keep[i] = bytes2var(bytes)


func encode_into(keep, batch, value):
	for i in range(batch):
		keep[i] = var2bytes(value)


# The empty loop: the same stores of a value that already exists (a reference count, no work).
func store_into(keep, batch, value):
	for i in range(batch):
		keep[i] = value


func release(keep, batch):
	for i in range(batch):
		keep[i] = null
	var pad = PoolByteArray()
	pad.resize(PAD_BYTES)


func median(xs):
	xs.sort()
	return xs[xs.size() / 2]


# One operation timed both ways, as engine4.gd does. Per sample: the loop storing an existing
# value and its release (the overhead), then the real calls and their release.
func time_op(op, input, value, batch):
	var keep = []
	keep.resize(batch)
	var empty_call = []
	var empty_release = []
	var empty_both = []
	var calls = []
	var releases = []
	var both = []
	for s in range(SAMPLES):
		var t0 = OS.get_ticks_usec()
		store_into(keep, batch, value)
		var t1 = OS.get_ticks_usec()
		release(keep, batch)
		var t2 = OS.get_ticks_usec()
		if op == "decode":
			decode_into(keep, batch, input)
		else:
			encode_into(keep, batch, input)
		var t3 = OS.get_ticks_usec()
		release(keep, batch)
		var t4 = OS.get_ticks_usec()
		empty_call.append(float(t1 - t0) / batch)
		empty_release.append(float(t2 - t1) / batch)
		empty_both.append(float(t2 - t0) / batch)
		calls.append(float(t3 - t2) / batch)
		releases.append(float(t4 - t3) / batch)
		both.append(float(t4 - t2) / batch)
	var overhead = median(empty_call)
	return {
		"keep": max(median(calls) - overhead, 0.0),
		"free": max(median(both) - median(empty_both), 0.0),
		"release": max(median(releases) - median(empty_release), 0.0),
		"overhead": overhead,
	}


func emit(op, name, t, size):
	var tool = OS.get_environment("GDV_TOOL")
	if tool == "":
		tool = "godot3"
	var fields = [tool, op, name, t.keep * 1000.0, t.free * 1000.0, t.release * 1000.0, t.overhead * 1000.0, size]
	print('{"tool":"%s","op":"%s","dialect":"godot3","workload":"%s","keep_ns":%.1f,"free_ns":%.1f,"release_ns":%.1f,"loop_overhead_ns":%.1f,"bytes":%d}' % fields)


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
		var batch = 1 if bytes.size() > 1024 * 1024 else SMALL_BATCH
		emit("decode", name, time_op("decode", bytes, value, batch), bytes.size())
		emit("encode", name, time_op("encode", value, value, batch), bytes.size())
	quit()
