"""Stubs of the extension module (python/src/): the library's calls for Python."""

from typing import Any, Dict, List, Optional, Tuple, Union

__all__ = [
    "convert",
    "dumps",
    "explain",
    "from_json",
    "from_text",
    "guess",
    "json_of_bytes",
    "loads",
    "math_table",
    "next_value",
    "read_config",
    "read_resource",
    "to_json",
    "to_text",
    "write_config",
    "write_resource",
]

_BytesLike = Union[bytes, bytearray, memoryview]
_Line = Tuple[int, int, int, str, str, str]

def loads(
    data: _BytesLike,
    *,
    dialect: str = "godot4",
    version: Optional[str] = None,
    framing: str = "none",
    allow_objects: bool = False,
    exact: bool = False,
) -> Any: ...
def dumps(
    obj: Any,
    *,
    dialect: str = "godot4",
    version: Optional[str] = None,
    framing: str = "none",
    full_objects: bool = False,
    double_precision: bool = False,
    round_reals: bool = False,
) -> bytes: ...
def to_text(obj: Any, *, dialect: str = "godot4", exact: bool = False) -> str: ...
def from_text(text: str, *, dialect: str = "godot4", exact: bool = False) -> Any: ...
def to_json(obj: Any) -> str: ...
def from_json(text: str, *, exact: bool = False) -> Any: ...
def explain(
    data: _BytesLike,
    *,
    dialect: str = "godot4",
    version: Optional[str] = None,
    framing: str = "none",
    allow_objects: bool = False,
    all: bool = False,
) -> List[_Line]: ...
def guess(data: _BytesLike) -> Dict[str, Any]: ...
def convert(
    data: _BytesLike,
    src: str,
    dst: str,
    *,
    src_version: Optional[str] = None,
    dst_version: Optional[str] = None,
    framing: str = "none",
    allow_objects: bool = False,
    lossy: bool = False,
) -> Tuple[bytes, Dict[str, List[Any]]]: ...
def next_value(
    buf: bytes,
    start: int,
    offset: int,
    *,
    dialect: str,
    version: Optional[str],
    framing: str,
    allow_objects: bool,
    exact: bool,
    max_frame: int,
    final: bool,
) -> Optional[Tuple[Any, int]]: ...
def math_table() -> List[Tuple[str, str, List[Tuple[str, str]], Optional[str]]]: ...
def json_of_bytes(
    data: bytes,
    *,
    dialect: str = "godot4",
    version: Optional[str] = None,
    allow_objects: bool = False,
    keep_leading_bom: bool = False,
) -> Optional[str]: ...
def read_resource(data: _BytesLike) -> Dict[str, Any]: ...
def write_resource(model: Dict[str, Any]) -> bytes: ...
def read_config(text: str, *, dialect: str = "godot4") -> Dict[str, Dict[str, Any]]: ...
def write_config(text: str, values: Dict[str, Dict[str, Any]], *, dialect: str = "godot4") -> str: ...
