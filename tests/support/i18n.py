"""Checks for the pseudo-locale ("qps"): every sentence the bot writes arrives wrapped in
⟦ ⟧, so words outside the brackets escaped translation."""

from __future__ import annotations

import re
from collections.abc import Iterable

_TAG = re.compile(r"<[^>]+>")
_WRAPPED = re.compile(r"⟦[^⟦⟧]*⟧")  # the innermost; removed until none is left (nesting)
_COMMAND = re.compile(r"/[A-Za-z_@\d]+")  # commands are the same in every language
_WORD = re.compile(r"[^\W\d_]{2,}")


def _words(text: str, allowed: Iterable[str], unwrap: bool = False) -> list[str]:
    """The words of ``text`` other than HTML tags, /commands and the ``allowed`` ones
    (member content: titles, options, names); with ``unwrap``, outside any ⟦ ⟧ too."""
    rest = _TAG.sub(" ", text)
    while unwrap and (unwrapped := _WRAPPED.sub(" ", rest)) != rest:  # nested: a date...
        rest = unwrapped
    rest = _COMMAND.sub(" ", rest)
    for value in sorted(allowed, key=len, reverse=True):
        rest = rest.replace(value, " ")
    return _WORD.findall(rest)


def untranslated(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """Words of ``text`` outside any ⟦ ⟧, other than member content, tags and /commands."""
    return _words(text, allowed, unwrap=True)


def assert_translated(texts: Iterable[str], allowed: Iterable[str] = ()) -> None:
    allowed = list(allowed)
    escaped = {text: words for text in texts if (words := untranslated(text, allowed))}
    assert not escaped, f"member-visible words escaped translation: {escaped}"


# Words English sentences are made of and Spanish, Portuguese and Russian ones are not.
_ENGLISH = frozenset(
    "the you your is are to of and for with this that has have was will be it not please "
    "here what which how can there from by an my any".split()
)


def english_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """English function words in ``text`` outside member content, tags and /commands."""
    return [word for word in _words(text, allowed) if word.casefold() in _ENGLISH]


def assert_no_english(texts: Iterable[str], allowed: Iterable[str] = ()) -> None:
    """No text reads as an English sentence (two or more English function words)."""
    allowed = list(allowed)
    english = {text: words for text in texts if len(words := english_words(text, allowed)) > 1}
    assert not english, f"English in a translated conversation: {english}"
