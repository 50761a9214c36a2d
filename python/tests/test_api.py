"""The Python face of the package: math classes, packed arrays and numpy, plain and exact
values, errors, files and streams, and the tools (text, JSON, explain, guess, convert)."""

from __future__ import annotations

import io
import pickle

import pytest

import gdvariant as g

from conftest import FIXTURES


def test_math_values_are_frozen_tuples_printed_as_the_engine_does() -> None:
    v = g.Vector2(1, 2.5)
    x, y = v
    assert (x, y) == (1.0, 2.5) and v.x == 1.0 and v.y == 2.5
    assert str(v) == "Vector2(1, 2.5)" and repr(v) == "Vector2(1, 2.5)"
    assert hash(v) == hash(g.Vector2(1, 2.5)) and {v: 1}[g.Vector2(1, 2.5)] == 1
    assert v != g.Vector2i(1, 2) and g.Vector2i(1, 2) != (1, 2)
    with pytest.raises(AttributeError):
        v.x = 3  # type: ignore[misc]
    assert g.Rect2(1, 2, 3, 4).size == (3.0, 4.0)
    assert str(g.AABB()) == "AABB(0, 0, 0, 0, 0, 0)"
    assert g.Basis(1, 0, 0, 0, 1, 0, 0, 0, 1).rows[1] == (0.0, 1.0, 0.0)
    assert g.Color(1, 0, 0, 1).r == 1.0
    with pytest.raises(TypeError):
        g.Vector3(1, 2)
    assert pickle.loads(pickle.dumps(v)) == v


def test_packed_arrays_share_their_buffer_with_numpy() -> None:
    np = pytest.importorskip("numpy")
    data = g.dumps(np.arange(1000, dtype=np.float32))
    p = g.loads(data)
    assert isinstance(p, g.PackedFloat32Array)
    a = np.frombuffer(p, dtype=np.float32)
    assert a[999] == 999.0
    p[0] = 7.0
    assert a[0] == 7.0  # the same memory: no copy was made
    v = g.loads(g.dumps(np.array([[1.0, 2.0], [3.0, 4.0]])))
    assert isinstance(v, g.PackedVector2Array) and v.elements() == [g.Vector2(1, 2), g.Vector2(3, 4)]
    assert np.frombuffer(v, dtype=np.float64).reshape(-1, 2).tolist() == [[1, 2], [3, 4]]
    for dtype, cls in [("u1", bytes), ("i4", g.PackedInt32Array), ("i8", g.PackedInt64Array), ("f8", g.PackedFloat64Array)]:
        assert type(g.loads(g.dumps(np.zeros(3, dtype=dtype)))) is cls


def test_plain_and_exact_values() -> None:
    b = g.dumps({"name": g.StringName("hero"), "ids": g.TypedArray(("builtin", "Int"), [1, 2])})
    plain = g.loads(b)
    assert plain == {"name": "hero", "ids": [1, 2]} and type(plain["name"]) is str
    exact = g.loads(b, exact=True)
    assert type(exact["name"]) is g.StringName and exact["ids"].element_type == ("builtin", "Int")
    assert g.dumps(exact) == b and g.dumps(plain) != b


def test_dictionaries_python_would_merge_keep_every_key() -> None:
    d = g.loads(bytes.fromhex((FIXTURES / "godot4" / "dict_mixed_keys.bin").read_bytes().hex()))
    assert isinstance(d, g.Dictionary)
    keys = d.keys()
    assert 1 in keys and any(type(k) is float for k in keys)
    assert d[1] == "int" and d[1.0] == "float"
    assert g.dumps(d) == (FIXTURES / "godot4" / "dict_mixed_keys.bin").read_bytes()


def test_bytes_like_inputs() -> None:
    b = g.dumps([1, "a"])
    assert g.loads(bytearray(b)) == g.loads(memoryview(b)) == [1, "a"]
    assert g.guess(bytearray(b))["complete"]


def test_errors_name_offset_and_path() -> None:
    with pytest.raises(g.DecodeError) as d:
        g.loads(b"\x02\x00\x00")
    assert d.value.offset == 0 and isinstance(d.value, ValueError)
    with pytest.raises(g.EncodeError) as e:
        g.dumps({"a": [1, object()]})
    assert e.value.path == "value.a[1]"
    with pytest.raises(g.EncodeError) as e:
        g.dumps(g.StringName("x"), dialect="godot3")
    assert "StringName" in str(e.value)
    with pytest.raises(g.EncodeError):
        g.dumps(2**64)
    with pytest.raises(ValueError):
        g.loads(b"", dialect="godot5")


