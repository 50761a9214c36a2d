#!/bin/sh
# Regenerates tests/fixtures/saves/ (the save files of tests/guess_saves.rs) with the real
# engines: Godot 3.2.3 (godot3-server on PATH, or GODOT3_BIN) runs saves3.gd, Godot 4.3 and
# 4.4.1 (GODOT4_3, GODOT4_4: eval "$(../shared/engines/install.sh --env)") run saves4.gd.
#
#   tests/oracle/make_saves.sh [OUT_DIR]    # OUT_DIR defaults to tests/fixtures/saves
#
# Each engine writes OUT_DIR/<engine>/ afresh; then OUT_DIR/MANIFEST.toml lists every file with
# what wrote it, its size and sha256. SAVES_ENGINES (default "godot3.2.3 godot4.3 godot4.4.1")
# picks the engines; each one picked must be there and of its version. The output is the same
# bytes on every run (tests/guess_saves.rs checks it when the engines are there).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/../fixtures/saves"}
mkdir -p "$out"
out=$(cd "$out" && pwd)
engines=${SAVES_ENGINES:-"godot3.2.3 godot4.3 godot4.4.1"}
tab=$(printf '\t')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

die() {
	echo "make_saves.sh: $*" >&2
	exit 1
}

# The binary of an engine, checked against the version the corpus names.
binary() {
	case $1 in
	godot3.2.3) bin=${GODOT3_BIN:-$(command -v godot3-server || true)} want=3.2.3. ;;
	godot4.3) bin=${GODOT4_3:-} want=4.3. ;;
	godot4.4.1) bin=${GODOT4_4:-} want=4.4.1. ;;
	*) die "unknown engine $1" ;;
	esac
	[ -n "$bin" ] && [ -x "$bin" ] || die "$1: engine not found (see the head of this script)"
	"$bin" --version 2>/dev/null | grep -q "^$want" || die "$1: $bin is not Godot $want"
	echo "$bin"
}

for engine in $engines; do
	bin=$(binary "$engine")
	dir="$out/$engine"
	rm -rf "$dir"
	mkdir -p "$dir"
	project="$work/$engine"
	mkdir -p "$project"
	case $engine in
	godot3*)
		: >"$project/project.godot"
		(cd "$project" && SAVES_OUT="$dir" LANG=en timeout 300 "$bin" --no-window \
			-s "$here/saves3.gd" >"$work/$engine.log" 2>&1) || true
		;;
	godot4*)
		printf 'config_version=5\n\n[debug]\n\nfile_logging/enable_file_logging=false\n' \
			>"$project/project.godot"
		cp "$here/saves4.gd" "$here/saves44.gd" "$project/"
		# A script error leaves a Godot 4 engine running: always under a timeout.
		SAVES_OUT="$dir" timeout 300 "$bin" --headless --path "$project" \
			--script res://saves4.gd >"$work/$engine.log" 2>&1 || true
		;;
	esac
	# The engines exit 0 even when a script fails: trust only the list the script ends.
	if [ "$(tail -n 1 "$dir/files.tsv" 2>/dev/null)" != end ]; then
		cat "$work/$engine.log" >&2
		die "$engine: the generator did not finish (its log is above)"
	fi
	listed=$(grep -v '^end$' "$dir/files.tsv" | cut -f 1 | sort)
	present=$(cd "$dir" && ls | grep -v '^files\.tsv$' | sort)
	[ "$listed" = "$present" ] || die "$engine: the files differ from the list in files.tsv"
	echo "$engine: $(echo "$listed" | wc -l | tr -d ' ') files in $dir"
done

# TOML basic strings: escape backslashes and double quotes.
esc() {
	printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g'
}

manifest="$out/MANIFEST.toml"
{
	echo "# Save files written by real Godot engines that we ran (tests/oracle/make_saves.sh, from"
	echo "# saves3.gd and saves4.gd): the corpus of tests/guess_saves.rs. Generated; do not edit."
	echo "# Per file: the engine that wrote it, the dialect, the container (\"none\" or"
	echo "# \"project-binary\"), the framing as gdvariant's Framing displays it, the call that wrote it,"
	echo "# what it holds, and its size and sha256."
	for engine in $engines; do
		dir="$out/$engine"
		grep -v '^end$' "$dir/files.tsv" | while IFS="$tab" read -r name dialect container framing call what; do
			size=$(wc -c <"$dir/$name" | tr -d ' ')
			sha=$(sha256sum "$dir/$name" | cut -d ' ' -f 1)
			echo
			echo "[[file]]"
			echo "name = \"$engine/$(esc "$name")\""
			echo "engine = \"$engine\""
			echo "dialect = \"$dialect\""
			echo "container = \"$container\""
			echo "framing = \"$(esc "$framing")\""
			echo "call = \"$(esc "$call")\""
			echo "what = \"$(esc "$what")\""
			echo "size = $size"
			echo "sha256 = \"$sha\""
		done
		rm "$dir/files.tsv"
	done
} >"$manifest"
echo "wrote $manifest"
