"""Turns the JSON lines of benches/compare/run.sh into the Markdown report: the best round of each
measurement, ratios (theirs / ours, on the same bytes) and issue 15's targets.
Usage: table.py RESULTS MEM MACHINE"""
import json
import sys

WORKLOADS = [
    ("w1_float32_1m", "W1 PackedFloat32Array, 1,000,000 floats (4 MB)"),
    ("w2_bytes_16mib", "W2 PackedByteArray, 16 MiB"),
    ("w3_dicts_100k", "W3 Array of 100,000 dicts (10.4 MB)"),
    ("w4_dict", "W4 one dict (100 B)"),
]
W3 = "w3_dicts_100k"
# The engines, each with the bytes it reads and its name for the call.
ENGINES = [
    ("godot4.3", "godot4", "Godot 4.3", "bytes_to_var", "var_to_bytes"),
    ("godot4.4.1", "godot4", "Godot 4.4.1", "bytes_to_var", "var_to_bytes"),
    ("godot3", "godot3", "Godot 3.2.3", "bytes2var", "var2bytes"),
]
WAYS = [("keep_ns", "no freeing"), ("free_ns", "with freeing")]


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
    if ns >= 1e9:
        return f"{ns / 1e9:.3g} s"
    if ns >= 1e6:
        return f"{ns / 1e6:.3g} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.3g} µs"
    return f"{ns:.3g} ns"


def times(q):
    if q is None:
        return ""
    return f"{q:,.1f}×" if q >= 1 else f"{q:.2g}×"