def test_dump_load_and_unpacker_on_store_var_files() -> None:
    f = io.BytesIO()
    for v in [42, "hello", g.Vector2(1, 2)]:
        g.dump(v, f, dialect="godot3", framing="store-var")
    f.seek(0)
    assert list(g.Unpacker(f, dialect="godot3")) == [42, "hello", g.Vector2(1, 2)]
    save = (FIXTURES / "godot3" / "streams" / "file_store_var_be.bin").read_bytes()
    values = list(g.Unpacker(io.BytesIO(save), dialect="godot3", version="3.2.3", framing="store-var-be"))
    assert values[:3] == [42, "hello", g.Vector2(1, 2)] and len(values) == 9
    # Fed a byte at a time, as from a socket.
    u = g.Unpacker(dialect="godot3", version="3.2.3", framing="store-var-be")
    got = []
    for i in range(len(save)):
        u.feed(save[i : i + 1])
        got.extend(u)
    assert got == values and u.tell() == len(save)
    one = io.BytesIO(g.dumps([1, 2]))
    assert g.load(one) == [1, 2]


def test_unpacker_reports_a_value_cut_short() -> None:
    data = g.dumps("hello", framing="store-var")[:-2]
    with pytest.raises(g.DecodeError):
        list(g.Unpacker(io.BytesIO(data)))


def test_text_and_json_forms() -> None:
    assert g.to_text({"hp": 90, "pos": g.Vector2(1, 2)}) == '{\n"hp": 90,\n"pos": Vector2(1, 2)\n}'
    assert g.from_text('{"a": Vector2i(1, 2), "b": &"n", "c": ^"root/x"}', exact=True) == {
        "a": g.Vector2i(1, 2), "b": g.StringName("n"), "c": g.NodePath("root/x")}
    assert g.to_text(g.Vector2(1, 2), dialect="godot3") == "Vector2( 1, 2 )"
    assert g.to_json(42) == '{"type":"Int","value":42}'
    assert g.from_json('{"type":"Vector2","value":[1.0,2.0]}') == g.Vector2(1, 2)
    with pytest.raises(g.DecodeError):
        g.from_text("Vector2(")


def test_explain_guess_convert() -> None:
    lines = g.explain((FIXTURES / "godot4" / "nodepath_abs_prop.bin").read_bytes())
    assert lines[0][:4] == (0, 4, 0, "header") and "NodePath" in lines[0].value
    assert lines[1].field == "name_count" and lines[1].depth == 1
    bad = g.explain(b"\x02\x00\x00\x00\x01")
    assert bad[-1][3] == "error" and "unexpected end" in bad[-1][5]
    guess = g.guess((FIXTURES / "godot4" / "game_state_g4.bin").read_bytes())
    assert guess["dialect"] == "godot4" and guess["confidence"] == "high"
    g3 = (FIXTURES / "godot3" / "game_state.bin").read_bytes()
    out, report = g.convert(g3, "godot3", "godot4", src_version="3.2.3")
    assert out == (FIXTURES / "godot4" / "game_state.zeroed.bin").read_bytes()
    assert report["losses"] == [] and report["renumbered"]
    g4 = (FIXTURES / "godot4" / "game_state_g4.bin").read_bytes()
    with pytest.raises(g.ConversionLost) as lost:
        g.convert(g4, "godot4", "godot3")
    assert lost.value.report["losses"]
    out, report = g.convert(g4, "godot4", "godot3", lossy=True)
    assert g.loads(out, dialect="godot3")["level"] == "level_01"


def test_objects_are_data_and_refused_unless_allowed() -> None:
    full = g.Object("Resource", [("resource_name", "r")])
    with pytest.raises(g.EncodeError):
        g.dumps(full)
    b = g.dumps(full, full_objects=True)
    with pytest.raises(g.DecodeError):
        g.loads(b)
    assert g.loads(b, allow_objects=True) == full
    assert g.loads(g.dumps(g.RID(5))) == g.RID(5) and g.loads(g.dumps(g.Signal("hit", 3))) == g.Signal("hit", 3)
