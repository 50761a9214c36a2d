"""``Unpacker``: values one at a time from bytes fed in pieces or from a file (``store_var``
files, ``StreamPeer`` traffic), as msgpack's ``Unpacker`` does."""

from __future__ import annotations

from typing import IO, Any, Dict, Iterator, Optional

from . import _native

_CHUNK = 1 << 16


class Unpacker:
    """Reads values from a stream: ``feed(data)`` then iterate, or pass a binary file.

    ``framing`` defaults to ``"store-var"`` (a length before each value, what ``store_var`` and
    ``StreamPeer.put_var`` write); ``"none"`` reads bare values back to back. Iteration stops
    when the bytes fed so far hold no whole value; with a file it reads to the end, and a
    value cut short there raises ``DecodeError``. ``max_frame`` bounds one value's bytes.
    """

    def __init__(
        self,
        file: Optional[IO[bytes]] = None,
        *,
        dialect: str = "godot4",
        version: Optional[str] = None,
        framing: str = "store-var",
        allow_objects: bool = False,
        exact: bool = False,
        max_frame: int = 1 << 30,
    ) -> None:
        self._file = file
        self._buf = b""
        self._pos = 0  # start of the unread bytes in _buf
        self._offset = 0
        self._opts: Dict[str, Any] = dict(
            dialect=dialect,
            version=version,
            framing=framing,
            allow_objects=allow_objects,
            exact=exact,
            max_frame=max_frame,
        )
        self._eof = file is None

    def feed(self, data: bytes) -> None:
        """Appends bytes that arrived."""
        self._buf = self._buf[self._pos :] + bytes(data)
        self._pos = 0

    def tell(self) -> int:
        """Offset in the stream of the next value."""
        return self._offset

    def _next(self, final: bool) -> Any:
        got = _native.next_value(self._buf, self._pos, self._offset, final=final, **self._opts)
        if got is None:
            return None
        value, used = got
        self._pos += used
        self._offset += used
        return (value,)

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        while True:
            got = self._next(final=self._file is not None and self._eof)
            if got is not None:
                return got[0]
            if self._file is None or self._eof:
                raise StopIteration
            chunk = self._file.read(_CHUNK)
            if not chunk:
                self._eof = True
                if self._pos >= len(self._buf):
                    raise StopIteration
            else:
                self.feed(chunk)
