"""Translators' commands: ``python -m app.i18n.tools extract|update|init <lang>|compile``.

One place for what the extractor looks for, used by scripts/i18n.sh and the catalog tests.
"""

from __future__ import annotations

import os
import sys

from babel.messages.frontend import CommandLineInterface

from app.i18n.catalogs import DOMAIN, LOCALES_DIR

ROOT = LOCALES_DIR.parent.parent
# Relative to ROOT, so the template's source references read "app/...".
APP_DIR = "app"
LOCALES = "app/locales"
TEMPLATE = f"{LOCALES}/{DOMAIN}.pot"
MAPPING = "babel.cfg"
# tr(...) and ngettext(...) translate where a handler writes; the error classes, Text(...)
# and N_(...) name a sentence translated later, where it is shown.
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "tr": None,
    "ngettext": (1, 2),
    "N_": None,
    "Text": None,
    "CoordBotError": None,
    "ValidationError": None,
    "NotFoundError": None,
    "PermissionDeniedError": None,
    "ConflictError": None,
    "DateParseError": None,
}


def _keyword_args() -> list[str]:
    args = []
    for name, spec in KEYWORDS.items():
        value = name if spec is None else f"{name}:{','.join(map(str, spec))}"
        args += ["-k", value]
    return args


def command(action: str, language: str | None = None) -> list[str]:
    if action == "extract":
        return [
            "extract", "-F", MAPPING, "--no-default-keywords", *_keyword_args(),
            "--sort-by-file", "--project", "CoordinationBot", "-o", TEMPLATE, APP_DIR,
        ]  # fmt: skip
    if action == "update":
        return ["update", "-i", TEMPLATE, "-d", LOCALES, "--ignore-obsolete",
                "--no-fuzzy-matching"]  # fmt: skip
    if action == "init" and language:
        return ["init", "-i", TEMPLATE, "-d", LOCALES, "-l", language]
    if action == "compile":
        return ["compile", "-d", LOCALES, "--statistics"]
    raise SystemExit("usage: python -m app.i18n.tools extract | update | init <lang> | compile")


def main(argv: list[str]) -> None:
    action = argv[0] if argv else ""
    os.chdir(ROOT)
    CommandLineInterface().run(["pybabel", *command(action, argv[1] if len(argv) > 1 else None)])


if __name__ == "__main__":
    main(sys.argv[1:])
