#!/usr/bin/env python3
"""Regenerates tests/fixtures/godot3/ from scratch with the real Godot 3.2.3 engine.

Run it through tests/oracle/generate.sh. Every engine call runs in a fresh temporary directory
(the engine writes user://logs there) that is deleted afterwards; the engine is driven by
harness.gd (corpus, game, malformed) and streams.gd (streams).
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ORACLE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(ORACLE))
OUT = os.path.join(REPO, "tests", "fixtures", "godot3")
ENGINE = os.environ.get("GODOT3_BIN") or shutil.which("godot3-server") or "godot3-server"

TYPE_NAMES = [
    "Nil", "bool", "int", "float", "String", "Vector2", "Rect2", "Vector3", "Transform2D",
    "Plane", "Quat", "AABB", "Basis", "Transform", "Color", "NodePath", "RID", "Object",
    "Dictionary", "Array", "PoolByteArray", "PoolIntArray", "PoolRealArray", "PoolStringArray",
    "PoolVector2Array", "PoolVector3Array", "PoolColorArray",
]


# --------------------------------------------------------------------------------------------
# Talking to the engine

def escape(s):
    return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")


def unescape(s):
    """Inverse of the harness's esc(): \\\\ \\n \\t \\r; \\u{hex} is kept as written."""
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            if n == "u":
                out.append("\\u")
            else:
                out.append({"n": "\n", "t": "\t", "r": "\r"}.get(n, n))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def run_engine(script, env_extra, what):
    tmp = tempfile.mkdtemp(prefix="oracle3-")
    try:
        env = dict(os.environ, LANG="en")
        env.update({k: (v(tmp) if callable(v) else v) for k, v in env_extra.items()})
        p = subprocess.run([ENGINE, "-s", os.path.join(ORACLE, script)], cwd=tmp, env=env,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=600)
        return p, tmp
    except Exception:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def harness(requests):
    """Runs one batch of request lines through harness.gd; returns the response lines."""
    tmp = tempfile.mkdtemp(prefix="oracle3-")
    try:
        inp = os.path.join(tmp, "in.txt")
        out = os.path.join(tmp, "out.txt")
        with open(inp, "w", encoding="utf-8") as f:
            f.write("".join(r + "\n" for r in requests))
        env = dict(os.environ, LANG="en", ORACLE3_IN=inp, ORACLE3_OUT=out)
        p = subprocess.run([ENGINE, "-s", os.path.join(ORACLE, "harness.gd")], cwd=tmp, env=env,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=600)
        lines = None
        if os.path.exists(out):
            with open(out, encoding="utf-8") as f:
                lines = f.read().split("\n")
            if lines and lines[-1] == "":
                lines.pop()
        if lines is None or len(lines) != len(requests):
            sys.exit("harness.gd answered %s lines for %d requests (exit %d)\n%s" % (
                "no" if lines is None else len(lines), len(requests), p.returncode,
                p.stderr.decode("utf-8", "replace")[-4000:]))
        return lines
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# --------------------------------------------------------------------------------------------
# A Godot 3 walker: checks that a value spans the whole buffer and finds the NodePath padding

class Bad(Exception):
    pass


