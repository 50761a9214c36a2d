"""Resource files (``.tres``, ``.res``) and ConfigFile text as Python objects.

``read_resource`` gives a ``ResourceFile`` whose resources have a ``properties`` dict (in the
file's order) to read and edit; ``write_resource`` writes it in its encoding, byte for byte
the engine's when nothing was changed. ``read_config`` gives a ``ConfigFile`` whose
``values`` is ``{section: {key: value}}``; ``write_config`` rewrites only what changed,
comments and the untouched entries kept as written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

from . import _native

_BytesLike = Union[bytes, bytearray, memoryview]


@dataclass
class Resource:
    """A resource saved in the file (a sub-resource or the main one): its class, the id
    references use (``None`` for the main resource of a ``.tres``) and its properties. A
    property that refers to another resource holds an ``Object`` of class ``SubResource`` or
    ``ExtResource`` with its ``id``."""

    class_name: str
    id: Any
    properties: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def _from_model(cls, m: Dict[str, Any]) -> "Resource":
        return cls(m["class"], m["id"], dict(m["properties"]))

    def _model(self) -> Dict[str, Any]:
        return {"class": self.class_name, "id": self.id, "properties": dict(self.properties)}


@dataclass
class ResourceFile:
    """A ``.tres``/``.res`` file: the main resource's class, the script class, the encoding
    (``encoding["kind"]`` is ``"text"`` or ``"binary"``, with that header's fields), the
    external resources (dicts with ``class``, ``path``, ``uid``, ``id``), the sub-resources and
    the main resource."""

    class_name: str
    script_class: Optional[str]
    encoding: Dict[str, Any]
    ext_resources: List[Dict[str, Any]]
    sub_resources: List[Resource]
    main: Resource

    def sub_resource(self, id: Any) -> Optional[Resource]:
        """The sub-resource with ``id`` (a reference's ``Object.properties["id"]``)."""
        return next((r for r in self.sub_resources if r.id == id), None)


def read_resource(data: _BytesLike) -> ResourceFile:
    """Reads a ``.tres`` or ``.res`` file (told apart by the ``RSRC`` magic). Values are
    exact (``StringName`` and typed arrays kept), so that ``write_resource`` gives the same
    bytes. A malformed file raises ``DecodeError`` (with the offset for a ``.res``)."""
    m = _native.read_resource(data)
    return ResourceFile(
        class_name=m["class"],
        script_class=m["script_class"],
        encoding=dict(m["encoding"]),
        ext_resources=[dict(e) for e in m["ext_resources"]],
        sub_resources=[Resource._from_model(r) for r in m["sub_resources"]],
        main=Resource._from_model(m["main"]),
    )


def write_resource(file: ResourceFile) -> bytes:
    """The bytes of ``file`` in its encoding, as the engine writes them. What cannot be
    written raises ``EncodeError``."""
    model = {
        "class": file.class_name,
        "script_class": file.script_class,
        "encoding": file.encoding,
        "ext_resources": file.ext_resources,
        "sub_resources": [r._model() for r in file.sub_resources],
        "main": file.main._model(),
    }
    return _native.write_resource(model)


@dataclass
class ConfigFile:
    """ConfigFile text (``ConfigFile.save``, ``project.godot``, ``override.cfg``) read by
    ``read_config``: ``values`` is ``{section: {key: value}}`` in file order (entries before
    the first section under ``""``), edited in place; ``text`` is the text read."""

    text: str
    values: Dict[str, Dict[str, Any]]
    dialect: str = "godot4"

    def get(self, section: str, key: str, default: Any = None) -> Any:
        """The value of ``key`` in ``section``, or ``default``."""
        return self.values.get(section, {}).get(key, default)

    def set(self, section: str, key: str, value: Any) -> None:
        """Sets ``key`` in ``section`` (the section is added when new)."""
        self.values.setdefault(section, {})[key] = value


def read_config(data: Union[str, _BytesLike], *, dialect: str = "godot4") -> ConfigFile:
    """Reads ConfigFile text (``str``, or UTF-8 bytes) with values in ``dialect``'s text form.
    Malformed text raises ``DecodeError`` naming the line."""
    text = data if isinstance(data, str) else bytes(data).decode("utf-8")
    values = _native.read_config(text, dialect=dialect)
    return ConfigFile(text, {s: dict(e) for s, e in values.items()}, dialect)


def write_config(config: ConfigFile) -> str:
    """The text of ``config``: entries whose value is unchanged keep their text byte for
    byte, changed ones are rewritten in place, new ones added as ``ConfigFile.save`` lays
    them out. Removing an entry is not supported: the text keeps it."""
    return _native.write_config(config.text, config.values, dialect=config.dialect)
