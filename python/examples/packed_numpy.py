"""Packed arrays and numpy: ``numpy.frombuffer`` reads a decoded array without copying it."""

from __future__ import annotations

from typing import Any

import gdvariant


def main() -> None:
    heights = gdvariant.PackedFloat32Array([0.0, 0.5, 1.0])
    data = gdvariant.dumps(heights)
    back = gdvariant.loads(data)
    assert isinstance(back, gdvariant.PackedFloat32Array)
    try:
        import numpy
    except ImportError:
        return
    view: Any = numpy.frombuffer(back, dtype=numpy.float32)
    print(view.sum(), gdvariant.loads(gdvariant.dumps(numpy.arange(3, dtype=numpy.int64))))


if __name__ == "__main__":
    main()
