"""playgodot 0.5.1 side of benches/compare/run.sh: times its public decode_variant /
encode_variant on the Godot 4 files of the comparison (it reads the Godot 4 format) and prints
one JSON line per measurement (median ns). Usage: python playgodot_bench.py DATA_DIR [FILTER]"""
import json
import os
import sys
import time

from playgodot.variant import decode_variant, encode_variant

NAMES = ["w1_float32_1m", "w2_bytes_16mib", "w3_dicts_100k", "w4_dict"]


def median_ns(f, sample_ms, samples):
    """Median ns per call: calls batched to about sample_ms, median of samples samples."""
    t0 = time.perf_counter_ns()
    f()
    once = max(time.perf_counter_ns() - t0, 20)
    batch = max(1, min(1_000_000, int(sample_ms * 1e6 / once)))
    times = []
    for _ in range(samples):
        t = time.perf_counter_ns()
        for _ in range(batch):
            f()
        times.append((time.perf_counter_ns() - t) / batch)
    times.sort()
    return times[len(times) // 2]


def line(op, workload, ns, size, **extra):
    print(json.dumps(dict(tool="playgodot", op=op, dialect="godot4", workload=workload,
                          median_ns=ns, bytes=size, **extra)), flush=True)


def main():
    data = sys.argv[1]
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    for name in NAMES:
        if only and only not in name:
            continue
        path = os.path.join(data, f"{name}.godot4.bin")
        if not os.path.exists(path):
            continue
        with open(path, "rb") as f:
            data_bytes = f.read()
        big = len(data_bytes) > 1 << 20
        # Three samples of the big workloads: one W3 call takes seconds, and a ratio of 40× to
        # ours does not need a finer median.
        sample_ms, samples = (1, 3) if big else (5, 21)
        line("decode", name, median_ns(lambda: decode_variant(data_bytes), sample_ms, samples),
             len(data_bytes))
        value, _ = decode_variant(data_bytes)
        try:
            out = encode_variant(value)
        except Exception as e:  # noqa: BLE001 - report what the library refuses
            line("encode", name, None, len(data_bytes), error=f"{type(e).__name__}: {e}")
            continue
        line("encode", name, median_ns(lambda: encode_variant(value), sample_ms, samples),
             len(data_bytes), same_bytes=out == data_bytes, out_bytes=len(out))


if __name__ == "__main__":
    main()
