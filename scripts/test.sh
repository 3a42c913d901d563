#!/usr/bin/env bash
# Installs the project with its dev tools into .venv and runs the whole test suite.
# Tests need PostgreSQL at 127.0.0.1:5432 (database "test"); with CI=true an unreachable
# server fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[dev]"
.venv/bin/ruff check app tests bench
.venv/bin/python -m pytest "$@"
