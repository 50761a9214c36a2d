"""Generated values survive ``loads(dumps(v))`` (and the text and JSON forms) in every dialect
that can hold them, and exact mode keeps what plain mode merges."""

from __future__ import annotations

import math
import struct
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import gdvariant as g

# Reals of math types are single precision in the engines' default builds.
f32 = st.floats(width=32, allow_nan=False)
i32 = st.integers(-(2**31), 2**31 - 1)
# The engines cut strings at a NUL (String::utf8 reads a C string), so none are generated.
text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",), exclude_characters="\x00"), max_size=20)


def math_value(cls: Any) -> st.SearchStrategy[Any]:
    comp = i32 if cls._ints else f32
    return st.tuples(*[comp] * len(cls._fields)).map(lambda c: cls(*c))


MATH = [c for c in g._math.CLASSES_BY_KIND.values() if issubclass(c, g.MathValue)]
GODOT3_MATH = [g.Vector2, g.Rect2, g.Vector3, g.Transform2D, g.Plane, g.Quaternion, g.AABB, g.Basis, g.Transform3D, g.Color]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False),
    text,
    st.binary(max_size=40),
    st.one_of(*[math_value(c) for c in MATH]),
    text.map(g.StringName),
    st.lists(i32, max_size=8).map(g.PackedInt32Array),
    st.lists(st.integers(-(2**63), 2**63 - 1), max_size=8).map(g.PackedInt64Array),
    st.lists(f32, max_size=8).map(g.PackedFloat32Array),
    st.lists(st.floats(allow_nan=False), max_size=8).map(g.PackedFloat64Array),
    st.lists(text, max_size=5).map(g.PackedStringArray),
    st.lists(math_value(g.Vector2), max_size=5).map(g.PackedVector2Array),
    st.lists(math_value(g.Color), max_size=5).map(g.PackedColorArray),
)

values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.one_of(text, st.integers(-1000, 1000), math_value(g.Vector2i)), inner, max_size=5),
        st.lists(st.integers(-(2**63), 2**63 - 1), max_size=5).map(lambda xs: g.TypedArray(("builtin", "Int"), xs)),
    ),
    max_leaves=20,
)


def same(a: Any, b: Any) -> bool:
    """Equality that also holds the types: 1 is not 1.0 or True, a TypedArray is not a list."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, list):
        extra = getattr(a, "element_type", None) == getattr(b, "element_type", None)
        return extra and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    return bool(a == b)


@settings(max_examples=400, deadline=None)
@given(values)
def test_exact_round_trip_godot4(v: Any) -> None:
    b = g.dumps(v)
    back = g.loads(b, exact=True)
    assert same(back, v), (v, back)
    assert g.dumps(back) == b


@settings(max_examples=200, deadline=None)
@given(values)
def test_json_form_round_trips(v: Any) -> None:
    assert same(g.from_json(g.to_json(v), exact=True), v)


@settings(max_examples=200, deadline=None)
@given(values)
def test_text_form_reads_back_to_the_same_bytes(v: Any) -> None:
    # The engine prints 6 digits of math reals; exact text keeps every bit.
    b = g.dumps(v)
    assert g.dumps(g.from_text(g.to_text(v, exact=True), exact=True)) == b


godot3_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False),
    text,
    st.binary(max_size=40),
    st.one_of(*[math_value(c) for c in GODOT3_MATH]),
)


@settings(max_examples=200, deadline=None)
@given(st.recursive(godot3_scalars, lambda inner: st.lists(inner, max_size=5), max_leaves=15))
def test_round_trip_godot3(v: Any) -> None:
    b = g.dumps(v, dialect="godot3")
    assert same(g.loads(b, dialect="godot3"), v)


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_floats_keep_their_bits(x: float) -> None:
    back = g.loads(g.dumps(x))
    assert struct.pack("<d", back) == struct.pack("<d", x) or (math.isnan(x) and math.isnan(back))
