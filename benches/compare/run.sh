#!/usr/bin/env bash
# Side-by-side comparison on the same bytes: gdvariant, the engines' own decode and encode
# (Godot 4.3 and 4.4.1 bytes_to_var/var_to_bytes, Godot 3.2.3 bytes2var/var2bytes),
# @gd-com/utils 4.1.5 (Node), playgodot 0.5.1 (Python) and memcpy. A tool, not a CI gate.
#
#   benches/compare/run.sh            # everything, three rounds
#   ROUNDS=1 benches/compare/run.sh   # one round (each cell: the best of the rounds)
#   benches/compare/run.sh w3         # only the workloads whose name contains "w3"
#
# Installs what it needs (apt godot3-server and libmimalloc2.0, npm @gd-com/utils into target/compare/node, pip
# playgodot into the venv target/compare/venv; the headless Godot 4 engines come from
# ../shared/engines/install.sh beside the repository, or GODOT4_3 / GODOT4_4), has every engine
# write W1-W4, checks that our bytes are each engine's, times every tool, and prints a Markdown
# table (also saved as target/compare/report.md). The engines and we are timed alike, each call
# two ways (engine4.gd says how), and take turns workload by workload within each round, so
# that the load of a shared machine hits all sides: on a loaded machine the ratios mean more
# than the times.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
FILTER=${1:-}
# Rounds of the whole timing: each cell of the table is the best round (the engines' best case,
# and ours taken the same way), which steadies the numbers of a shared machine.
ROUNDS=${ROUNDS:-3}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
WORK=$TARGET/compare
DATA=$WORK/data
mkdir -p "$DATA" "$WORK/node"
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
export LANG=en   # Godot 3.2 prints locale errors under C/C.UTF-8

say() { echo "== $*" >&2; }
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

if ! command -v godot3-server >/dev/null; then
  say "installing godot3-server"
  $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q godot3-server
fi
# mimalloc for the allocator pass (below), preloaded into every tool alike.
if ! ls /usr/lib/*/libmimalloc.so.2 >/dev/null 2>&1; then
  say "installing libmimalloc2.0"
  $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q libmimalloc2.0
fi
MIMALLOC=$(ls /usr/lib/*/libmimalloc.so.2 | head -1)
if [ ! -d "$WORK/node/node_modules/@gd-com/utils" ]; then
  say "installing @gd-com/utils@4.1.5"
  (cd "$WORK/node" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install --no-audit --no-fund --silent @gd-com/utils@4.1.5)
fi
if [ ! -x "$WORK/venv/bin/python" ] || ! "$WORK/venv/bin/python" -c "import playgodot" 2>/dev/null; then
  say "installing playgodot==0.5.1"
  python3 -m venv "$WORK/venv"
  "$WORK/venv/bin/pip" install -q playgodot==0.5.1
fi

# The Godot 4 engines: headless template builds that need a project folder to run a script in.
if [ -z "${GODOT4_3:-}" ] || [ -z "${GODOT4_4:-}" ]; then
  eval "$("${GDV_ENGINES:-$ROOT/../shared/engines}/install.sh" --env)"