def main():
    rows = load(sys.argv[1])
    mem = load(sys.argv[2]) if len(sys.argv) > 2 else []
    machine = sys.argv[3] if len(sys.argv) > 3 else ""

    def found(tool, op, workload, dialect):
        return [r for r in rows
                if (r["tool"], r["op"], r["workload"], r["dialect"]) == (tool, op, workload, dialect)]

    def ns(tool, op, workload, dialect="godot3", field="median_ns"):
        """One measurement's best round: the engines' best case, and everyone else's alike."""
        timed = [r[field] for r in found(tool, op, workload, dialect) if r.get(field) is not None]
        return min(timed) if timed else None

    def ratio(theirs, ours):
        return None if theirs is None or not ours else theirs / ours

    errors = []

    def cell(tool, op, workload, dialect, ours, field="median_ns"):
        rs = found(tool, op, workload, dialect)
        if not rs:
            return "—"
        t = ns(tool, op, workload, dialect, field)
        if t is None:
            errors.append(f"{tool} {op} {workload}: {rs[0].get('error', 'no result')}")
            return f"fails<sup>{len(errors)}</sup>"
        q = ratio(t, ours)
        mark = "" if all(r.get("same_bytes", True) for r in rs) else " ≠"
        return f"{fmt(t)}{f' ({times(q)})' if q else ''}{mark}"

    # A filtered run (`run.sh w3`) has rows for some workloads only.
    measured = [(w, label) for w, label in WORKLOADS if any(r["workload"] == w for r in rows)]
    out = []
    if machine:
        out.append(f"Machine: {machine}")
        out.append("")

    # Against the engines: each call two ways on both sides.
    for op, title, call4, call3 in [("decode", "Decode", "`bytes_to_var`", "`bytes2var`"),
                                    ("encode", "Encode", "`var_to_bytes`", "`var2bytes`")]:
        out.append(f"**{title}, against the engines** — per call, best of the rounds' medians; "
                   "in brackets the engine's time over ours, the same way, on the same bytes")
        out.append("")
        head = ["workload", "", "gdvariant, Godot 4 bytes", f"Godot 4.3 {call4}",
                f"Godot 4.4.1 {call4}", "gdvariant, Godot 3 bytes", f"Godot 3.2.3 {call3}"]
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        for w, label in measured:
            for i, (field, way) in enumerate(WAYS):
                ours4 = ns("gdvariant", op, w, "godot4", field)
                ours3 = ns("gdvariant", op, w, "godot3", field)
                cells = [label if i == 0 else "", way, fmt(ours4)]
                for tool, dialect, *_ in ENGINES[:2]:
                    cells.append(cell(tool, op, w, dialect, ours4, field))
                cells.append(fmt(ours3))
                cells.append(cell("godot3", op, w, "godot3", ours3, field))
                out.append("| " + " | ".join(cells) + " |")
        out.append("")
    out.append("No freeing: the call alone, its result kept alive and released outside the clock "
               "(the engine's best case). With freeing: the call plus releasing its result, what "
               "a loop that replaces its value pays. Both sides are timed alike: one call per "
               "sample (W4: 20,000, kept in a vector or Array sized beforehand, the loop's own "
               "cost subtracted), each release ending with a 4 KiB allocation so that glibc's "
               "deferred work on many small frees is charged to the release, medians of 7 "
               "samples, the best of the rounds.")
    out.append("")

    # The other tools, as today: each times its own loop, replacing its result, so they are
    # compared with our time with freeing.
    for op, title, gd_op, pg_op in [("decode", "Decode", "`getVar`", "`decode_variant`"),
                                    ("encode", "Encode", "`putVar`", "`encode_variant`")]:
        out.append(f"**{title}, other tools** — per call, best of the rounds' medians; in "
                   "brackets that tool's time over ours with freeing, on the same bytes")
        out.append("")
        head = ["workload", "gdvariant, with freeing"]
        if op == "decode":
            head += ["gdvariant borrowed", "gdvariant borrowed, every element read"]
        head += [f"@gd-com/utils 4.1.5 {gd_op}", f"playgodot 0.5.1 {pg_op}", "memcpy"]
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        for w, label in measured:
            ours3 = ns("gdvariant", op, w, "godot3", "free_ns")
            ours4 = ns("gdvariant", op, w, "godot4", "free_ns")
            cells = [label, fmt(ours3)]
            if op == "decode":
                cells.append(cell("gdvariant", "decode_borrowed", w, "godot3", None))
                cells.append(cell("gdvariant", "decode_borrowed_walk", w, "godot3", None))
            cells.append(cell("gdcom", op, w, "godot3", ours3))
            cells.append(cell("playgodot", op, w, "godot4", ours4))
            cells.append(cell("memcpy", "copy", w, "godot3", None))
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    for n, e in enumerate(errors, 1):
        out.append(f"<sup>{n}</sup> {e}  ")
    if errors:
        out.append("")
    out.append("Godot 3 bytes (made by the engine's `var2bytes`) for gdvariant, Godot 3.2.3 and "
               "@gd-com/utils; Godot 4 bytes (made by 4.3's and 4.4.1's `var_to_bytes`, the "
               "same bytes) for gdvariant, the Godot 4 engines and playgodot, which reads only "
               "that format. ≠: the library wrote other bytes than the engine (it guesses types "
               "from script values). memcpy: a copy of the same number of bytes into a buffer "
               "allocated beforehand. The borrowed decode checks every byte but leaves "
               "containers as views of the input; \"every element read\" adds reading each "
               "element of each container once.")
    out.append("")

    # W3 and the allocator (run.sh's last passes), if present: every tool under one setting
    # at a time, so each ratio compares like with like.
    settings = [("", "glibc, default"), ("-notrim", "glibc, trimming off"), ("-mimalloc", "mimalloc")]
    if found("gdvariant-notrim", "decode", W3, "godot3"):
        out.append("**W3 and the allocator**: each tool under the same allocator setting: glibc as "
                   "it comes; glibc with its heap trimming off (`GLIBC_TUNABLES=glibc.malloc."
                   "trim_threshold=…`), so that freed memory is not given back to the OS and "
                   "faulted in again by the next call; and mimalloc in place of malloc "
                   "(`LD_PRELOAD`, for the engines and for us alike). In brackets the engine's "
                   "time over ours under that setting")
        out.append("")
        for dialect, engines in [("godot3", ["godot3"]), ("godot4", ["godot4.3", "godot4.4.1"])]:
            names = [next(n for t, _, n, *_ in ENGINES if t == e) for e in engines]
            bytes_name = "Godot 3 bytes" if dialect == "godot3" else "Godot 4 bytes"
            out.append(f"| W3, {bytes_name} | | gdvariant | " + " | ".join(names) + " |")
            out.append("|---" * (3 + len(engines)) + "|")
            for op in ["decode", "encode"]:
                for suffix, setting in settings:
                    for i, (field, way) in enumerate(WAYS):
                        ours = ns("gdvariant" + suffix, op, W3, dialect, field)
                        cells = [f"{op}, {setting}" if i == 0 else "", way, fmt(ours)]
                        for e in engines:
                            cells.append(cell(e + suffix, op, W3, dialect, ours, field))
                        out.append("| " + " | ".join(cells) + " |")
            out.append("")

    # Issue 15's targets that this run measures.
    def verdict(q, at_least=None, at_most=None):
        if q is None:
            return "—"
        ok = (at_least is None or q >= at_least) and (at_most is None or q <= at_most)
        return "met" if ok else "**not met**"

    out.append("**Targets** (issue 15; same run)")
    out.append("")
    out.append("| target | measured | |")
    out.append("|---|---|---|")
    for field, way, goals in [("keep_ns", "no freeing on either side", {"godot4.3": 4, "godot4.4.1": 4, "godot3": 5}),
                              ("free_ns", "with freeing on both sides", {"godot4.3": 10, "godot4.4.1": 10, "godot3": 10})]:
        for tool, dialect, name, call4, call3 in ENGINES:
            q = ratio(ns(tool, "decode", W3, dialect, field), ns("gdvariant", "decode", W3, dialect, field))
            goal = goals[tool]
            out.append(f"| W3 owned decode ≥ {goal}× faster than {name}, {way} | "
                       f"{'—' if q is None else times(q)} | {verdict(q, at_least=goal)} |")
    b3 = ns("gdvariant", "decode_borrowed", W3)
    gbs = None if b3 is None else 10_399_968 / b3
    out.append(f"| W3 borrowed validation ≥ 2.5 GB/s | {'—' if gbs is None else f'{gbs:.2f} GB/s'} | "
               f"{verdict(gbs, at_least=2.5)} |")
    for op, goal in [("decode", 150), ("encode", 90)]:
        keep = ns("gdvariant", op, "w4_dict", "godot3", "keep_ns")
        free = ns("gdvariant", op, "w4_dict", "godot3", "free_ns")
        out.append(f"| W4 {op} ≤ {goal} ns (with freeing; no freeing: {fmt(keep)}) | {fmt(free)} | "
                   f"{verdict(free, at_most=goal)} |")
    w1 = ns("gdvariant", "decode", "w1_float32_1m", "godot3", "free_ns")
    out.append(f"| (for W1 and W2 no slower than before) W1 decode, with freeing | "
               f"{'—' if w1 is None else f'{4_000_008 / w1:.1f} GB/s'} | |")
    w2 = ns("gdvariant", "decode", "w2_bytes_16mib", "godot3", "free_ns")
    m2 = ns("memcpy", "copy", "w2_bytes_16mib")
    out.append(f"| (for W1 and W2 no slower than before) W2 decode with freeing, as a share of "
               f"memcpy's speed | {'—' if ratio(m2, w2) is None else f'{m2 / w2:.2f}×'} | |")
    b16 = ns("gdvariant", "decode_borrowed", "w2_bytes_16b")
    b16m = ns("gdvariant", "decode_borrowed", "w2_bytes_16mib")
    out.append(f"| (not a target) borrowed W2: 16 MiB costs what 16 B costs | {fmt(b16m)} vs {fmt(b16)} | |")
    for m in mem:
        if m.get("file", "").startswith("w3") and "godot3" in m.get("file", ""):
            out.append(f"| W3 peak memory, `{m['op']}` (resident memory added, input "
                       f"{m['input_bytes'] / 1e6:.1f} MB) | {m['peak_rss_added'] / 1e6:.1f} MB | |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
