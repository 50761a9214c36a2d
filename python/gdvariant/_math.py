"""The math classes (``Vector2``, ``Transform3D``, ``Color``, …) and packed arrays, made at import
from the library's own tables of kinds and components: nothing here knows a layout."""

from __future__ import annotations

import array
import re
from typing import Any, Dict, Iterable, List, Tuple, Type

from . import _native

CLASSES_BY_KIND: Dict[str, type] = {}
"""Every math and packed class by the library's kind name (``Aabb``, ``PackedVector2Array``)."""

_TYPECODE = {"real": "d", "int": "i", "f32": "f"}


class MathValue(Tuple[Any, ...]):
    """A Godot math value: a frozen tuple of its components in the engine's order, equal only
    to values of the same type, printed as the engine's text form."""

    __slots__ = ()
    _fields: Tuple[str, ...] = ()
    _ints: bool = False

    def __new__(cls, *components: Any) -> Any:
        if len(components) == 1 and isinstance(components[0], (tuple, list)):
            components = tuple(components[0])
        if not components:
            components = (0,) * len(cls._fields)
        if len(components) != len(cls._fields):
            raise TypeError(f"{cls.__name__} takes {len(cls._fields)} components ({', '.join(cls._fields)}), got {len(components)}")
        conv = int if cls._ints else float
        return tuple.__new__(cls, (conv(c) for c in components))

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)  # type: ignore[arg-type]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self).__name__, tuple(self)))

    def __repr__(self) -> str:
        return _native.to_text(self, exact=True)

    def __str__(self) -> str:
        return _native.to_text(self)

    def __getnewargs__(self) -> Tuple[Any, ...]:
        return tuple(self)


class PackedArray(array.array):  # type: ignore[type-arg]
    """A packed array: an ``array.array`` of every component in order, so ``numpy.frombuffer``
    and ``memoryview`` read it without a copy. Arrays of math values are flat; ``elements()``
    gives them as math values and ``width`` is the components per element."""

    typecode_of: str = "d"
    element: Any = None
    width: int = 1

    def __new__(cls, items: Iterable[Any] = ()) -> Any:
        self = array.array.__new__(cls, cls.typecode_of)
        if cls.element is not None:
            items = [c for item in items for c in (item if isinstance(item, tuple) else (item,))]
        self.extend(items)
        return self

    def elements(self) -> List[Any]:
        """The elements (math values for arrays of them, numbers otherwise)."""
        if self.element is None:
            return self.tolist()
        w = self.width
        flat = self.tolist()
        return [tuple.__new__(self.element, flat[i : i + w]) for i in range(0, len(flat), w)]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.elements()!r})"

    def __reduce__(self) -> Any:
        return (type(self), (self.elements(),))


class PackedStringArray(List[str]):
    """A ``PackedStringArray``: a list of ``str`` that encodes packed."""

    def __repr__(self) -> str:
        return f"PackedStringArray({list.__repr__(self)})"


def _accessor(index: int) -> property:
    return property(lambda self: self[index], doc=f"component {index}")


def _group(indices: List[int]) -> property:
    return property(lambda self: tuple(self[i] for i in indices))


def _attributes(paths: List[str]) -> Dict[str, property]:
    """``x`` for a plain component; ``position`` (a tuple) for ``position.x``, ``position.y``;
    ``rows`` (a tuple of tuples) for ``rows[0].x`` …"""
    attrs: Dict[str, property] = {}
    groups: Dict[str, Dict[int, List[int]]] = {}
    for i, path in enumerate(paths):
        head = path.split(".")[0]
        m = re.fullmatch(r"(\w+)\[(\d+)\]", head)
        if "." not in path:
            attrs[path] = _accessor(i)
        elif m:
            groups.setdefault(m.group(1), {}).setdefault(int(m.group(2)), []).append(i)
        else:
            groups.setdefault(head, {}).setdefault(-1, []).append(i)
    for name, parts in groups.items():
        if -1 in parts and len(parts) == 1:
            attrs[name] = _group(parts[-1])
        else:
            rows = [parts[k] for k in sorted(parts)]
            attrs[name] = property(lambda self, rows=rows: tuple(tuple(self[i] for i in r) for r in rows))
    return attrs


def _build() -> None:
    table = _native.math_table()
    made: Dict[str, Type[Any]] = {}
    for kind, name, comps, packed in table:
        if packed:
            continue
        paths = [p for p, _ in comps]
        scalars = {s for _, s in comps}
        ns: Dict[str, Any] = {
            "__slots__": (),
            "_fields": tuple(paths),
            "_ints": scalars == {"int"},
            "__doc__": f"Godot's ``{name}``: the components {', '.join(paths)}.",
        }
        ns.update(_attributes(paths))
        cls = type(name, (MathValue,), ns)
        cls.__module__ = "gdvariant"
        made[kind] = cls
        CLASSES_BY_KIND[kind] = cls
    for kind, name, comps, packed in table:
        if not packed:
            continue
        element = made[packed]
        ns = {
            "typecode_of": _TYPECODE[comps[0][1]],
            "element": element,
            "width": len(comps),
            "__doc__": f"Godot's ``{name}``: a flat ``array.array`` of {len(comps)} component(s) per element.",
        }
        cls = type(name, (PackedArray,), ns)
        cls.__module__ = "gdvariant"
        CLASSES_BY_KIND[kind] = cls
    for kind, code in (("PackedInt32Array", "i"), ("PackedInt64Array", "q"), ("PackedFloat32Array", "f"), ("PackedFloat64Array", "d")):
        cls = type(kind, (PackedArray,), {"typecode_of": code, "__doc__": f"Godot's ``{kind}``: an ``array.array('{code}')``."})
        cls.__module__ = "gdvariant"
        CLASSES_BY_KIND[kind] = cls
    globals().update({c.__name__: c for c in CLASSES_BY_KIND.values()})
    __all__.extend(sorted(c.__name__ for c in CLASSES_BY_KIND.values()))


__all__ = ["MathValue", "PackedArray", "PackedStringArray"]


_build()
