"""The generated stubs of the math classes match the library's table (like `cargo codegen --check`)."""

from __future__ import annotations

import pathlib
import subprocess
import sys


def test_math_stubs_are_fresh() -> None:
    root = pathlib.Path(__file__).resolve().parents[1]
    r = subprocess.run([sys.executable, str(root / "gen_math_stubs.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