def walk(b, o, pads, depth=0):
    """Returns the offset after the value at `o`; appends NodePath padding offsets to `pads`."""
    def u32(at):
        if at + 4 > len(b):
            raise Bad("truncated at %d" % at)
        return struct.unpack_from("<I", b, at)[0]

    def string(at, pad_list=None, extra=0):
        n = u32(at)
        end = at + 4 + n
        padded = end + (-(n + extra)) % 4 if extra else end + (-n) % 4
        if padded > len(b):
            raise Bad("string past the end at %d" % at)
        if pad_list is not None:
            pad_list.extend(range(end, padded))
        return padded

    h = u32(o)
    t = h & 0xFF
    flag = (h >> 16) & 1
    o += 4
    if t == 0 or t == 16:
        return o
    if t == 1:
        return o + 4
    if t in (2, 3):
        end = o + (8 if flag else 4)
    elif t == 4:
        return string(o)
    elif t in (5, 6, 7, 8, 9, 10, 11, 12, 13, 14):
        end = o + 4 * {5: 2, 6: 4, 7: 3, 8: 6, 9: 4, 10: 4, 11: 6, 12: 9, 13: 12, 14: 4}[t]
    elif t == 15:
        nc = u32(o)
        if not nc & 0x80000000:
            raise Bad("old NodePath")
        nc &= 0x7FFFFFFF
        sc = u32(o + 4)
        if u32(o + 8) & 2:
            sc += 1
        o += 12
        for _ in range(nc + sc):
            o = string(o, pads)
        return o
    elif t == 17:
        if flag:
            end = o + 8
        else:
            n = u32(o)
            o = string(o)
            if n == 0:
                return o
            cnt = u32(o)
            o += 4
            for _ in range(cnt):
                o = string(o)
                o = walk(b, o, pads, depth + 1)
            return o
    elif t == 18:
        n = u32(o) & 0x7FFFFFFF
        o += 4
        for _ in range(2 * n):
            o = walk(b, o, pads, depth + 1)
        return o
    elif t == 19:
        n = u32(o) & 0x7FFFFFFF
        o += 4
        for _ in range(n):
            o = walk(b, o, pads, depth + 1)
        return o
    elif t == 20:
        n = u32(o)
        end = o + 4 + n + (-n) % 4
    elif t == 23:
        n = u32(o)
        o += 4
        for _ in range(n):
            o = string(o)
        return o
    elif t in (21, 22, 24, 25, 26):
        n = u32(o)
        end = o + 4 + n * {21: 4, 22: 4, 24: 8, 25: 12, 26: 16}[t]
    else:
        raise Bad("type %d" % t)
    if end > len(b):
        raise Bad("truncated value of type %d" % t)
    return end


def padding_of(b):
    pads = []
    end = walk(b, 0, pads)
    if end != len(b):
        raise Bad("value ends at %d of %d" % (end, len(b)))
    return pads


def zeroed(b, pads):
    z = bytearray(b)
    for p in pads:
        z[p] = 0
    return bytes(z)


# --------------------------------------------------------------------------------------------
# Value corpora (the main corpus and game/)

