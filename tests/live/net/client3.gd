extends SceneTree
# A Godot 3 client of the game-server examples: sends NET_COUNT player states over NET_MODE
# (store_var, packet_stream, udp or ws) to 127.0.0.1:NET_PORT, checks every reply (the state
# echoed exactly, its number, the server's name) and prints "client N: ok COUNT" or
# "client N: FAIL why".

var client = int(OS.get_environment("NET_CLIENT"))
var port = int(OS.get_environment("NET_PORT"))
var mode = OS.get_environment("NET_MODE")
var count = int(OS.get_environment("NET_COUNT"))
var deadline = 0

func _initialize():
	deadline = OS.get_ticks_msec() + 20000
	var why = run()
	if why == "":
		print("client %d: ok %d" % [client, count])
	else:
		print("client %d: FAIL %s" % [client, why])
	quit()

func state(i):
	return {"id": client, "name": "player%d" % client, "pos": Vector2(i, client * 0.5),
		"hp": 100 - i, "tags": PoolStringArray(["a", str(i)]), "alive": i % 2 == 0}

func check(i, sent, got):
	if typeof(got) != TYPE_DICTIONARY:
		return "reply %d is not a Dictionary: %s" % [i, str(got)]
	if got.get("seq") != i + 1:
		return "reply %d has seq %s" % [i, str(got.get("seq"))]
	if got.get("server") != "gdvariant":
		return "reply %d has server %s" % [i, str(got.get("server"))]
	if var2str(got.get("echo")) != var2str(sent):
		return "reply %d echoes %s" % [i, var2str(got.get("echo"))]
	return ""

func late():
	OS.delay_msec(1)
	return OS.get_ticks_msec() > deadline

func run():
	if mode == "udp":
		return run_udp()
	if mode == "ws":
		return run_ws()
	var tcp = StreamPeerTCP.new()
	if tcp.connect_to_host("127.0.0.1", port) != OK:
		return "connect_to_host failed"
	while tcp.get_status() == StreamPeerTCP.STATUS_CONNECTING:
		if late():
			return "connect timed out"
	if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		return "not connected"
	var pps = null
	if mode == "packet_stream":
		pps = PacketPeerStream.new()
		pps.stream_peer = tcp
	for i in range(count):
		var sent = state(i)
		var got
		if pps:
			pps.put_var(sent)
			while pps.get_available_packet_count() == 0:
				if late():
					return "reply %d timed out" % i
			got = pps.get_var()
		else:
			tcp.put_var(sent)
			while tcp.get_available_bytes() == 0:
				if late():
					return "reply %d timed out" % i
			got = tcp.get_var()
		var why = check(i, sent, got)
		if why != "":
			return why
	tcp.disconnect_from_host()
	return ""

func run_udp():
	var udp = PacketPeerUDP.new()
	if udp.connect_to_host("127.0.0.1", port) != OK:
		return "udp connect_to_host failed"
	for i in range(count):
		var sent = state(i)
		udp.put_var(sent)
		while udp.get_available_packet_count() == 0:
			if late():
				return "reply %d timed out" % i
		var why = check(i, sent, udp.get_var())
		if why != "":
			return why
	udp.close()
	return ""

func run_ws():
	var ws = WebSocketClient.new()
	if ws.connect_to_url("ws://127.0.0.1:%d" % port) != OK:
		return "connect_to_url failed"
	while ws.get_connection_status() != NetworkedMultiplayerPeer.CONNECTION_CONNECTED:
		if ws.get_connection_status() == NetworkedMultiplayerPeer.CONNECTION_DISCONNECTED:
			return "websocket refused"
		ws.poll()
		if late():
			return "websocket connect timed out"
	var peer = ws.get_peer(1)
	peer.set_write_mode(WebSocketPeer.WRITE_MODE_BINARY)
	for i in range(count):
		var sent = state(i)
		peer.put_var(sent)
		while peer.get_available_packet_count() == 0:
			ws.poll()
			if late():
				return "reply %d timed out" % i
		var why = check(i, sent, peer.get_var())
		if why != "":
			return why
	ws.disconnect_from_host()
	return ""
