# Writes the stream fixtures (tests/fixtures/godot3/streams/) with the engine's own I/O classes.
#
#   ORACLE3_STREAMS_DIR=<out dir> LANG=en godot3-server -s /abs/path/streams.gd
#
# Each file gets one line in <out dir>/streams.tsv per value it holds:
#   file \t framing \t endianness \t index \t expr \t var2str (escaped) \t hex of var2bytes(value)
#        \t var2str (escaped) of the value the engine read back from the file
extends SceneTree

var C = null
var out_dir = ""
var meta = PoolStringArray()

# Mixed values for the File / StreamPeer / PacketPeerStream files (GDScript 3 expressions).
const MIXED = [
	"42",
	"\"hello\"",
	"Vector2(1, 2)",
	"[1, \"two\", 3.0]",
	"{\"k\": null, \"n\": -7}",
	"PoolByteArray([1, 2, 3])",
	"1e300",
	"NodePath(\"/root/Main:position\")",
	"null",
]

# A realistic save game written by several store_var calls.
const SAVEGAME = [
	"{\"magic\": \"GDSAVE\", \"version\": 3, \"saved_at\": 1700000000, \"slot\": 1}",
	"{\"name\": \"ann\", \"hp\": 90, \"max_hp\": 100, \"pos\": Vector2(3, 4), \"level\": 7, \"xp\": 12345, \"class\": 2}",
	"{\"gold\": 250, \"items\": [[\"sword\", 1], [\"potion\", 5]], \"equipped\": {\"hand\": \"sword\", \"head\": null}}",
	"PoolStringArray([\"intro_done\", \"met_bob\", \"found_key\"])",
	"G.game_state()",
	"{\"volume\": 0.8, \"fullscreen\": true, \"resolution\": Vector2(1920, 1080)}",
]


func _init():
	quit()
	var common = load(get_script().resource_path.get_base_dir() + "/common.gd")
	if common == null or not common.can_instance():
		printerr("streams.gd: cannot load common.gd")
		return
	C = common.new()
	out_dir = OS.get_environment("ORACLE3_STREAMS_DIR")
	if out_dir == "":
		printerr("streams.gd: ORACLE3_STREAMS_DIR is not set")
		return
	write_file("file_store_var_le.bin", MIXED, false)
	write_file("file_store_var_be.bin", MIXED, true)
	write_stream_peer("stream_peer_buffer.bin", MIXED, false)
	write_stream_peer("stream_peer_buffer_be.bin", MIXED, true)
	write_packet_peer_stream("packet_peer_stream.bin", MIXED)
	write_file("savegame.sav", SAVEGAME, false)
	C.cleanup()
	var f = File.new()
	if f.open(out_dir + "/streams.tsv", File.WRITE) != OK:
		printerr("streams.gd: cannot write streams.tsv")
		return
	for line in meta:
		f.store_string(line + "\n")
	f.close()


func values_of(exprs):
	var vals = []
	for e in exprs:
		var r = C.compile_expr(e)
		assert(r[0])
		vals.append(r[1])
	return vals


func record(file, framing, endianness, exprs, vals, back):
	for i in range(vals.size()):
		var back_text = "<missing>"
		if i < back.size():
			back_text = var2str(back[i])
		meta.append("%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s" % [file, framing, endianness, i, C.esc(exprs[i]),
				C.esc(var2str(vals[i])), var2bytes(vals[i]).hex_encode(), C.esc(back_text)])


# File.store_var: u32 length (honours File.endian_swap) + var2bytes payload, per value.
func write_file(name, exprs, big_endian):
	var vals = values_of(exprs)
	var path = out_dir + "/" + name
	var f = File.new()
	f.open(path, File.WRITE)
	f.endian_swap = big_endian
	for v in vals:
		f.store_var(v)
	f.close()
	var back = []
	f.open(path, File.READ)
	f.endian_swap = big_endian
	for i in range(vals.size()):
		back.append(f.get_var())
	f.close()
	record(name, "File.store_var", "big" if big_endian else "little", exprs, vals, back)


# StreamPeerBuffer.put_var: u32 length (honours big_endian) + payload, per value.
func write_stream_peer(name, exprs, big_endian):
	var vals = values_of(exprs)
	var spb = StreamPeerBuffer.new()
	spb.big_endian = big_endian
	for v in vals:
		spb.put_var(v)
	save_bytes(name, spb.data_array)
	var rd = StreamPeerBuffer.new()
	rd.big_endian = big_endian
	rd.data_array = spb.data_array
	var back = []
	for i in range(vals.size()):
		back.append(rd.get_var())
	record(name, "StreamPeer.put_var", "big" if big_endian else "little", exprs, vals, back)


# PacketPeerStream.put_var over a StreamPeerBuffer: one packet per value, u32 length + payload.
func write_packet_peer_stream(name, exprs):
	var vals = values_of(exprs)
	var spb = StreamPeerBuffer.new()
	var pps = PacketPeerStream.new()
	pps.stream_peer = spb
	for v in vals:
		pps.put_var(v)
	save_bytes(name, spb.data_array)
	var rd = StreamPeerBuffer.new()
	rd.data_array = spb.data_array
	var pin = PacketPeerStream.new()
	pin.stream_peer = rd
	var back = []
	for i in range(vals.size()):
		back.append(pin.get_var())
	record(name, "PacketPeerStream.put_var", "little", exprs, vals, back)


func save_bytes(name, bytes):
	var f = File.new()
	f.open(out_dir + "/" + name, File.WRITE)
	f.store_buffer(bytes)
	f.close()
