"""Checks for the pseudo-locale ("qps"): every sentence the bot writes arrives wrapped in
⟦ ⟧, so words outside the brackets escaped translation."""

from __future__ import annotations

import re
from collections.abc import Iterable

_TAG = re.compile(r"<[^>]+>")
_WRAPPED = re.compile(r"⟦[^⟦⟧]*⟧")  # innermost first: translated values nest
_COMMAND = re.compile(r"/[A-Za-z_@\d]+")  # commands are the same in every language
_WORD = re.compile(r"[^\W\d_]{2,}")


def untranslated(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """Words of ``text`` outside any ⟦ ⟧, other than the ``allowed`` ones (member content:
    titles, options, names), HTML tags and /commands."""
    rest = _TAG.sub(" ", text)
    while (unwrapped := _WRAPPED.sub(" ", rest)) != rest:
        rest = unwrapped
    rest = _COMMAND.sub(" ", rest)
    for value in sorted(allowed, key=len, reverse=True):
        rest = rest.replace(value, " ")
    return _WORD.findall(rest)


def assert_translated(texts: Iterable[str], allowed: Iterable[str] = ()) -> None:
    allowed = list(allowed)
    escaped = {text: words for text in texts if (words := untranslated(text, allowed))}
    assert not escaped, f"member-visible words escaped translation: {escaped}"
