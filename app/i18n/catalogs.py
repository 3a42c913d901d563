"""The gettext catalogs under app/locales, loaded from their .po files.

The .po files are the source of truth and the only thing translators edit; they are
compiled in memory when a language is first used, so a fresh clone needs no build step
(``pybabel compile`` still works for tools that want .mo files). Fuzzy and empty entries
are left out, so an unfinished translation shows the English sentence, never a blank.
"""

from __future__ import annotations

import gettext
import io
import logging
from functools import cache
from pathlib import Path
from typing import BinaryIO

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

logger = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "messages"
SOURCE_LANGUAGE = "en"
# A pseudo-locale for tests: every sentence wrapped, so an untranslated one stands out.
PSEUDO = "qps"


@cache
def available_languages() -> tuple[str, ...]:
    """The languages with a catalog, English first."""
    found = sorted(
        path.parent.parent.name for path in LOCALES_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")
    )
    rest = [code for code in found if code != SOURCE_LANGUAGE]
    return (SOURCE_LANGUAGE, *rest)


def normalize(code: str | None) -> str | None:
    """The catalog for an IETF tag such as Telegram's ``language_code``, or None.

    "pt-br" and "pt" read Brazilian Portuguese, "es-419" Spanish, "ru" Russian: the
    exact tag first, then any catalog of the same base language.
    """
    if not code:
        return None
    tag = code.strip().replace("-", "_")
    if tag.lower() == PSEUDO:
        return PSEUDO
    languages = available_languages()
    by_lower = {language.lower(): language for language in languages}
    if tag.lower() in by_lower:
        return by_lower[tag.lower()]
    base = tag.split("_")[0].lower()
    for language in languages:
        if language.split("_")[0].lower() == base:
            return language
    return None


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (NullTranslations for English or none)."""
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    path = LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as handle:
        return compile_po(handle, language)


@cache
def sentences(language: str) -> tuple[str, ...]:
    """Every sentence of ``language``'s catalog (the template's for English): a small
    corpus of the language, e.g. to tell its common words from its rare ones."""
    path = LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if language == SOURCE_LANGUAGE or not path.exists():
        path = LOCALES_DIR / f"{DOMAIN}.pot"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=None if path.suffix == ".pot" else language)
    out: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        text = message.string if path.suffix == ".po" else message.id
        forms = text if isinstance(text, (tuple, list)) else (text,)
        out += [str(form) for form in forms if form]
    return tuple(out)


def compile_po(source: BinaryIO, language: str) -> gettext.GNUTranslations:
    """A .po file as gettext reads it; fuzzy and empty entries fall back to English."""
    catalog = read_po(source, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


class PseudoTranslations(gettext.NullTranslations):
    """Wraps every sentence in ⟦ ⟧, keeping its placeholders, markup and line breaks."""

    def gettext(self, message: str) -> str:
        return wrap(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return wrap(msgid1 if n == 1 else msgid2)


def wrap(message: str) -> str:
    return "\n".join(f"⟦{line}⟧" if line.strip() else line for line in message.split("\n"))
