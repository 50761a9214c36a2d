#!/bin/sh
# Regenerates tests/fixtures/godot3/ (main corpus, game/, malformed/, streams/) from scratch with
# the real Godot 3.2.3 engine (Debian: apt-get install -y godot3-server; or set GODOT3_BIN).
# Deterministic apart from the NodePath padding bytes (uninitialised memory in 3.2.3) and Object
# instance ids. Needs python3 (standard library only). Takes a few seconds.
set -eu
cd "$(dirname "$0")/../.."
exec python3 tests/oracle/generate.py "$@"
