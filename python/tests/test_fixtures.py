"""Every engine-made fixture decodes to the value the Rust library reads, and exact mode
writes back the engine's bytes (NodePath padding zeroed, as the fixtures' twins have it)."""

from __future__ import annotations

from typing import Any, Dict

import pytest

import gdvariant
from gdvariant import _native

from conftest import engine_fixtures

FIXTURES = list(engine_fixtures())


@pytest.mark.parametrize("name,dialect,version,row,data,expected", FIXTURES, ids=[f[0] for f in FIXTURES])
def test_fixture_round_trips_exactly(name: str, dialect: str, version: str, row: Dict[str, Any], data: bytes, expected: bytes) -> None:
    full = bool(row.get("full_objects"))
    value = gdvariant.loads(data, dialect=dialect, version=version, allow_objects=full, exact=True)
    assert gdvariant.dumps(value, dialect=dialect, version=version, full_objects=full) == expected
    # The same value as the library reads from the bytes directly.
    rust = _native.json_of_bytes(data, dialect=dialect, version=version, allow_objects=full, keep_leading_bom=True)
    assert gdvariant.to_json(value) == rust


@pytest.mark.parametrize("name,dialect,version,row,data,expected", FIXTURES, ids=[f[0] for f in FIXTURES])
def test_fixture_decodes_plainly(name: str, dialect: str, version: str, row: Dict[str, Any], data: bytes, expected: bytes) -> None:
    full = bool(row.get("full_objects"))
    value = gdvariant.loads(data, dialect=dialect, version=version, allow_objects=full)
    # Plain values still encode; what they lose is listed in docs/python.md (StringName,
    # typed containers' element types).
    gdvariant.dumps(value, dialect=dialect, version=version, full_objects=full)


def test_corpora_are_all_there() -> None:
    assert len(FIXTURES) == 266 + 20 + sum(1 for f in FIXTURES if f[0].startswith("godot3/"))
    assert sum(1 for f in FIXTURES if f[0].startswith("godot3/")) > 200
