"""gdvariant: Godot's binary Variant serialization for Python, byte-exact with the engines.

``loads`` / ``dumps`` are ``bytes_to_var`` / ``var_to_bytes`` (Godot 3, Godot 4, Pandemonium);
``load`` / ``dump`` and ``Unpacker`` read and write files and streams (``store_var``);
``to_text`` / ``from_text`` are the engine's text form, ``to_json`` / ``from_json`` the lossless
JSON form; ``explain``, ``guess`` and ``convert`` are the tools. ``read_resource`` /
``write_resource`` read and write resource files (``.tres``, ``.res``), ``read_config`` /
``write_config`` ConfigFile text.
"""

from __future__ import annotations

from typing import IO, Any, List, NamedTuple, Optional, Union

from . import _math
from ._errors import ConversionLost, DecodeError, EncodeError, ExtraData
from ._files import ConfigFile, Resource, ResourceFile, read_config, read_resource, write_config, write_resource
from ._math import *  # noqa: F401,F403  (Vector2, Transform3D, Color, Packed*Array, …)
from . import _native
from ._native import convert, dumps, from_json, from_text, guess, loads, to_json, to_text
from ._stream import Unpacker
from ._values import RID, Callable, Dictionary, NodePath, Object, Signal, StringName, TypedArray


class ExplainLine(NamedTuple):
    """One field of ``explain``: where it is, how deep, its name, what it holds and what the
    format says it is."""

    offset: int
    length: int
    depth: int
    field: str
    value: str
    meaning: str


def explain(
    data: Union[bytes, bytearray, memoryview],
    *,
    dialect: str = "godot4",
    version: Optional[str] = None,
    framing: str = "none",
    allow_objects: bool = False,
    all: bool = False,
) -> List[ExplainLine]:
    """Every field of ``data`` at its offset, in byte order. Malformed input is explained up to
    the bad byte, and a last line with field ``"error"`` gives the decoder's error at its
    offset. ``all`` lists every array element (otherwise 16, then a summary line)."""
    lines = _native.explain(data, dialect=dialect, version=version, framing=framing, allow_objects=allow_objects, all=all)
    return [ExplainLine(*line) for line in lines]


def load(
    fp: IO[bytes],
    *,
    dialect: str = "godot4",
    version: Optional[str] = None,
    framing: str = "none",
    allow_objects: bool = False,
    exact: bool = False,
) -> Any:
    """Reads the whole binary file ``fp`` and decodes the one value in it (see ``loads``).
    A ``store_var`` file of several values is read with ``Unpacker(fp)``."""
    return loads(fp.read(), dialect=dialect, version=version, framing=framing, allow_objects=allow_objects, exact=exact)


def dump(
    obj: Any,
    fp: IO[bytes],
    *,
    dialect: str = "godot4",
    version: Optional[str] = None,
    framing: str = "none",
    full_objects: bool = False,
    double_precision: bool = False,
    round_reals: bool = False,
) -> None:
    """Encodes ``obj`` (see ``dumps``) and writes the bytes to the binary file ``fp``."""
    fp.write(
        dumps(
            obj,
            dialect=dialect,
            version=version,
            framing=framing,
            full_objects=full_objects,
            double_precision=double_precision,
            round_reals=round_reals,
        )
    )


__all__ = [
    "loads",
    "dumps",
    "load",
    "dump",
    "Unpacker",
    "to_text",
    "from_text",
    "to_json",
    "from_json",
    "explain",
    "ExplainLine",
    "guess",
    "convert",
    "read_resource",
    "write_resource",
    "Resource",
    "ResourceFile",
    "read_config",
    "write_config",
    "ConfigFile",
    "DecodeError",
    "ExtraData",
    "EncodeError",
    "ConversionLost",
    "StringName",
    "NodePath",
    "TypedArray",
    "Dictionary",
    "Object",
    "RID",
    "Callable",
    "Signal",
]
__all__.extend(_math.__all__)
