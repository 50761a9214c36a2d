"""The Godot 3.2.3 corpus of malformed and lenient inputs: the engine's verdict on each, the
same error the Rust library gives (never a crash), and arbitrary damage never crashing."""

from __future__ import annotations

from typing import Any, Dict, List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gdvariant
from gdvariant import _native

from conftest import FIXTURES, engine_fixtures, manifest

ROWS: List[Dict[str, Any]] = manifest(FIXTURES / "godot3" / "malformed")

# Where our bytes differ from the engine's re-encoding, on purpose (as in tests/cli_decode.rs).
DIFFERS_BY_DESIGN = {
    "object_as_id_not_allowed": "the engine re-encodes an EncodedObjectAsID with a new, run-dependent id",
    "utf8_above_max": "a Python str cannot hold code points past U+10FFFF: they read as U+FFFD",
    "utf8_5_byte": "a Python str cannot hold code points past U+10FFFF: they read as U+FFFD",
}


@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_decoders_verdict(row: Dict[str, Any]) -> None:
    """Refused inputs raise DecodeError at an offset (never crash); accepted ones re-encode to
    the bytes the engine re-encoded (NodePath padding, which it leaves uninitialised, aside)."""
    data = bytes.fromhex(row["hex"])
    opts: Dict[str, Any] = dict(dialect="godot3", version="3.2.3")
    try:
        value = gdvariant.loads(data, **opts)
    except gdvariant.ExtraData as extra:  # bytes2var ignores what follows the value
        value = extra.unpacked
        assert data.endswith(extra.extra)
    except gdvariant.DecodeError as e:
        assert isinstance(e, ValueError)
        assert isinstance(e.offset, int) and 0 <= e.offset <= len(data)
        assert f"(at offset {e.offset:#x})" in str(e)
        assert e.engine_error is not None and e.engine_error.startswith("ERR_")
        # The depth limit (1024, the engine's MAX_RECURSION_DEPTH) stops a deep truncated
        # input before its end is reached, so the two answer different ERR_ codes.
        if not row["ok"] and row["name"] != "nest_array_2000_truncated":
            assert e.engine_error == row["error"]
        return
    if not row["ok"] or row["name"] in DIFFERS_BY_DESIGN:
        return
    out = gdvariant.dumps(value, dialect="godot3", version="3.2.3")
    want = bytes.fromhex(row["reencoded_hex"])
    assert len(out) == len(want)
    assert all(a == b or (a == 0 and row["name"].startswith("nodepath")) for a, b in zip(out, want)), out.hex()


SAMPLES = [f[4] for f in engine_fixtures() if len(f[4]) < 4096][::7]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SAMPLES), st.data())
def test_damaged_fixtures_raise_decode_error_or_keep_every_value(data: bytes, draw: st.DataObject) -> None:
    b = bytearray(data)
    cut = draw.draw(st.integers(0, len(b)))
    for _ in range(draw.draw(st.integers(0, 3))):
        if b:
            b[draw.draw(st.integers(0, len(b) - 1))] ^= 1 << draw.draw(st.integers(0, 7))
    for dialect in ("godot3", "godot4", "pandemonium"):
        try:
            value = gdvariant.loads(bytes(b[:cut]), dialect=dialect, allow_objects=True, exact=True)
        except gdvariant.ExtraData as e:
            value = e.unpacked
        except gdvariant.DecodeError:
            continue
        # Whatever the decoder accepts, the Python value holds all of it: the same value as
        # the library reads (so `dumps` writes what the library would).
        rust = _native.json_of_bytes(bytes(b[:cut]), dialect=dialect, allow_objects=True, keep_leading_bom=True)
        assert gdvariant.to_json(value) == rust


def test_truncated_inputs_name_the_offset() -> None:
    with pytest.raises(gdvariant.DecodeError) as e:
        gdvariant.loads(bytes.fromhex("04000000c8000000616263"))
    assert e.value.offset == 4 and e.value.engine_error == "ERR_FILE_EOF"


def test_extra_data_keeps_value_and_rest() -> None:
    with pytest.raises(gdvariant.ExtraData) as e:
        gdvariant.loads(gdvariant.dumps(7) + b"\x01\x02")
    assert e.value.unpacked == 7 and e.value.extra == b"\x01\x02"
    assert isinstance(e.value, gdvariant.DecodeError)