def read_cases(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            c = line.split("\t")
            if len(c) != 5:
                sys.exit("%s: want 5 tab-separated fields: %r" % (path, line))
            cases.append({"name": c[0], "full": c[1] == "1", "expr": c[2], "godot4_name": c[3],
                          "note": c[4]})
    return cases


def clean_dir(d, keep_dirs=()):
    os.makedirs(d, exist_ok=True)
    for n in os.listdir(d):
        p = os.path.join(d, n)
        if os.path.isfile(p):
            if n != "README.md":  # written by hand
                os.remove(p)
        elif n not in keep_dirs:
            shutil.rmtree(p)


def write_json_lines(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def build_values(cases_path, out_dir, keep_dirs=()):
    cases = read_cases(cases_path)
    names = [c["name"] for c in cases]
    if len(set(names)) != len(names):
        sys.exit("duplicate names in " + cases_path)
    clean_dir(out_dir, keep_dirs)
    answers = harness(["gen\t%s\t%d" % (escape(c["expr"]), c["full"]) for c in cases])
    rows = []
    failures = []
    for c, a in zip(cases, answers):
        f = a.split("\t")
        if f[0] != "ok":
            failures.append("%s: %s" % (c["name"], a))
            continue
        typ, hexs, text, dec_ok, rehex, dec_text = int(f[1]), f[2], unescape(f[3]), f[4] == "1", f[5], unescape(f[6])
        b = bytes.fromhex(hexs)
        pads = padding_of(b)
        z = zeroed(b, pads)
        roundtrip = roundtrip_exact = False
        if dec_ok:
            rb = bytes.fromhex(rehex)
            roundtrip_exact = rb == b
            try:
                roundtrip = zeroed(rb, padding_of(rb)) == z
            except Bad:
                roundtrip = False
        with open(os.path.join(out_dir, c["name"] + ".bin"), "wb") as fb:
            fb.write(b)
        if pads:
            with open(os.path.join(out_dir, c["name"] + ".zeroed.bin"), "wb") as fb:
                fb.write(z)
        rows.append({
            "name": c["name"], "type": typ, "type_name": TYPE_NAMES[typ], "full_objects": c["full"],
            "expr": c["expr"], "text": text, "size": len(b),
            "header": "0x%08x" % struct.unpack_from("<I", b, 0)[0], "hex": hexs,
            "nodepath_pad_bytes": len(pads), "zeroed_hex": z.hex() if pads else "",
            "garbage_seen": any(b[p] for p in pads), "decode_ok": dec_ok,
            "roundtrip": roundtrip, "roundtrip_exact": roundtrip_exact,
            "decoded_text": dec_text if dec_ok and dec_text != text else ("" if dec_ok else f[5]),
            "godot4_name": c["godot4_name"], "note": c["note"],
        })
    if failures:
        sys.exit("expressions failed:\n" + "\n".join(failures))
    verify_values(out_dir, rows)
    write_json_lines(os.path.join(out_dir, "manifest.jsonl"), rows)
    with open(os.path.join(out_dir, "index.tsv"), "w", encoding="utf-8") as f:
        f.write("name\ttype\ttype_name\tfull_objects\tsize\tnodepath_pad_bytes\troundtrip\troundtrip_exact\tgodot4_name\n")
        for r in rows:
            f.write("%s\t%d\t%s\t%s\t%d\t%d\t%s\t%s\t%s\n" % (
                r["name"], r["type"], r["type_name"], str(r["full_objects"]).lower(), r["size"],
                r["nodepath_pad_bytes"], str(r["roundtrip"]).lower(), str(r["roundtrip_exact"]).lower(),
                r["godot4_name"]))
    return rows


def verify_values(out_dir, rows):
    """Decodes every .bin and .zeroed.bin again in a separate engine run."""
    reqs, expect = [], []
    for r in rows:
        for suffix in (".bin", ".zeroed.bin") if r["zeroed_hex"] else (".bin",):
            with open(os.path.join(out_dir, r["name"] + suffix), "rb") as f:
                reqs.append("b2v\t%s\t%d" % (f.read().hex(), r["full_objects"]))
            expect.append((r["name"] + suffix, r))
    bad = []
    for (label, r), a in zip(expect, harness(reqs)):
        f = a.split("\t")
        want = r["decoded_text"] or r["text"]
        if not r["decode_ok"]:
            if f[0] != "err":
                bad.append("%s: decoded now, failed at generation" % label)
        elif f[0] != "ok" or unescape(f[1]) != want:
            bad.append("%s: %s" % (label, a[:300]))
    if bad:
        sys.exit("re-decoding disagrees:\n" + "\n".join(bad))


# --------------------------------------------------------------------------------------------
# malformed/

def u32(v):
    return struct.pack("<I", v & 0xFFFFFFFF)


def s32(v):
    return struct.pack("<i", v)


def gstr(data, pad=True):
    """A Godot string: u32 length + bytes + zero padding."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return u32(len(data)) + data + (b"\0" * ((-len(data)) % 4) if pad else b"")


def H(t, flag=0):
    return u32(t | (flag << 16))


def malformed_cases():
    """(name, bytes, allow_objects, note) for every malformed or lenient input."""
    C = []

    def add(name, data, note, allow=False):
        C.append((name, bytes(data), allow, note))

    int42 = H(2) + s32(42)
    add("empty", b"", "no bytes at all")
    add("header_1_byte", b"\x02", "1 byte of a header")
    add("header_3_bytes", b"\x02\x00\x00", "3 bytes of a header")
    add("int32_no_payload", H(2), "int header, no payload")
    add("int32_short_payload", H(2) + b"\x2a\x00", "int with 2 of 4 payload bytes")
    add("int64_short_payload", H(2, 1) + b"\x2a\x00\x00\x00", "64-bit int with 4 of 8 payload bytes")
    add("int64_7_bytes", H(2, 1) + b"\x2a" + b"\0" * 6, "64-bit int with 7 of 8 payload bytes")
    add("float32_no_payload", H(3), "float header, no payload")
    add("float64_short_payload", H(3, 1) + b"\0\0\x80\x3f", "64-bit float with 4 of 8 payload bytes")
    add("bool_no_payload", H(1), "bool header, no payload")
    add("string_no_length", H(4), "String header, no length")
    add("string_short_length", H(4) + b"\x05\x00", "String with 2 bytes of its length")
    add("string_short_data", H(4) + u32(5) + b"abc", "String of length 5 with 3 bytes")
    add("string_missing_padding", H(4) + u32(5) + b"abcde", "String of length 5 without its 3 padding bytes")
    add("string_partial_padding", H(4) + u32(5) + b"abcde\0\0", "String of length 5 with 2 of 3 padding bytes")
    for t, n, label in [(5, 2, "vector2"), (6, 4, "rect2"), (7, 3, "vector3"), (8, 6, "transform2d"),
                        (9, 4, "plane"), (10, 4, "quat"), (11, 6, "aabb"), (12, 9, "basis"),
                        (13, 12, "transform"), (14, 4, "color")]:
        add("%s_short" % label, H(t) + b"\0\0\x80\x3f" * (n - 1), "%s with %d of %d floats" % (label, n - 1, n))
    add("vector2_no_payload", H(5), "Vector2 header only")
    add("nodepath_no_payload", H(15), "NodePath header only")
    add("nodepath_no_subname_count", H(15) + u32(0x80000001), "NodePath with its name count only")
    add("nodepath_no_flags", H(15) + u32(0x80000001) + u32(0), "NodePath without its flags")
    add("nodepath_no_names", H(15) + u32(0x80000001) + u32(0) + u32(1), "NodePath promising 1 name, none present")
    add("nodepath_name_truncated", H(15) + u32(0x80000001) + u32(0) + u32(0) + u32(4) + b"ro",
        "NodePath whose name is cut")
    add("nodepath_missing_padding", H(15) + u32(0x80000001) + u32(0) + u32(0) + u32(3) + b"abc",
        "NodePath name of 3 bytes without its padding byte")
    add("nodepath_subname_missing", H(15) + u32(0x80000001) + u32(1) + u32(0) + gstr("a"),
        "NodePath promising 1 subname, none present")
    add("nodepath_old_format", H(15) + u32(4) + b"a/bc", "NodePath without bit 31 on the name count (pre-3.0 form)")
    add("nodepath_old_format_zero", H(15) + u32(0), "NodePath name count 0 without bit 31 (pre-3.0 form)")
    add("nodepath_flag2_extra_subname", H(15) + u32(0x80000001) + u32(0) + u32(2) + gstr("a") + gstr("prop"),
        "NodePath flags = 2 (obsolete property flag): one more subname is read")
    add("nodepath_flag2_missing_subname", H(15) + u32(0x80000001) + u32(0) + u32(2) + gstr("a"),
        "NodePath flags = 2 but the extra subname is absent")
    add("nodepath_flags_3", H(15) + u32(0x80000001) + u32(1) + u32(3) + gstr("root") + gstr("a") + gstr("b"),
        "NodePath flags = 3: absolute and one extra subname")
    add("nodepath_flags_high_bits", H(15) + u32(0x80000001) + u32(0) + u32(0xfffffff0) + gstr("a"),
        "NodePath flags with only unknown bits set")
    add("nodepath_huge_name_count", H(15) + u32(0xffffffff) + u32(0) + u32(0),
        "NodePath name count 0x7fffffff (with bit 31), no names")
    add("nodepath_huge_subname_count", H(15) + u32(0x80000000) + u32(0xffffffff) + u32(0),
        "NodePath subname count 0xffffffff, no subnames")
    add("dict_no_count", H(18), "Dictionary header only")
    add("dict_missing_entries", H(18) + u32(1), "Dictionary of 1 entry, none present")
    add("dict_key_without_value", H(18) + u32(1) + H(4) + gstr("k"), "Dictionary with a key but no value")
    add("array_no_count", H(19), "Array header only")
    add("array_missing_element", H(19) + u32(2) + int42, "Array of 2 elements with 1 present")
    add("array_bad_element", H(19) + u32(1) + H(4) + u32(3) + b"\xff\xfe\0\0", "Array whose element is a bad String")
    add("pool_byte_no_count", H(20), "PoolByteArray header only")
    add("pool_byte_short", H(20) + u32(5) + b"\1\2\3", "PoolByteArray of 5 with 3 bytes")
    add("pool_byte_missing_padding", H(20) + u32(5) + b"\1\2\3\4\5", "PoolByteArray of 5 without its padding (lenient)")
    add("pool_int_short", H(21) + u32(3) + s32(1) + s32(2), "PoolIntArray of 3 with 2 elements")
    add("pool_real_short", H(22) + u32(2) + b"\0\0\x80\x3f", "PoolRealArray of 2 with 1 element")
    add("pool_string_no_element", H(23) + u32(1), "PoolStringArray of 1 with no element")
    add("pool_string_short_element", H(23) + u32(1) + u32(6) + b"abc", "PoolStringArray element of 6 with 3 bytes")
    add("pool_string_missing_padding", H(23) + u32(1) + u32(6) + b"abcde\0", "PoolStringArray element without its padding")
    add("pool_string_no_nul", H(23) + u32(1) + u32(4) + b"abcd", "PoolStringArray element whose length has no NUL")
    add("pool_string_zero_length", H(23) + u32(1) + u32(0), "PoolStringArray element of length 0 (the encoder always counts a NUL)")
    add("pool_vector2_short", H(24) + u32(2) + b"\0" * 12, "PoolVector2Array of 2 with 1.5 elements")
    add("pool_vector3_short", H(25) + u32(1) + b"\0" * 8, "PoolVector3Array of 1 with 2 of 3 floats")
    add("pool_color_short", H(26) + u32(1) + b"\0" * 12, "PoolColorArray of 1 with 3 of 4 floats")
    add("object_id_short", H(17, 1) + b"\1\0\0\0", "Object as id with 4 of 8 id bytes")
    add("object_full_truncated", H(17) + gstr("Reference"), "full Object cut after the class name", allow=True)
    add("object_full_not_allowed", H(17) + gstr("Reference") + u32(0), "full Object, allow_objects false: ERR_UNAUTHORIZED")
    add("object_full_nested_not_allowed", H(19) + u32(2) + int42 + H(17) + gstr("Reference") + u32(0),
        "a full Object inside an Array, allow_objects false")
    add("object_full_allowed", H(17) + gstr("Reference") + u32(0), "full Object, allow_objects true", allow=True)
    add("object_unknown_class", H(17) + gstr("NoSuchClass") + u32(0), "full Object of an unknown class", allow=True)
    add("object_unknown_property", H(17) + gstr("Reference") + u32(1) + gstr("nope") + int42,
        "full Object with a property the class lacks: silently dropped", allow=True)
    add("object_class_object", H(17) + gstr("Object") + u32(0), "full Object of class Object", allow=True)
    add("object_empty_class", H(17) + gstr(""), "full Object with an empty class name")
    add("object_empty_class_allowed", H(17) + gstr(""), "full Object with an empty class name", allow=True)
    add("object_full_nested_allowed", H(19) + u32(2) + int42 + H(17) + gstr("Reference") + u32(0),
        "a full Object inside an Array", allow=True)
    add("object_property_truncated", H(17) + gstr("Resource") + u32(1) + gstr("resource_name"),
        "full Object whose property has no value", allow=True)
    add("object_property_bad_value", H(17) + gstr("Resource") + u32(1) + gstr("resource_name") + H(4) + u32(9),
        "full Object whose property value is a truncated String", allow=True)
    add("object_property_wrong_type", H(17) + gstr("Resource") + u32(1) + gstr("resource_name") + int42,
        "full Object: resource_name (a String property) sent as int 42", allow=True)
    add("object_abstract_class", H(17) + gstr("Script") + u32(0), "full Object of a class that cannot be instanced", allow=True)
    add("object_singleton_class", H(17) + gstr("OS") + u32(0), "full Object of a singleton class name", allow=True)
    add("object_node_allowed", H(17) + gstr("Node") + u32(1) + gstr("name") + H(4) + gstr("Bob"),
        "full Node; name is not a storage property but is set anyway", allow=True)
    add("object_as_id_allowed", H(17, 1) + struct.pack("<Q", 1234), "Object as id with allow_objects true", allow=True)
    add("object_as_id_not_allowed", H(17, 1) + struct.pack("<Q", 1234), "Object as id, allow_objects false: an EncodedObjectAsID")
    add("object_as_id_zero", H(17, 1) + struct.pack("<Q", 0), "Object as id 0")
    for t in (27, 28, 31, 0x7f, 0xff):
        add("type_%d" % t, H(t) + b"\0" * 8, "type id %d (>= 27)" % t)
    add("type_27_bare", H(27), "type id 27 alone")
    add("array_count_negative", H(19) + u32(0xffffffff), "Array count 0xffffffff: bit 31 masked, 0x7fffffff elements missing")
    add("array_count_huge", H(19) + u32(0x7fffffff), "Array count 0x7fffffff, no elements")
    add("array_count_bit31_empty", H(19) + u32(0x80000000), "Array count with only bit 31 set: empty Array")
    add("array_count_bit31_one", H(19) + u32(0x80000001) + int42, "Array count 1 with bit 31 set")
    add("dict_count_bit31_one", H(18) + u32(0x80000001) + H(4) + gstr("k") + int42,
        "Dictionary count 1 with bit 31 set")
    add("dict_count_huge", H(18) + u32(0x7fffffff), "Dictionary count 0x7fffffff, no entries")
    add("string_length_negative", H(4) + u32(0xffffffff) + b"abcd", "String length -1")
    add("string_length_huge", H(4) + u32(0x7fffffff) + b"abcd", "String length 0x7fffffff")
    add("string_length_overflow", H(4) + u32(0x7ffffffd) + b"abcd", "String length whose padding overflows int32")
    add("string_length_bit31", H(4) + u32(0x80000003) + b"abc\0", "String length 3 with bit 31 set (negative)")
    add("pool_byte_count_negative", H(20) + u32(0xffffffff) + b"\0" * 4, "PoolByteArray count -1")
    add("pool_byte_count_huge", H(20) + u32(0x7fffffff), "PoolByteArray count 0x7fffffff, no data")
    add("pool_int_count_negative", H(21) + u32(0xffffffff), "PoolIntArray count -1")
    add("pool_int_count_overflow", H(21) + u32(0x40000001) + b"\0" * 4, "PoolIntArray count whose byte size overflows int32")
    add("pool_int_count_bit31", H(21) + u32(0x80000001) + s32(7), "PoolIntArray count 1 with bit 31 set")
    add("pool_real_count_huge", H(22) + u32(0x7fffffff), "PoolRealArray count 0x7fffffff")
    add("pool_string_count_negative", H(23) + u32(0xffffffff), "PoolStringArray count -1: empty, no error")
    add("pool_string_count_huge", H(23) + u32(0x7fffffff), "PoolStringArray count 0x7fffffff, no elements")
    add("pool_vector2_count_negative", H(24) + u32(0xffffffff), "PoolVector2Array count -1")
    add("pool_vector3_count_huge", H(25) + u32(0x7fffffff), "PoolVector3Array count 0x7fffffff")
    add("pool_color_count_negative", H(26) + u32(0xffffffff), "PoolColorArray count -1")

    def s_raw(b_):
        return H(4) + u32(len(b_)) + b_ + b"\0" * ((-len(b_)) % 4)
    add("utf8_ff_fe", s_raw(b"\xff\xfe"), "bytes ff fe (never valid UTF-8)")
    add("utf8_overlong_nul", s_raw(b"a\xc0\x80b"), "overlong NUL c0 80")
    add("utf8_overlong_slash", s_raw(b"\xe0\x80\xaf"), "overlong 3-byte '/'")
    add("utf8_truncated_2byte", s_raw(b"a\xc3"), "a 2-byte sequence cut at the end")
    add("utf8_truncated_3byte", s_raw(b"\xe2\x82"), "a 3-byte sequence cut at the end")
    add("utf8_lone_continuation", s_raw(b"a\x80b"), "a lone continuation byte")
    add("utf8_surrogate_high", s_raw(b"\xed\xa0\x80"), "UTF-8 of the lone surrogate U+D800 (text shows it as \\u{d800})")
    add("utf8_surrogate_low", s_raw(b"\xed\xbf\xbf"), "UTF-8 of the lone surrogate U+DFFF")
    add("utf8_surrogate_pair", s_raw(b"\xed\xa0\xbd\xed\xb8\x80"), "CESU-8 surrogate pair for U+1F600")
    add("utf8_above_max", s_raw(b"\xf4\x90\x80\x80"), "4-byte sequence above U+10FFFF")
    add("utf8_5_byte", s_raw(b"\xf8\x88\x80\x80\x80"), "a 5-byte sequence")
    add("utf8_bom_leading", s_raw(b"\xef\xbb\xbfabc"), "leading UTF-8 BOM: dropped")
    add("utf8_bom_inner", s_raw(b"a\xef\xbb\xbfb"), "UTF-8 BOM inside: kept")
    add("utf8_bom_only", s_raw(b"\xef\xbb\xbf"), "a String that is only a BOM")
    add("string_embedded_nul", s_raw(b"a\0b"), "embedded NUL: the String stops there")
    add("string_leading_nul", s_raw(b"\0ab"), "leading NUL: empty String")
    add("string_nonzero_padding", H(4) + u32(1) + b"a\xff\xff\xff", "String padding bytes not zero (never checked)")
    add("pool_string_bad_utf8", H(23) + u32(1) + u32(3) + b"\xff\xfe\0\0", "PoolStringArray element with bad UTF-8")
    add("pool_string_embedded_nul", H(23) + u32(1) + u32(4) + b"a\0b\0", "PoolStringArray element with an embedded NUL")
    add("nodepath_bad_utf8", H(15) + u32(0x80000001) + u32(0) + u32(0) + s_raw(b"\xff")[4:], "NodePath name with bad UTF-8")
    add("int_flag64_small", H(2, 1) + struct.pack("<q", 42), "42 sent as a 64-bit int (the encoder would use 32)")
    add("float_flag64_small", H(3, 1) + struct.pack("<d", 1.0), "1.0 sent as a 64-bit float")
    add("string_flag64", u32(4 | 1 << 16) + gstr("ab"), "String header with bit 16 set (ignored)")
    add("vector2_flag64", u32(5 | 1 << 16) + struct.pack("<ff", 1, 2), "Vector2 header with bit 16 set: Godot 3 has no 64-bit vectors")
    add("array_flag64", u32(19 | 1 << 16) + u32(1) + int42, "Array header with bit 16 set (ignored)")
    add("header_byte1_set", u32(2 | 0xff << 8) + s32(42), "int header with byte 1 = 0xff (ignored)")
    add("header_high_bits_set", u32(2 | 0x7ffe << 17) + s32(42), "int header with bits 17..30 set (ignored)")
    add("header_bit31_set", u32(2 | 1 << 31) + s32(42), "int header with bit 31 set")
    add("bool_2", H(1) + u32(2), "bool payload 2")
    add("bool_ffffffff", H(1) + u32(0xffffffff), "bool payload 0xffffffff")
    add("nil_with_payload", H(0) + u32(0xdeadbeef), "Nil followed by 4 bytes")
    add("trailing_4_bytes", int42 + b"\xde\xad\xbe\xef", "int 42 + 4 trailing bytes (ignored)")
    add("trailing_1_byte", int42 + b"\x01", "int 42 + 1 trailing byte (ignored)")
    add("trailing_value", int42 + int42, "two values back to back: the second is ignored")
    add("dict_duplicate_keys", H(18) + u32(2) + H(4) + gstr("a") + int42 + H(4) + gstr("a") + H(2) + s32(7),
        "a Dictionary with the key \"a\" twice: the last value wins")
    add("dict_int_float_same_value", H(18) + u32(2) + H(2) + s32(1) + int42 + H(3) + struct.pack("<f", 1.0) + int42,
        "keys 1 and 1.0: two entries")
    add("rid_with_payload", H(16) + struct.pack("<Q", 99), "RID header then 8 bytes: Godot 3 reads no payload")
    deep = H(19) + u32(1)
    add("nest_array_2000", deep * 2000 + H(19) + u32(0), "2001 nested Arrays (no depth limit in 3.2.3)")
    dd = H(18) + u32(1) + H(4) + gstr("k")
    add("nest_dict_2000", dd * 2000 + H(0), "2000 nested Dictionaries {\"k\": …} around null")
    add("nest_array_2000_truncated", deep * 2000, "2000 nested Arrays, the innermost missing")
    return C


def build_malformed(out_dir):
    """malformed/ holds what bytes2var(bytes, false) did; malformed/allow_objects/ what
    bytes2var(bytes, true) did with inputs that only matter when objects are allowed."""
    clean_dir(out_dir)
    cases = malformed_cases()
    if len({c[0] for c in cases}) != len(cases):
        sys.exit("duplicate malformed names")
    answers = harness(["b2v\t%s\t%d" % (data.hex(), allow) for _, data, allow, _ in cases])
    groups = {False: [], True: []}
    for (name, data, allow, note), a in zip(cases, answers):
        f = a.split("\t")
        d = os.path.join(out_dir, "allow_objects") if allow else out_dir
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name + ".bin"), "wb") as fb:
            fb.write(data)
        row = {"name": name, "hex": data.hex(), "allow_objects": allow, "note": note,
               "ok": f[0] == "ok", "text": "", "error": "", "reencoded_hex": ""}
        if f[0] == "ok":
            row["text"] = unescape(f[1])
            row["reencoded_hex"] = f[2]
        else:
            row["error"] = f[1]
        groups[allow].append(row)
    write_json_lines(os.path.join(out_dir, "manifest.jsonl"), groups[False])
    write_json_lines(os.path.join(out_dir, "allow_objects", "manifest.jsonl"), groups[True])
    return groups[False], groups[True]


# --------------------------------------------------------------------------------------------
# streams/

def build_streams(out_dir):
    clean_dir(out_dir)
    tmp = tempfile.mkdtemp(prefix="oracle3-")
    try:
        env = dict(os.environ, LANG="en", ORACLE3_STREAMS_DIR=tmp)
        p = subprocess.run([ENGINE, "-s", os.path.join(ORACLE, "streams.gd")], cwd=tmp, env=env,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=600)
        meta = os.path.join(tmp, "streams.tsv")
        if not os.path.exists(meta):
            sys.exit("streams.gd wrote nothing (exit %d)\n%s" % (p.returncode, p.stderr.decode("utf-8", "replace")))
        files = {}
        with open(meta, encoding="utf-8") as f:
            for line in f:
                c = line.rstrip("\n").split("\t")
                fname, framing, endian, idx, expr, text, hexs, back = c
                e = files.setdefault(fname, {"name": fname, "framing": framing, "endianness": endian,
                                             "values": [], "exprs": [], "value_hex": [], "read_back": True})
                assert int(idx) == len(e["values"])
                e["values"].append(unescape(text))
                e["exprs"].append(unescape(expr))
                e["value_hex"].append(hexs)
                e["read_back"] = e["read_back"] and unescape(back) == unescape(text)
        rows = []
        for fname, e in files.items():
            with open(os.path.join(tmp, fname), "rb") as f:
                data = f.read()
            check_stream(e, data)
            shutil.copy(os.path.join(tmp, fname), os.path.join(out_dir, fname))
            e["size"] = len(data)
            e["prefix"] = "u32 %s-endian length before each value" % e["endianness"]
            rows.append(e)
        write_json_lines(os.path.join(out_dir, "manifest.jsonl"), rows)
        return rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def check_stream(e, data):
    """The file must be exactly: per value, a u32 length in the stated byte order + var2bytes."""
    fmt = ">I" if e["endianness"] == "big" else "<I"
    o = 0
    for hexs in e["value_hex"]:
        v = bytes.fromhex(hexs)
        n = struct.unpack_from(fmt, data, o)[0]
        if n != len(v):
            sys.exit("%s: length prefix %d, value is %d bytes" % (e["name"], n, len(v)))
        got = data[o + 4:o + 4 + n]
        pads = padding_of(v)
        if zeroed(got, pads) != zeroed(v, pads):
            sys.exit("%s: payload differs from var2bytes" % e["name"])
        o += 4 + n
    if o != len(data):
        sys.exit("%s: %d bytes left over" % (e["name"], len(data) - o))


# --------------------------------------------------------------------------------------------

def version():
    p = subprocess.run([ENGINE, "--version"], capture_output=True, env=dict(os.environ, LANG="en"),
                       cwd=tempfile.gettempdir())
    return p.stdout.decode().strip().splitlines()[-1]


def main():
    sys.setrecursionlimit(20000)  # the walker recurses once per nesting level
    if shutil.which(ENGINE) is None and not os.path.exists(ENGINE):
        sys.exit("godot3-server not found (apt-get install -y godot3-server, or set GODOT3_BIN)")
    ver = version()
    if not ver.startswith("3.2.3"):
        print("warning: engine version %s, the corpus is meant for 3.2.3" % ver, file=sys.stderr)
    main_rows = build_values(os.path.join(ORACLE, "cases", "corpus.tsv"), OUT,
                             keep_dirs=("game", "malformed", "streams"))
    game_rows = build_values(os.path.join(ORACLE, "cases", "game.tsv"), os.path.join(OUT, "game"))
    mal_rows, mal_obj_rows = build_malformed(os.path.join(OUT, "malformed"))
    stream_rows = build_streams(os.path.join(OUT, "streams"))
    types = sorted({r["type"] for r in main_rows})
    with open(os.path.join(OUT, "summary.txt"), "w") as f:
        f.write("godot %s\n" % ver)
        f.write("fixtures %d\n" % len(main_rows))
        f.write("types %d\n" % len(types))
        f.write("paired_with_godot4 %d\n" % sum(1 for r in main_rows if r["godot4_name"]))
        f.write("roundtrip %d\n" % sum(r["roundtrip"] for r in main_rows))
        f.write("roundtrip_exact %d\n" % sum(r["roundtrip_exact"] for r in main_rows))
        f.write("with_nodepath_padding %d\n" % sum(1 for r in main_rows if r["nodepath_pad_bytes"]))
        f.write("garbage_seen %d\n" % sum(r["garbage_seen"] for r in main_rows))
        f.write("game %d\n" % len(game_rows))
        f.write("malformed %d (ok %d, err %d)\n" % (len(mal_rows), sum(r["ok"] for r in mal_rows),
                                                    sum(not r["ok"] for r in mal_rows)))
        f.write("malformed/allow_objects %d (ok %d, err %d)\n" % (
            len(mal_obj_rows), sum(r["ok"] for r in mal_obj_rows), sum(not r["ok"] for r in mal_obj_rows)))
        f.write("streams %d\n" % len(stream_rows))
    with open(os.path.join(OUT, "summary.txt")) as f:
        sys.stdout.write(f.read())


if __name__ == "__main__":
    main()
