"""The exceptions of gdvariant: what went wrong, where in the bytes or in the value."""

from __future__ import annotations

from typing import Any, Optional


class DecodeError(ValueError):
    """Bytes that are not a Godot value: ``offset`` is where the bad field starts, ``path`` where
    in the value (when known), ``engine_error`` what Godot's own decoder answers
    (``"ERR_INVALID_DATA"``, ``"ERR_FILE_EOF"``, …) when it is known."""

    def __init__(
        self,
        message: str,
        offset: Optional[int] = None,
        path: Optional[str] = None,
        engine_error: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.msg = message
        self.offset = offset
        self.path = path
        self.engine_error = engine_error


class ExtraData(DecodeError):
    """One whole value followed by more bytes: both are kept, as msgpack's ``ExtraData`` does."""

    def __init__(self, value: Any, extra: bytes) -> None:
        super().__init__(f"{len(extra)} bytes of extra data after the value", None, None)
        self.unpacked = value
        self.extra = extra

    def __str__(self) -> str:
        return self.msg


class EncodeError(ValueError):
    """A value the target dialect or version cannot hold: ``path`` says where inside it."""

    def __init__(self, message: str, path: Optional[str] = None) -> None:
        super().__init__(message)
        self.msg = message
        self.path = path


class ConversionLost(ValueError):
    """``convert`` would lose something: ``report`` lists every loss; pass ``lossy=True``."""

    def __init__(self, message: str, report: Any) -> None:
        super().__init__(message)
        self.report = report
