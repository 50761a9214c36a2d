"""Decoding and encoding speed from Python (pytest-benchmark): W1–W4 and the savegame, against
PlayGodot's pure-Python codec (when installed) and orjson on the same data as JSON.

    cd python/benches && python -m pytest -q --benchmark-columns=min,median,rounds
"""

from __future__ import annotations

import io
from typing import Any, Callable, Dict

import pytest

import gdvariant

import workloads

VALUES: Dict[str, Callable[[], Any]] = {"w1": workloads.w1, "w2": workloads.w2, "w3": workloads.w3, "w4": workloads.w4}
_BYTES: Dict[str, bytes] = {}


def data(name: str) -> bytes:
    if name not in _BYTES:
        _BYTES[name] = gdvariant.dumps(VALUES[name]())
    return _BYTES[name]


@pytest.mark.parametrize("name", list(VALUES))
def test_loads(benchmark: Any, name: str) -> None:
    b = data(name)
    benchmark.group = f"decode {name}"
    benchmark(gdvariant.loads, b)


@pytest.mark.parametrize("name", list(VALUES))
def test_dumps(benchmark: Any, name: str) -> None:
    v = gdvariant.loads(data(name))
    benchmark.group = f"encode {name}"
    benchmark(gdvariant.dumps, v)


@pytest.mark.parametrize("name", ["w3", "w4"])
def test_orjson_loads_same_data(benchmark: Any, name: str) -> None:
    orjson = pytest.importorskip("orjson")
    text = orjson.dumps(workloads.as_json(VALUES[name]()))
    benchmark.group = f"decode {name}"
    benchmark(orjson.loads, text)


@pytest.mark.parametrize("name", ["w1", "w3", "w4"])
def test_playgodot_decode(benchmark: Any, name: str) -> None:
    variant = pytest.importorskip("playgodot.variant")
    b = data(name)
    benchmark.group = f"decode {name}"
    benchmark.pedantic(variant.decode_variant, (b,), rounds=3 if name != "w4" else 1000, iterations=1)


def test_savegame_unpacker(benchmark: Any) -> None:
    save = workloads.savegame() * 200
    benchmark.group = "savegame x200"
    benchmark(lambda: list(gdvariant.Unpacker(io.BytesIO(save), dialect="godot3", version="3.2.3")))
