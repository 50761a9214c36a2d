# The Godot 4 engines' side of benches/compare/run.sh (4.3 and 4.4.1, headless template builds).
#
# GDV_MODE=make: builds W1-W4 in the engine and writes var_to_bytes of each to
#   $GDV_DIR/<name>.engine<version>.bin (ours must be the same bytes: `compare check`).
# GDV_MODE=time: times the engine's own bytes_to_var / var_to_bytes on $GDV_DIR/<name>.godot4.bin
#   and prints one JSON line per operation with two times per call, the way
#   ../../../shared/reference/godot43-timings.md describes and ours.rs copies on our side:
#   keep_ns, the call alone with its result kept alive (freed outside the clock), and free_ns,
#   the call plus releasing its result. Each is a median over samples of a loop minus the
#   median of the same loop storing an existing value, so GDScript's loop is not charged.
# The same protocol is in engine.gd for Godot 3.2.3; inputs come through environment variables.
extends SceneTree

const NAMES = ["w1_float32_1m", "w2_bytes_16mib", "w3_dicts_100k", "w4_dict"]
# W4 is about a microsecond, far below the clock's microsecond: many calls per sample, their
# results stored in a pre-sized Array as they would be kept by a caller.
const SMALL_BATCH = 20000
# Seven samples per operation and round: a W3 sample (call and release) costs an engine a quarter
# of a second to a second, and the best of several rounds steadies more than more samples do.
const SAMPLES = 7
# glibc keeps many small frees in its fast bins and does the work of merging them at the next
# malloc of 1 KiB or more, whoever makes it. Every timed release ends with such an allocation so
# that this cost is charged to the release and not to the next timed call.
const PAD_BYTES = 4096


func player(i):
	return {"id": i, "name": "player_%d" % i, "pos": Vector2(i, 2 * i), "hp": 100.0}


func workload(name):
	if name == "w1_float32_1m":
		var a = PackedFloat32Array()
		a.resize(1000000)
		for i in 1000000:
			a[i] = float(i) * 0.25
		return a
	if name == "w2_bytes_16mib":
		# i % 251, built by doubling (the copy starts at a multiple of 251, so it stays i % 251).
		var a = PackedByteArray()
		for i in 251:
			a.append(i)
		while a.size() < 16 * 1024 * 1024:
			a.append_array(a)
		a.resize(16 * 1024 * 1024)
		return a
	if name == "w3_dicts_100k":
		var a = []
		for i in 100000:
			a.append(player(i))
		return a
	return player(1)


# The timed bodies are functions of their own: a call's result passes through a stack temporary,
# and a temporary of the timing function itself could keep the last result alive past its
# release; one whose frame is gone cannot.
func decode_into(keep: Array, batch: int, bytes: PackedByteArray) -> void:
	for i in batch:
		keep[i] = bytes_to_var(bytes)


func encode_into(keep: Array, batch: int, value) -> void:
	for i in batch:
		keep[i] = var_to_bytes(value)


# The empty loop: the same stores of a value that already exists (a reference count, no work).
func store_into(keep: Array, batch: int, value) -> void:
	for i in batch:
		keep[i] = value


func release(keep: Array, batch: int) -> void:
	for i in batch:
		keep[i] = null
	var pad = PackedByteArray()
	pad.resize(PAD_BYTES)


func median(xs):
	xs.sort()
	return xs[xs.size() / 2]


# One operation timed both ways. Per sample: the loop storing an existing value and its release
# (the overhead), then the real calls and their release.
func time_op(op, input, value, batch):
	var keep = []
	keep.resize(batch)
	var empty_call = []
	var empty_release = []
	var empty_both = []
	var calls = []
	var releases = []
	var both = []
	for s in SAMPLES:
		var t0 = Time.get_ticks_usec()
		store_into(keep, batch, value)
		var t1 = Time.get_ticks_usec()
		release(keep, batch)
		var t2 = Time.get_ticks_usec()
		if op == "decode":
			decode_into(keep, batch, input)
		else:
			encode_into(keep, batch, input)
		var t3 = Time.get_ticks_usec()
		release(keep, batch)
		var t4 = Time.get_ticks_usec()
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


func tool_name():
	var v = Engine.get_version_info()
	var name = "godot%d.%d" % [v.major, v.minor]
	if v.patch != 0:
		name += ".%d" % v.patch
	return name


# GDV_TOOL_SUFFIX names a pass apart (run.sh's W3 with glibc's trimming off: "-notrim").
func emit(op, name, t, size):
	var fields = [tool_name() + OS.get_environment("GDV_TOOL_SUFFIX"), op, name, t.keep * 1000.0, t.free * 1000.0, t.release * 1000.0, t.overhead * 1000.0, size]
	print('{"tool":"%s","op":"%s","dialect":"godot4","workload":"%s","keep_ns":%.1f,"free_ns":%.1f,"release_ns":%.1f,"loop_overhead_ns":%.1f,"bytes":%d}' % fields)


func _initialize():
	var dir = OS.get_environment("GDV_DIR")
	var mode = OS.get_environment("GDV_MODE")
	var only = OS.get_environment("GDV_FILTER")
	for name in NAMES:
		if only != "" and name.find(only) < 0:
			continue
		if mode == "make":
			var f = FileAccess.open(dir + "/" + name + ".engine" + tool_name().trim_prefix("godot") + ".bin", FileAccess.WRITE)
			f.store_buffer(var_to_bytes(workload(name)))
			f.close()
			continue
		var bytes = FileAccess.get_file_as_bytes(dir + "/" + name + ".godot4.bin")
		if bytes.is_empty():
			continue
		var value = bytes_to_var(bytes)
		var batch = 1 if bytes.size() > 1024 * 1024 else SMALL_BATCH
		emit("decode", name, time_op("decode", bytes, value, batch), bytes.size())
		emit("encode", name, time_op("encode", value, value, batch), bytes.size())
	quit()
