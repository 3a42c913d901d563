#!/usr/bin/env bash
# Translators' commands (README, "Translations"):
#   scripts/i18n.sh extract        source sentences -> app/locales/messages.pot
#   scripts/i18n.sh update         merge the template into every language's .po
#   scripts/i18n.sh init <lang>    start a new language, e.g. fr or de
#   scripts/i18n.sh compile        .po -> .mo (optional: the bot reads .po files directly)
set -euo pipefail
cd "$(dirname "$0")/.."
BABEL=".venv/bin/pybabel"
[ -x "$BABEL" ] || BABEL="pybabel"
POT=app/locales/messages.pot
# tr(...) and ngettext(...) translate in a handler; the error classes, Text(...) and N_(...)
# name a sentence that is translated later, where it is shown.
KEYWORDS=(-k tr -k "ngettext:1,2" -k N_ -k "Np_:1,2" -k Text -k CoordBotError -k ValidationError
  -k NotFoundError -k PermissionDeniedError -k ConflictError -k DateParseError)
case "${1:-}" in
  extract)
    "$BABEL" extract -F babel.cfg "${KEYWORDS[@]}" --no-default-keywords --sort-by-file \
      --project CoordinationBot --copyright-holder "CoordinationBot contributors" \
      -o "$POT" app ;;
  update)
    "$BABEL" update -i "$POT" -d app/locales --ignore-obsolete --no-fuzzy-matching ;;
  init)
    "$BABEL" init -i "$POT" -d app/locales -l "${2:?which language, e.g. fr}" ;;
  compile)
    "$BABEL" compile -d app/locales --statistics ;;
  *)
    sed -n '2,6p' "$0"; exit 2 ;;
esac
