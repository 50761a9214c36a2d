"""Shared test helpers: where the repository's engine fixtures are, and how to read them."""

from __future__ import annotations

import json
import pathlib
from typing import Any, Dict, Iterator, List, Tuple

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"

# Each corpus folder, the engine that wrote it and its dialect (tests/fixtures/*/README.md).
CORPORA = [("godot3", "godot3", "3.2.3"), ("godot4", "godot4", "4.3"), ("godot4.4", "godot4", "4.4.1")]


def manifest(folder: pathlib.Path) -> List[Dict[str, Any]]:
    """The rows of a fixture folder's manifest.jsonl."""
    with open(folder / "manifest.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def engine_fixtures() -> Iterator[Tuple[str, str, str, Dict[str, Any], bytes, bytes]]:
    """Every engine-made fixture: (id, dialect, version, row, bytes, what a clean encoder writes)."""
    for folder, dialect, version in CORPORA:
        for row in manifest(FIXTURES / folder):
            path = FIXTURES / folder / f"{row['name']}.bin"
            data = path.read_bytes()
            zeroed = FIXTURES / folder / f"{row['name']}.zeroed.bin"
            expected = zeroed.read_bytes() if zeroed.exists() else data
            yield f"{folder}/{row['name']}", dialect, row.get("engine_version", version), row, data, expected


@pytest.fixture(scope="session")
def repo() -> pathlib.Path:
    """The repository's root."""
    return REPO
