#!/usr/bin/env bash
# Translators' commands (README, "Translations"):
#   scripts/i18n.sh extract        source sentences -> app/locales/messages.pot
#   scripts/i18n.sh update         merge the template into every language's .po
#   scripts/i18n.sh init <lang>    start a new language, e.g. fr or de
#   scripts/i18n.sh compile        .po -> .mo (optional: the bot reads .po files directly)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=".venv/bin/python"
[ -x "$PYTHON" ] || PYTHON="python3"
exec "$PYTHON" -m app.i18n.tools "$@"
