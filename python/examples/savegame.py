"""Read a Godot 4 save written with ``FileAccess.store_var``, change it, write it back."""

from __future__ import annotations

import io
from typing import Any, Dict, List

import gdvariant


def level_up(save: bytes) -> bytes:
    """Adds a level to every player of a save made of ``store_var`` values."""
    values: List[Any] = list(gdvariant.Unpacker(io.BytesIO(save)))
    for value in values:
        if isinstance(value, dict):
            value["level"] = int(value.get("level", 0)) + 1
    out = io.BytesIO()
    for value in values:
        gdvariant.dump(value, out, framing="store-var")
    return out.getvalue()


def main() -> None:
    player: Dict[str, Any] = {"name": "Ada", "level": 3, "pos": gdvariant.Vector2(1.5, 2.0)}
    save = gdvariant.dumps(player, framing="store-var")
    again = level_up(save)
    back = gdvariant.loads(again, framing="store-var")
    pos: gdvariant.Vector2 = back["pos"]
    x: float = pos.x
    print(back["level"], x, gdvariant.to_text(back))
    try:
        gdvariant.loads(b"\x04\x00\x00\x00\xff\x00\x00\x00")
    except gdvariant.DecodeError as e:
        print(f"bad bytes at offset {e.offset}: {e}")


if __name__ == "__main__":
    main()
