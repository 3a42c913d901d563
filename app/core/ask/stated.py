"""Whether the page says what is asked *of the thing asked about*, sentence by sentence.

A page may name the thing and give a time or a code, and still not give the thing's:
the waste page names the glass container and says the red box "is emptied monthly";
the wifi page names the members' network and says where the guest password is written.
These readers find the sentences that give what is asked (a time, a value or where to
find it) and check that one of them names the thing, with the page's title and, for a
sentence that points back ("It is descaled ..."), the sentence before it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from app.core.ask.answer_kinds import ASKS_TIME, FUNCTION_WORDS, TIME, quantity_given
from app.core.ask.coverage import content_words, named_phrases, uncovered

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
_POINTS_BACK = re.compile(r"^\W*(?:it|its|they|their|this|these|those|there|then)\b", re.I)
_VERB_AFTER = frozenset(
    """open opens close closes start starts end ends happen happens cost costs weigh weighs
    pay pays""".split()
)
# The values asked by name ("the members' wifi password", "Velostal's phone number") and
# what gives one: the value itself, or where it is kept ("written on the board").
_PHONE = r"\+?\d[\d ()/-]{5,}\d"
_VALUES = {
    "password": r"[\"“][^\"”]+[\"”]",
    "passcode": r"\b\d{4,}\b",
    "pin": r"\b\d{4,}\b",
    "code": r"\b[A-Z-]*\d[A-Z0-9-]*\b",
    "phone": _PHONE,
    "telephone": _PHONE,
    "mobile": _PHONE,
    "email": r"\S+@\S+\.\w+",
    "e-mail": r"\S+@\S+\.\w+",
    "iban": r"\b[A-Z]{2}\d{2}[A-Z0-9 ]{10,}\b",
}
_ASKING = frozenset("what whats where who how which tell know need s please".split())
_SHOWN = frozenset("phone telephone mobile email e-mail iban".split())  # a value is enough
_ASKS_VALUE = re.compile(  # "phone" as in "phone calls" or "phone booth" names no value
    rf"\b({'|'.join(_VALUES)})\b(?!\s+(?:calls?|booths?|chargers?|cases?|signal|of conduct)\b)",
    re.I,
)
_YES_NO = re.compile(r"^\W*(?:do|does|did|is|are|can|could|should|will|must|may|how)\b", re.I)
_KEPT = re.compile(
    r"\b(?:written|posted|pinned|displayed|shown|printed|listed|sent|handed|ask|call|contact)\b",
    re.I,
)
# words before a value's name that do not make it another one ("the password", "a new PIN")
_PLAIN = frozenset("a an the your our my their his her its this that new own same".split())

Gives = Callable[[str, str], bool]  # (the sentence, with the one it points back to)


def _giving(page: Sequence[str], gives: Gives) -> list[str | None]:
    """The sentences of the page that give what is asked, each with the one before when
    it points back to it; None for one cut off by the passage's start ("next door is
    heated on ..."), whose subject is in a passage not read."""
    found: list[str | None] = []
    for text in page:
        sentences = [s for s in _SENTENCE.split(text.strip()) if s]
        for i, sentence in enumerate(sentences):
            back = i > 0 and _POINTS_BACK.match(sentence)
            said = f"{sentences[i - 1]} {sentence}" if back else sentence
            if not gives(sentence, said):
                continue
            found.append(None if i == 0 and sentence[:1].islower() else said)
    return found


def _thing(words: list[str], asked: frozenset[str]) -> list[str]:
    """The words of a phrase up to the verb that may follow it ("the glass container
    emptied", "the sauna open"), but those naming what is asked of it ("password")."""
    kept: list[str] = []
    for word in words:
        if kept and (word.endswith("ed") or word in _VERB_AFTER):
            break
        if word not in asked:
            kept.append(word)
    return kept


def _unnamed(
    question: str, title: str, giving: list[str | None], asked: frozenset[str] = frozenset()
) -> list[str]:
    """The words of the things the question names when no sentence ``giving`` what is
    asked (with the page's title) names each of them, nor most of the question's words."""
    phrases = [p for p in (_thing(n, asked) for n in named_phrases(question, True)) if p]
    if not phrases or not giving or None in giving:
        return []  # nothing named, none given (other checks say so), or one not read whole
    content = [w for w in content_words(question) if w not in asked]
    missing: set[str] = set()
    for sentence in giving:
        said = [f"{title} {sentence}"]
        left = [uncovered(words, said, {}) for words in phrases]
        if all(len(gone) < len(words) for gone, words in zip(left, phrases, strict=True)):
            return []
        if 2 * len(uncovered(content, said, {})) < len(content):  # most of what it asks:
            return []  # "when does unlabelled food get thrown out of the fridge?"
        missing.update(w for gone in left for w in gone)
    return [w for words in phrases for w in words if w in missing]


def untimed(question: str, title: str, page: Sequence[str]) -> list[str]:
    """For "when ...?": "when is the glass container emptied?" is not answered by the
    red box "emptied monthly" next to it."""
    if not ASKS_TIME.match(question):
        return []
    giving = _giving(page, lambda sentence, _: bool(TIME.search(sentence)))
    return _unnamed(question, title, giving)


def unmeasured(question: str, title: str, page: Sequence[str]) -> list[str]:
    """For a price, a weight or a measure: "how much does a cargo bike cost?" is not
    answered by the price of the bike shelter that has places for them."""
    given = quantity_given(question)
    if given is None:
        return []
    giving = _giving(page, lambda sentence, _: bool(given.search(sentence)))
    return _unnamed(question, title, giving)


def unvalued(question: str, title: str, page: Sequence[str]) -> tuple[bool, list[str]]:
    """For a password, a code or a phone number: (whether no sentence of the page gives
    one, the words of the thing whose value none gives). A sentence about another one
    does not count: where the guest password is written does not give the members' one."""
    asked = frozenset(f.lower() for f in _ASKS_VALUE.findall(question))
    if not asked or _YES_NO.match(question):  # "do I need a PIN?" asks for none
        return False, []
    value = re.compile("|".join(_VALUES[a] for a in asked), re.I)
    name = re.compile(rf"\b(?:([a-z]+)['’]?\s+)?(?:{'|'.join(asked)})\b", re.I)
    words = set(re.findall(r"[a-z]+", question.lower()))
    # what the question says of whose value it asks, besides what the page is about:
    # "members" in "the members' wifi password" on the guest wifi page
    own = words - set(re.findall(r"[a-z]+", title.lower())) - asked - FUNCTION_WORDS - _ASKING

    def gives(sentence: str, said: str) -> bool:
        named = list(name.finditer(said))
        other = own and any(m.group(1) and m.group(1).lower() not in words | _PLAIN for m in named)
        if other or not (named or asked & _SHOWN):  # a quoted name is no password
            return False
        return bool(value.search(sentence) or (named and _KEPT.search(sentence)))

    giving = _giving(page, gives)
    return not giving, _unnamed(question, title, giving, asked)


def unstated(question: str, title: str, page: Sequence[str]) -> tuple[bool, list[str]]:
    """(whether the page gives no value of the kind asked at all, the words of the thing
    whose time, price or value no sentence gives): the checks above, in turn."""
    left = untimed(question, title, page) or unmeasured(question, title, page)
    return (False, left) if left else unvalued(question, title, page)
