"""The Python examples of the README and of docs/python.md, run as written, so that they stay true.

A block fenced ```python no-run (one that needs a save file or a socket) is shown, not run.
"""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "docs" / "python.md"]


def blocks(page: pathlib.Path) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.M | re.S)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_examples_run(page: pathlib.Path, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = blocks(page)
    assert found, f"{page} has no Python example"
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__doc_example__"}  # one page's examples build on each other
    for code in found:
        exec(compile(code, str(page), "exec"), namespace)
