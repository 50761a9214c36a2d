#!/bin/sh
# Self-check of the live Godot 3 oracle: runs a few requests through harness.gd and compares the
# answers with what Godot 3.2.3 is known to say. Exit 0 when all match (prints "N passed, 0 failed").
# Needs godot3-server (or GODOT3_BIN). Usage: tests/oracle/selftest.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${GODOT3_BIN:-godot3-server}
command -v "$bin" >/dev/null 2>&1 || { echo "selftest: $bin not found (apt-get install -y godot3-server)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
tab=$(printf '\t')

# request <TAB> expected response, one pair per line (\t in the data is written as a real tab)
cat > "$tmp/cases" <<'CASES'
b2v	020000002a000000	0	ok	42	020000002a000000
b2v	0200000001000000deadbeef	0	ok	1	0200000001000000
b2v	0102	0	err	ERR_INVALID_DATA
b2v	040000000500000061626364	0	err	ERR_FILE_EOF
b2v	1b00000000000000	0	err	ERR_INVALID_DATA
b2v	11000000090000005265666572656e636500000000000000	0	err	ERR_UNAUTHORIZED
b2v	0400000003000000eda08000	0	ok	"\u{d800}"	0400000003000000eda08000
b2v	0100000002000000	0	ok	true	0100000001000000
s2v	Vector2(1, 2)	ok	050000000000803f00000040	Vector2( 1, 2 )
s2v	"a\\tb\\nc"	ok	04000000050000006109620a63000000	"a\tb\nc"
s2v	Vector2(1,	err	ERR_PARSE_ERROR
eval	2147483648	ok	020001000000008000000000	2147483648
eval	0.1	ok	030001009a9999999999b93f	0.1
eval	{"z": 1, "a": 2}	ok	120000000200000004000000010000007a00000002000000010000000400000001000000610000000200000002000000	{\n"a": 2,\n"z": 1\n}
eval	PoolStringArray([""])	ok	17000000010000000100000000000000	PoolStringArray( "" )
eval	G.null_object()	ok	00000000	null
eval	RID()	ok	10000000	
eval	1 +	err	ERR_PARSE_ERROR
eval	[1][5]	err	error
nonsense	err	bad request
CASES

# Split each case into its request (verb + its fields) and expected answer.
: > "$tmp/in.txt"
: > "$tmp/want.txt"
while IFS= read -r line; do
    verb=${line%%"$tab"*}
    case $verb in
        b2v) n=3 ;;
        s2v|eval) n=2 ;;
        *) n=1 ;;
    esac
    printf '%s\n' "$line" | cut -f1-$n >> "$tmp/in.txt"
    printf '%s\n' "$line" | cut -f$((n + 1))- >> "$tmp/want.txt"
done < "$tmp/cases"

(cd "$tmp" && LANG=en ORACLE3_IN="$tmp/in.txt" ORACLE3_OUT="$tmp/out.txt" "$bin" -s "$here/harness.gd" >"$tmp/stdout" 2>"$tmp/stderr") || true
if [ ! -f "$tmp/out.txt" ]; then
    echo "selftest: the harness wrote no output; engine stderr:" >&2
    cat "$tmp/stderr" >&2
    exit 1
fi
cp "$tmp/out.txt" "$tmp/got.txt"

pass=0
fail=0
i=0
while IFS= read -r want; do
    i=$((i + 1))
    got=$(sed -n "${i}p" "$tmp/got.txt")
    if [ "$got" = "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $(sed -n "${i}p" "$tmp/in.txt")" >&2
        echo "  want: $want" >&2
        echo "  got:  $got" >&2
    fi
done < "$tmp/want.txt"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
