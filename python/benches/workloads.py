"""The benchmark workloads W1–W4 of benches/common/workloads.rs, and the savegame, as bytes."""

from __future__ import annotations

import array
import pathlib
from typing import Any, Dict, List

import gdvariant

REPO = pathlib.Path(__file__).resolve().parents[2]


def player(i: int) -> Dict[str, Any]:
    """The record of W3 and W4."""
    return {"id": i, "name": f"player_{i}", "pos": gdvariant.Vector2(i, 2 * i), "hp": 100.0}


def w1() -> Any:
    """W1: a PackedFloat32Array of 1,000,000 floats (`float(i) * 0.25`, 4 MB)."""
    return gdvariant.PackedFloat32Array(array.array("f", (i * 0.25 for i in range(1_000_000))))


def w2() -> bytes:
    """W2: a PackedByteArray of 16 MiB (`i % 251`)."""
    return bytes(i % 251 for i in range(251)) * ((16 << 20) // 251) + bytes(i % 251 for i in range((16 << 20) % 251))


def w3() -> List[Any]:
    """W3: an Array of 100,000 records (10.4 MB)."""
    return [player(i) for i in range(100_000)]


def w4() -> Any:
    """W4: one record."""
    return player(1)


def as_json(v: Any) -> Any:
    """The same data as plain JSON (vectors as lists), for orjson."""
    if isinstance(v, dict):
        return {k: as_json(x) for k, x in v.items()}
    if isinstance(v, list):
        return [as_json(x) for x in v]
    if isinstance(v, gdvariant.MathValue):
        return list(v)
    return v


def savegame() -> bytes:
    """The engine's Godot 3.2.3 savegame: six `store_var` frames."""
    return (REPO / "tests" / "fixtures" / "godot3" / "streams" / "savegame.sav").read_bytes()
