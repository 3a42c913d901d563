#!/usr/bin/env bash
# Installs the project into .venv, migrates the database and starts the bot (polling).
# Needs TELEGRAM_BOT_TOKEN (and usually TARGET_CHANNEL_ID) in the environment or in .env.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
exec .venv/bin/coordbot run "$@"
