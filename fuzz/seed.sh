#!/usr/bin/env bash
# Builds the seed corpora fuzz/corpus/<target>/ from the engine-made fixtures in tests/fixtures.
# Every seed is two setup bytes (fuzz/src/invariants.rs, `Setup::from_byte`: bits 0-2 the
# target in TARGETS, bit 3 allow_objects, bits 5-6 the framing; then the chunk seed) and the
# fixture's bytes. The corpora are not committed: run this first (cargo fuzz adds to them).
set -euo pipefail
cd "$(dirname "$0")"
fixtures=../tests/fixtures
targets=$(sed -n 's/^name = "\([a-z]*\)"$/\1/p' Cargo.toml | grep -v '^gdvariant')
# Setup bytes: TARGETS[0] is Godot 3 3.2.3, TARGETS[3] Godot 4 4.3; 0x08 allows objects;
# framing 1/2/3 (<< 5) is store_var little-endian / big-endian / PacketPeerStream.
G3=$((0 | 8)); G4=$((3 | 8))
seed=$(mktemp -d); trap 'rm -rf "$seed"' EXIT
n=0
put() { # setup-byte file-or-"-" name
  { printf "\\x$(printf %02x "$1")\\x$(printf %02x $((n % 256)))"; cat "$2"; } > "$seed/$3"
  n=$((n + 1))
}
# Small files only: the big ones take the fuzzer's time without adding paths.
while IFS= read -r f; do
  name=${f#"$fixtures"/}; name=${name//\//_}
  case "$f" in
    */containers/*) put $G4 "$f" "$name" ;;
    */godot3/streams/*_be.bin) put $((G3 | 2 << 5)) "$f" "$name" ;;
    */godot3/streams/packet_peer_stream.bin) put $((G3 | 3 << 5)) "$f" "$name" ;;
    */godot3/streams/*) put $((G3 | 1 << 5)) "$f" "$name" ;;
    */godot3/*) put $G3 "$f" "$name" ;;
    */godot4/*) put $G4 "$f" "$name" ;;
  esac
done < <(find "$fixtures" -type f \( -name '*.bin' -o -name '*.sav' \) -size -16k | sort)
# Resource and scene files (.res, .tres, .scn, .tscn), for the resource target and the others alike.
while IFS= read -r f; do
  name=${f#"$fixtures"/}; name=${name//\//_}
  put $G4 "$f" "$name"
done < <(find "$fixtures/resource" -type f \( -name '*.res' -o -name '*.tres' -o -name '*.scn' -o -name '*.tscn' \) | sort)
# The malformed inputs of Godot 3.2.3 live as hex in their manifests (sed and printf only:
# CI machines need not have jq or xxd).
for m in "$fixtures"/godot3/malformed/manifest.jsonl "$fixtures"/godot3/malformed/allow_objects/manifest.jsonl; do
  while IFS=$'\t' read -r name hex; do
    # shellcheck disable=SC2059 # the format is the bytes, as \xNN escapes
    printf "$(printf '%s' "$hex" | sed 's/../\\x&/g')" > "$seed/hex"
    put $G3 "$seed/hex" "malformed_$name"
  done < <(sed -n 's/.*"name": "\([^"]*\)", "hex": "\([0-9a-f]*\)".*/\1\t\2/p' "$m")
done
rm -f "$seed/hex"
for t in $targets; do
  mkdir -p "corpus/$t"
  cp "$seed"/* "corpus/$t/"
done
echo "seeded $n inputs into corpus/{$(echo $targets | tr ' ' ,)}"