fi
GODOT4S="$GODOT4_3 $GODOT4_4"
PROJECT=$WORK/godot4
mkdir -p "$PROJECT"
printf 'config_version=5\n\n[debug]\nfile_logging/enable_file_logging=false\n' >"$PROJECT/project.godot"
cp "$ROOT/benches/compare/engine4.gd" "$PROJECT/engine4.gd"
# A GDScript error leaves a template build running for ever: always a timeout, and only the
# JSON lines of stdout are kept (run.sh checks that each engine wrote its files).
godot4() {
  local engine=$1
  shift
  (cd "$PROJECT" && env GDV_DIR="$DATA" "$@" timeout 600 "$engine" --headless --path . --script res://engine4.gd 2>/dev/null) | { grep '^{' || true; }
}

say "building gdvariant's side (release)"
cargo build -q --release --example compare
OURS=$TARGET/release/examples/compare

say "writing W1-W4: each engine's var2bytes / var_to_bytes, and ours"
rm -f "$DATA"/*.engine*.bin
"$OURS" gen "$DATA"
(cd "$DATA" && GDV_MODE=make GDV_DIR="$DATA" godot3-server -s "$ROOT/benches/compare/engine.gd" >/dev/null 2>&1)
for engine in $GODOT4S; do
  godot4 "$engine" GDV_MODE=make
done
for v in 3 4.3 4.4.1; do
  [ -f "$DATA/w4_dict.engine$v.bin" ] || { echo "run.sh: Godot $v wrote no W4" >&2; exit 1; }
done
"$OURS" check "$DATA" >&2

RESULTS=$WORK/results.jsonl
MEM=$WORK/mem.jsonl
: >"$RESULTS"
: >"$MEM"
# Each tool times each workload in a fresh process, so that one workload's heap (W3 leaves
# ~50 MB of freed chunks behind) does not slow the next one down.
WORKLOADS="w1_float32_1m w2_bytes_16mib w3_dicts_100k w4_dict"
for round in $(seq "$ROUNDS"); do
for w in $WORKLOADS; do
  case "$w" in *"$FILTER"*) ;; *) continue ;; esac
  say "round $round of $ROUNDS"
  say "timing $w: gdvariant and memcpy"
  "$OURS" time "$DATA" "$w" | tee -a "$RESULTS" >&2
  for engine in $GODOT4S; do
    say "timing $w: $(basename "$engine") bytes_to_var / var_to_bytes"
    godot4 "$engine" GDV_MODE=time GDV_FILTER="$w" | tee -a "$RESULTS" >&2
  done
  say "timing $w: Godot 3.2.3 bytes2var / var2bytes"
  (cd "$DATA" && GDV_MODE=time GDV_DIR="$DATA" GDV_FILTER="$w" \
    godot3-server -s "$ROOT/benches/compare/engine.gd" 2>/dev/null) | grep '^{' | tee -a "$RESULTS" >&2
  say "timing $w: @gd-com/utils getVar / putVar"
  NODE_PATH="$WORK/node/node_modules" node "$ROOT/benches/compare/gdcom.js" "$DATA" "$w" | tee -a "$RESULTS" >&2
  say "timing $w: playgodot decode_variant / encode_variant"
  "$WORK/venv/bin/python" "$ROOT/benches/compare/playgodot_bench.py" "$DATA" "$w" | tee -a "$RESULTS" >&2
done
done
"$OURS" time "$DATA" w2_bytes_16b | tee -a "$RESULTS" >&2

# glibc gives a freed heap back to the OS once its top exceeds the trim threshold, so every
# W3 iteration faults its ~40 MB in again. Two more passes, each with one setting for every
# tool: glibc with its trimming off, and mimalloc in place of glibc's malloc (LD_PRELOAD, which
# the engines' allocations and Rust's System allocator both go through). They show how much of
# W3 is the allocator rather than the codec, and what a program that chooses its allocator
# gets (a Rust program sets one with `#[global_allocator]`).
NOTRIM=glibc.malloc.trim_threshold=4000000000:glibc.malloc.mmap_threshold=33554432
for setting in notrim mimalloc; do
  case $setting in
    notrim) say "timing W3 again with glibc's heap trimming off"; ALLOC="GLIBC_TUNABLES=$NOTRIM" ;;
    mimalloc) say "timing W3 again with mimalloc"; ALLOC="LD_PRELOAD=$MIMALLOC" ;;
  esac
  env "$ALLOC" GDV_TOOL=gdvariant-$setting "$OURS" time "$DATA" w3 | grep -v memcpy | tee -a "$RESULTS" >&2
  (cd "$DATA" && env "$ALLOC" GDV_TOOL=godot3-$setting GDV_MODE=time GDV_DIR="$DATA" GDV_FILTER=w3 \
    godot3-server -s "$ROOT/benches/compare/engine.gd" 2>/dev/null) | grep '^{' | tee -a "$RESULTS" >&2
  for engine in $GODOT4S; do
    godot4 "$engine" "$ALLOC" GDV_TOOL_SUFFIX=-$setting GDV_MODE=time GDV_FILTER=w3 | tee -a "$RESULTS" >&2
  done
done
say "peak memory of one W3 decode (fresh processes)"
for op in owned borrowed; do
  "$OURS" mem "$DATA" w3_dicts_100k.godot3.bin $op | tee -a "$MEM" >&2
done

CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
LOAD_AT_END=$(cut -d' ' -f1-3 /proc/loadavg)
MACHINE="$CPU, $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -sr), rustc $(rustc --version | cut -d' ' -f2), node $(node --version), $(python3 --version), load average $LOAD_AT_START at the start and $LOAD_AT_END at the end, $ROUNDS rounds"
python3 "$ROOT/benches/compare/table.py" "$RESULTS" "$MEM" "$MACHINE" | tee "$WORK/report.md"
