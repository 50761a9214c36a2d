extends SceneTree
# The game the live debugger tests talk to (Godot 4): it prints, reports an error from a
# known line, stops on a runtime error while its Probe's value is not an int, and prints every
# value the debugger sets; 1000 makes it quit (by quit(): what _idle returns does not stop a
# Godot 3.2 SceneTree).

var probe
var last = 0
var frames = 0
var started = 0

func _initialize():
	Engine.max_fps = 30
	var script = GDScript.new()
	script.source_code = "extends Node\nvar value = 0\n"
	script.reload()
	probe = Node.new()
	probe.name = "Probe"
	probe.set_script(script)
	root.add_child(probe)
	started = Time.get_ticks_msec()
	print("game: ready")
	# A message to a capture of our own, as an editor plugin's game side would send.
	EngineDebugger.send_message("gdvariant:hello", ["from the game", 42])

func _process(_delta):
	frames += 1
	if frames == 5:
		report_problem()
	if typeof(probe.value) != TYPE_INT: # BREAK_LINE
		print("game: %s" % (probe.value + 1)) # RUNTIME_ERROR_LINE
	if probe.value != last:
		last = probe.value
		print("game: value=%d" % last)
		if last == 1000:
			quit()
	if Time.get_ticks_msec() - started > 60000:
		print("game: timeout")
		quit()
	return false

func report_problem():
	push_error("game: something went wrong") # ERROR_LINE
