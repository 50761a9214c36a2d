#!/usr/bin/env bash
# The Python package in CI: build the wheel with maturin, install it into a fresh virtualenv,
# run its tests (live Godot 4 test included: CI=true makes a missing engine a failure), and
# check the stubs (mypy --strict on the examples, stubtest against the installed module).
set -euxo pipefail
cd "$(dirname "$0")"

VENV="$(mktemp -d)/venv"
python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --upgrade pip
"$VENV/bin/pip" install --quiet "maturin>=1.5,<2" pytest hypothesis numpy mypy
# manylinux auditing (maturin's own, offline); the wheel is abi3: one for every CPython >= 3.9.
"$VENV/bin/maturin" build --release --out "$VENV/wheels"
"$VENV/bin/pip" install --quiet "$VENV"/wheels/gdvariant-*.whl
# From tests/, so that `import gdvariant` is the installed wheel, not the source folder.
(cd tests && "$VENV/bin/python" -m pytest -q -p no:cacheprovider)
"$VENV/bin/python" -m mypy --strict examples
(cd "$VENV" && "$VENV/bin/python" -m mypy.stubtest gdvariant --allowlist "$OLDPWD/stubtest-allowlist.txt")
rm -rf "$(dirname "$VENV")"
