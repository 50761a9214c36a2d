"""Godot values with no plain Python equivalent: names, paths, typed containers, objects."""

from __future__ import annotations

from typing import Any, Iterable, Iterator, List, Optional, Tuple

ElementType = Tuple[str, str]
"""A typed container's element type: ``("builtin", "Int")``, ``("class", "Node")`` or
``("script", "res://player.gd")``."""


class StringName(str):
    """A ``StringName`` (``&"name"``): a ``str`` that encodes as a StringName, not a String."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"StringName({str.__repr__(self)})"


class NodePath(str):
    """A ``NodePath`` (``^"root/Player:position"``), held as its text."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"NodePath({str.__repr__(self)})"


class TypedArray(List[Any]):
    """A typed ``Array[T]`` (Godot 4.3+): a list that remembers its element type."""

    def __init__(self, element_type: ElementType, items: Iterable[Any] = (), pandemonium_packed: bool = False) -> None:
        super().__init__(items)
        self.element_type: ElementType = (element_type[0], element_type[1])
        self.pandemonium_packed = pandemonium_packed

    def __repr__(self) -> str:
        return f"TypedArray({self.element_type!r}, {list.__repr__(self)})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TypedArray):
            return self.element_type == other.element_type and list.__eq__(self, other)
        return NotImplemented if not isinstance(other, list) else False

    __hash__ = None


class Dictionary:
    """A Godot ``Dictionary`` that a ``dict`` cannot hold: typed (Godot 4.4+), or with keys that
    Python would merge (``1``, ``1.0`` and ``True``) or cannot hash (lists, dicts).

    Entries keep their order; ``items()`` gives the ``(key, value)`` pairs, and lookups
    compare keys by type and value as the engine does.
    """

    __slots__ = ("_pairs", "key_type", "value_type")

    def __init__(
        self,
        pairs: Iterable[Tuple[Any, Any]] = (),
        key_type: Optional[ElementType] = None,
        value_type: Optional[ElementType] = None,
    ) -> None:
        self._pairs: List[Tuple[Any, Any]] = [(k, v) for k, v in pairs]
        self.key_type = key_type
        self.value_type = value_type

    def items(self) -> List[Tuple[Any, Any]]:
        """The entries as ``(key, value)`` pairs, in order."""
        return list(self._pairs)

    def keys(self) -> List[Any]:
        """The keys, in order."""
        return [k for k, _ in self._pairs]

    def values(self) -> List[Any]:
        """The values, in order."""
        return [v for _, v in self._pairs]

    def __len__(self) -> int:
        return len(self._pairs)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.keys())

    def __getitem__(self, key: Any) -> Any:
        for k, v in self._pairs:
            if type(k) is type(key) and k == key:
                return v
        raise KeyError(key)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dictionary):
            return NotImplemented
        return (self._pairs, self.key_type, self.value_type) == (other._pairs, other.key_type, other.value_type)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        typed = f", key_type={self.key_type!r}, value_type={self.value_type!r}" if self.key_type or self.value_type else ""
        return f"Dictionary({self._pairs!r}{typed})"


class Object:
    """An ``Object`` as data: null (``Object()``), by instance id, or in full (class name and
    stored properties, read only with ``allow_objects=True``; decoding never runs code)."""

    __slots__ = ("class_name", "properties", "id")

    def __init__(
        self,
        class_name: Optional[str] = None,
        properties: Iterable[Tuple[str, Any]] = (),
        id: Optional[int] = None,
    ) -> None:
        self.class_name = class_name
        self.properties: List[Tuple[str, Any]] = list(properties)
        self.id = id

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Object):
            return NotImplemented
        return (self.class_name, self.properties, self.id) == (other.class_name, other.properties, other.id)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        if self.id is not None:
            return f"Object(id={self.id})"
        if self.class_name is None:
            return "Object()"
        return f"Object({self.class_name!r}, {self.properties!r})"


class RID(int):
    """A resource id (``RID``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"RID({int(self)})"


class Callable:
    """A ``Callable``: the engines write none of it, so every one reads back as this."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Callable)

    def __hash__(self) -> int:
        return hash("Callable")

    def __repr__(self) -> str:
        return "Callable()"


class Signal:
    """A ``Signal``: its name and the instance id of the object that owns it."""

    __slots__ = ("name", "object")

    def __init__(self, name: str, object: int = 0) -> None:
        self.name = name
        self.object = object

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Signal):
            return NotImplemented
        return (self.name, self.object) == (other.name, other.object)

    def __hash__(self) -> int:
        return hash((self.name, self.object))

    def __repr__(self) -> str:
        return f"Signal({self.name!r}, {self.object})"
