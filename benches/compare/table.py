"""Turns the JSON lines of benches/compare/run.sh into the Markdown report: medians, ratios
(theirs / ours, on the same bytes) and the issue's targets. Usage: table.py RESULTS MEM MACHINE"""
import json
import sys

WORKLOADS = [
    ("w1_float32_1m", "W1 PackedFloat32Array, 1,000,000 floats (4 MB)"),
    ("w2_bytes_16mib", "W2 PackedByteArray, 16 MiB"),
    ("w3_dicts_100k", "W3 Array of 100,000 dicts (10.4 MB)"),
    ("w4_dict", "W4 one dict (100 B)"),
]


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def fmt(ns):
    if ns is None:
        return "—"
    if ns >= 1e6:
        return f"{ns / 1e6:.3g} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.3g} µs"
    return f"{ns:.3g} ns"


def main():
    rows = load(sys.argv[1])
    mem = load(sys.argv[2]) if len(sys.argv) > 2 else []
    machine = sys.argv[3] if len(sys.argv) > 3 else ""

    def get(tool, op, workload, dialect="godot3"):
        """The row of one measurement; with several rounds, the median round's."""
        found = [r for r in rows
                 if (r["tool"], r["op"], r["workload"], r["dialect"]) == (tool, op, workload, dialect)]
        if not found:
            return None
        timed = sorted((r for r in found if r.get("median_ns") is not None),
                       key=lambda r: r["median_ns"])
        return timed[len(timed) // 2] if timed else found[0]

    def ns(tool, op, workload, dialect="godot3"):
        r = get(tool, op, workload, dialect)
        return None if r is None else r.get("median_ns")

    errors = []

    def cell(tool, op, workload, dialect, ours):
        r = get(tool, op, workload, dialect)
        if r is None:
            return "—"
        if r.get("median_ns") is None:
            errors.append(f"{tool} {op} {workload}: {r.get('error', 'no result')}")
            return f"fails<sup>{len(errors)}</sup>"
        t = r["median_ns"]
        q = t / ours if ours else None
        ratio = "" if q is None else (f" ({q:,.1f}×)" if q >= 1 else f" ({q:.2g}×)")
        mark = "" if r.get("same_bytes", True) else " ≠"
        return f"{fmt(t)}{ratio}{mark}"

    out = []
    if machine:
        out.append(f"Machine: {machine}")
        out.append("")
    for op, title, engine_op, gd_op, pg_op in [
        ("decode", "Decode", "`bytes2var`", "`getVar`", "`decode_variant`"),
        ("encode", "Encode", "`var2bytes`", "`putVar`", "`encode_variant`"),
    ]:
        out.append(f"**{title}** — median per call (median of the rounds); in brackets, that tool's time over ours on the same bytes")
        out.append("")
        head = ["workload", "gdvariant"]
        if op == "decode":
            head += ["gdvariant borrowed", "gdvariant borrowed, every element read"]
        head += [f"Godot 3.2.3 {engine_op}", f"@gd-com/utils 4.1.5 {gd_op}",
                 f"playgodot 0.5.1 {pg_op}", "memcpy"]
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        for w, label in WORKLOADS:
            ours3 = ns("gdvariant", op, w)
            ours4 = ns("gdvariant", op, w, "godot4")
            cells = [label, fmt(ours3)]
            if op == "decode":
                cells.append(cell("gdvariant", "decode_borrowed", w, "godot3", None))
                cells.append(cell("gdvariant", "decode_borrowed_walk", w, "godot3", None))
            cells.append(cell("godot3", op, w, "godot3", ours3))
            cells.append(cell("gdcom", op, w, "godot3", ours3))
            cells.append(cell("playgodot", op, w, "godot4", ours4))
            cells.append(cell("memcpy", "copy", w, "godot3", ours3))
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    for n, e in enumerate(errors, 1):
        out.append(f"<sup>{n}</sup> {e}  ")
    if errors:
        out.append("")
    out.append("Godot 3 bytes (made by the engine's `var2bytes`) for gdvariant, the engine and "
               "@gd-com/utils; Godot 4 bytes for playgodot, which reads only that format, with "
               "its ratio taken against gdvariant on the same Godot 4 bytes. Decoding includes "
               "freeing the previous result, as the engine's loop does; the engine's times have "
               "its empty-loop cost subtracted. ≠: the library wrote other bytes than the "
               "engine (it guesses types from script values). memcpy: a copy of the same "
               "number of bytes into a buffer allocated beforehand. The borrowed decode checks "
               "every byte but leaves containers as views of the input; \"every element read\" "
               "adds reading each element of each container once.")
    out.append("")

    # W3 with glibc's trimming off (run.sh's second pass), if present.
    if get("gdvariant-notrim", "decode", "w3_dicts_100k"):
        out.append("**W3 with glibc's heap trimming off** (`GLIBC_TUNABLES=glibc.malloc.trim_threshold=…`): "
                   "how much of W3 is the allocator returning memory to the OS and faulting it back in")
        out.append("")
        out.append("| | gdvariant default | gdvariant no trim | Godot 3.2.3 default | Godot 3.2.3 no trim |")
        out.append("|---|---|---|---|---|")
        for op, label in [("decode", "decode"), ("decode_borrowed", "borrowed decode"), ("encode", "encode")]:
            eng = "decode" if op == "decode_borrowed" else op
            out.append(f"| {label} | {fmt(ns('gdvariant', op, 'w3_dicts_100k'))} | "
                       f"{fmt(ns('gdvariant-notrim', op, 'w3_dicts_100k'))} | "
                       f"{fmt(ns('godot3', eng, 'w3_dicts_100k')) if op != 'decode_borrowed' else '—'} | "
                       f"{fmt(ns('godot3-notrim', eng, 'w3_dicts_100k')) if op != 'decode_borrowed' else '—'} |")
        out.append("")

    # The targets.
    def ratio(a, b):
        return None if a is None or b is None or b == 0 else a / b

    w1 = ns("gdvariant", "decode", "w1_float32_1m")
    w1_gbs = None if w1 is None else 4_000_008 / w1
    w2 = ns("gdvariant", "decode", "w2_bytes_16mib")
    w2_vs_memcpy = ratio(ns("memcpy", "copy", "w2_bytes_16mib"), w2)
    b16 = ns("gdvariant", "decode_borrowed", "w2_bytes_16b")
    b16m = ns("gdvariant", "decode_borrowed", "w2_bytes_16mib")
    w3d = ratio(ns("godot3", "decode", "w3_dicts_100k"), ns("gdvariant", "decode", "w3_dicts_100k"))
    w3e = ratio(ns("godot3", "encode", "w3_dicts_100k"), ns("gdvariant", "encode", "w3_dicts_100k"))
    w3b = ratio(ns("godot3", "decode", "w3_dicts_100k"),
                ns("gdvariant", "decode_borrowed", "w3_dicts_100k"))
    w4d = ns("gdvariant", "decode", "w4_dict")
    w4e = ns("gdvariant", "encode", "w4_dict")

    def verdict(ok):
        return "—" if ok is None else ("met" if ok else "**not met**")

    def f(x, spec):
        return "—" if x is None else format(x, spec)

    out.append("**Targets** (Godot 3 bytes, same run)")
    out.append("")
    out.append("| target | measured | |")
    out.append("|---|---|---|")
    out.append(f"| W1 decode ≥ 8 GB/s | {f(w1_gbs, '.1f')} GB/s | {verdict(None if w1_gbs is None else w1_gbs >= 8)} |")
    out.append(f"| W2 decode ≥ 0.7× memcpy speed | {f(w2_vs_memcpy, '.2f')}× | {verdict(None if w2_vs_memcpy is None else w2_vs_memcpy >= 0.7)} |")
    same = None if b16 is None or b16m is None else b16m <= 1.5 * b16 + 5
    out.append(f"| borrowed W2: 16 MiB costs what 16 B costs | {fmt(b16m)} vs {fmt(b16)} | {verdict(same)} |")
    out.append(f"| W3 decode ≥ 7× faster than `bytes2var` | {f(w3d, '.1f')}× | {verdict(None if w3d is None else w3d >= 7)} |")
    out.append(f"| W3 encode ≥ 10× faster than `var2bytes` | {f(w3e, '.1f')}× | {verdict(None if w3e is None else w3e >= 10)} |")
    out.append(f"| W3 borrowed decode ≥ 20× faster than `bytes2var` | {f(w3b, '.1f')}× | {verdict(None if w3b is None else w3b >= 20)} |")
    w3w = ratio(ns("godot3", "decode", "w3_dicts_100k"),
                ns("gdvariant", "decode_borrowed_walk", "w3_dicts_100k"))
    out.append(f"| (not a target) W3 borrowed decode with every element read, vs `bytes2var` | {f(w3w, '.1f')}× | |")
    out.append(f"| W4 decode ≤ 250 ns | {fmt(w4d)} | {verdict(None if w4d is None else w4d <= 250)} |")
    out.append(f"| W4 encode ≤ 150 ns | {fmt(w4e)} | {verdict(None if w4e is None else w4e <= 150)} |")
    for m in mem:
        if m.get("file", "").startswith("w3") and "godot3" in m.get("file", ""):
            out.append(f"| W3 peak memory, `{m['op']}` (resident memory added, input {m['input_bytes'] / 1e6:.1f} MB) | "
                       f"{m['peak_rss_added'] / 1e6:.1f} MB | |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
