"""The translation catalogs are complete and safe to fill in, for every language."""

from __future__ import annotations

import ast
import io
import re
import string
from collections import Counter

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from app.i18n import available_languages
from app.i18n.catalogs import LOCALES_DIR, PSEUDO, compile_po, normalize, wrap
from app.i18n.tools import KEYWORDS, ROOT

TRANSLATED = [language for language in available_languages() if language != "en"]
_TAG = re.compile(r"</?(b|i|u|s|a|code|pre|blockquote)\b[^>]*>")


def _code_messages() -> dict[str | tuple[str, ...], list[str]]:
    found: dict[str | tuple[str, ...], list[str]] = {}
    method_map = [("**.py", "python")]
    for filename, lineno, message, _comments, _context in extract_from_dir(
        ROOT / "app", method_map, keywords=KEYWORDS
    ):
        found.setdefault(message, []).append(f"{filename}:{lineno}")
    return found


CODE = _code_messages()


def _catalog(language: str):  # type: ignore[no-untyped-def]
    with (LOCALES_DIR / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=language)


def _fields(text: str) -> Counter[str]:
    return Counter(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def _tags(text: str) -> Counter[str]:
    return Counter(_TAG.findall(text))


def test_every_sentence_in_code_is_a_literal_with_named_placeholders() -> None:
    for message, where in CODE.items():
        parts = message if isinstance(message, tuple) else (message,)
        assert all(parts), f"an f-string or a variable where a literal must be: {where}"
        for part in parts:
            assert "" not in _fields(part) and not any(f.isdigit() for f in _fields(part)), (
                f"positional placeholder in {part!r} ({where}): name it"
            )


def _literal_calls() -> list[tuple[str, str]]:
    """Every call in app/ that names a sentence by a literal (tr("..."), N_("..."), errors),
    found by the AST, which sees nested calls the extractor skips."""
    found = []
    for path in (ROOT / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            first = node.args[0]
            if (
                name in KEYWORDS
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
            ):
                found.append((first.value, f"{path.relative_to(ROOT)}:{node.lineno}"))
    return found


def test_the_extractor_sees_every_sentence_the_code_names() -> None:
    extracted = {m if isinstance(m, str) else m[0] for m in CODE}
    unseen = [where for text, where in _literal_calls() if text not in extracted]
    assert not unseen, f"compute these in a statement of their own: {unseen}"


def test_the_template_lists_exactly_the_sentences_in_code() -> None:
    with (LOCALES_DIR / "messages.pot").open("rb") as handle:
        template = {m.id for m in read_po(handle) if m.id}
    missing = {m for m in CODE if m not in template}
    stale = {m for m in template if m not in CODE}
    assert not missing and not stale, (
        f"run scripts/i18n.sh extract && scripts/i18n.sh update: "
        f"missing {sorted(map(str, missing))[:5]}, stale {sorted(map(str, stale))[:5]}"
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_sentence_is_translated_with_the_same_placeholders_and_markup(
    language: str,
) -> None:
    catalog = _catalog(language)
    plurals = catalog.num_plurals
    problems = []
    for message_id in CODE:
        message = catalog.get(message_id)
        if message is None:
            problems.append(f"missing: {message_id!r}")
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {message_id!r}")
        sources = message_id if isinstance(message_id, tuple) else (message_id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if isinstance(message_id, tuple) and len(forms) != plurals:
            problems.append(f"{len(forms)} plural forms, {language} has {plurals}: {message_id!r}")
        for form in forms:
            if not form:
                problems.append(f"empty: {message_id!r}")
                continue
            # Every plural form may drop {n} (Russian "один" for 1) but nothing else.
            expected = _fields(sources[-1]) | _fields(sources[0])
            extra = set(_fields(form)) - set(expected)
            lost = set(_fields(sources[0])) - set(_fields(form)) - {"n"}
            if extra or lost:
                problems.append(f"placeholders {sorted(extra | lost)} differ: {form!r}")
            if _tags(form) != _tags(sources[0]):
                problems.append(f"markup differs: {form!r}")
    assert not problems, f"{len(problems)} problems in {language}:\n" + "\n".join(problems[:20])


def test_language_tags_map_to_catalogs() -> None:
    assert normalize("pt-BR") == normalize("pt") == "pt_BR"
    assert normalize("es-419") == "es" and normalize("ru-RU") == "ru"
    assert normalize("de") is None and normalize(None) is None and normalize("") is None
    assert normalize("QPS") == PSEUDO


def test_the_pseudo_locale_wraps_each_line_and_keeps_blank_ones() -> None:
    assert wrap("One\n\nTwo {n}") == "⟦One⟧\n\n⟦Two {n}⟧"


def test_an_unfinished_catalog_shows_english_not_blanks() -> None:
    source = (
        'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "Done"\nmsgstr "Hecho"\n\n'
        '#, fuzzy\nmsgid "Cancel"\nmsgstr "Anular"\n\n'
        'msgid "Back"\nmsgstr ""\n'
    )
    catalog = compile_po(io.BytesIO(source.encode()), "es")
    assert catalog.gettext("Done") == "Hecho"
    assert catalog.gettext("Cancel") == "Cancel"  # fuzzy: not trusted
    assert catalog.gettext("Back") == "Back"  # not translated yet
