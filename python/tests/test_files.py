"""Resource files and ConfigFile text against engine-made files (tests/fixtures/resource/):
read, edit, and write back byte for byte, and an edit written as the engine writes it."""

from __future__ import annotations

import pathlib

import pytest

import gdvariant
from conftest import FIXTURES

RES = FIXTURES / "resource"
SAVES = [
    "godot3.2/save.tres",
    "godot3.2/save.res",
    "godot4.3/save.tres",
    "godot4.3/save.res",
    "godot4.4/save.tres",
    "godot4.4/save.res",
]


@pytest.mark.parametrize("name", SAVES)
def test_engine_saves_read_and_write_back_byte_for_byte(name: str) -> None:
    data = (RES / name).read_bytes()
    f = gdvariant.read_resource(data)
    assert f.class_name == "Resource"
    assert f.encoding["kind"] == ("binary" if name.endswith(".res") else "text")
    props = f.main.properties
    assert props["name"] == "ann" and props["hp"] == 90 and props["speed"] == 2.5
    assert props["pos"] == gdvariant.Vector2(1, 2)
    assert list(props["tags"]) == ["a", "b"]
    assert props["big"] == 1 << 40
    assert props["bytes"] == b"\x01\x02\x03\x04\x05"
    assert gdvariant.write_resource(f) == data


@pytest.mark.parametrize("name", SAVES)
def test_an_edit_reads_back_and_references_resolve(name: str) -> None:
    f = gdvariant.read_resource((RES / name).read_bytes())
    child = f.main.properties["child"]
    assert child.class_name == "SubResource"
    sub = f.sub_resource(dict(child.properties)["id"])
    assert sub is not None and sub.properties["resource_name"] == "child"
    f.main.properties["hp"] = 4321
    f.main.properties["name"] = "bob"
    back = gdvariant.read_resource(gdvariant.write_resource(f))
    assert back.main.properties["hp"] == 4321 and back.main.properties["name"] == "bob"
    assert back.main.properties["speed"] == 2.5


def test_a_malformed_resource_raises_decode_error_with_the_offset() -> None:
    data = (RES / "godot4.4/save.res").read_bytes()
    with pytest.raises(gdvariant.DecodeError) as e:
        gdvariant.read_resource(data[:0x300])
    assert e.value.offset is not None
    bad = gdvariant.read_resource(data)
    bad.encoding = {"kind": "zip"}
    with pytest.raises(gdvariant.EncodeError):
        gdvariant.write_resource(bad)


@pytest.mark.parametrize("engine,dialect", [("godot4.4", "godot4"), ("godot3.2", "godot3")])
def test_config_files_read_and_edit_as_the_engine_saves(engine: str, dialect: str) -> None:
    text = (RES / engine / "settings.cfg").read_text(encoding="utf-8")
    cfg = gdvariant.read_config(text, dialect=dialect)
    assert list(cfg.values) == ["player", "audio", "keys"]
    assert cfg.get("player", "name") == "ann" and cfg.get("player", "hp") == 90
    assert cfg.get("player", "pos") == gdvariant.Vector2(1, 2)
    assert cfg.get("audio", "muted") is False
    assert cfg.get("keys", "jump") == {"key": 32, "mods": []}
    # Unedited: the same text.
    assert gdvariant.write_config(cfg) == text
    # The edits make.gd made with the engine (make_config.gd): the engine's edited.cfg.
    cfg.set("player", "hp", 100)
    cfg.set("player", "level", 3)
    cfg.set("extra", "seen", True)
    assert gdvariant.write_config(cfg) == (RES / engine / "edited.cfg").read_text(encoding="utf-8")


def test_config_from_bytes_and_errors() -> None:
    data = (RES / "godot4.4" / "settings.cfg").read_bytes()
    assert gdvariant.read_config(data).get("audio", "volume") == 0.75
    with pytest.raises(gdvariant.DecodeError):
        gdvariant.read_config("[player]\nhp=Vector2(\n")
