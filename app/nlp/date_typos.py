"""Date words typed with a typo ("yesterdy", "thrusday", "febuary", "3 dyas ago").

A date phrase is made of few words, all known: weekdays, months, units and the handful
of words that join them. A word of a phrase that is none of them and is one edit (a
letter dropped, added, changed, or two swapped; two edits for words of seven letters or
more) from exactly one of them is read as that word. The readers try this last, after
the phrase as written and spelt out, so a phrase they read never changes its reading.
/ask corrects a question's typos against the community's words before it gets here;
this is for the words of dates, which are the same in every community.
"""

from __future__ import annotations

import re

from app.nlp.date_words import MONTHS, WEEKDAYS
from app.nlp.edits import distance

_CALENDAR = [
    "january february march april may june july august september october november december",
    " ".join(WEEKDAYS),
    "yesterday today tomorrow tonight day days week weeks weekend weekends fortnight",
    "month months year years hour hours minute minutes quarter quarters",
    "ago last next this past previous coming since until before after between from",
    "through the of and end beginning start middle early late earlier later within over",
    "during christmas halloween summer winter spring autumn",
]
VOCABULARY = frozenset(" ".join(_CALENDAR).split())
LONG = 7  # words this long may be two edits off
_WORD = re.compile(r"[a-z]{3,}")
# Short forms that stand for a date word already and must be left alone: "sept", "thurs".
_SHORT = frozenset(
    [*MONTHS, "sept", *"mon tue tues wed weds thu thur thurs fri sat sun ytd mtd nye".split()]
)


def _mend_word(word: str, known: frozenset[str]) -> str:
    if word in VOCABULARY or word in known or word in _SHORT:
        return word
    most = 2 if len(word) >= LONG else 1
    near = [(distance(word, w), w) for w in VOCABULARY if abs(len(w) - len(word)) <= most]
    best = min((d for d, _ in near), default=most + 1)
    found = [w for d, w in near if d == best and d <= most]
    if len(found) > 1:  # "lats": "last" (two letters swapped), not "late"
        found = [w for w in found if sorted(w) == sorted(word)] or found
    if len(found) > 1:  # "weks": "weeks", not "week"
        found = [w for w in found if w[-1] == word[-1]] or found
    return found[0] if len(found) == 1 else word


def mend(text: str, known: frozenset[str] = frozenset()) -> str:
    """``text`` with each misspelt date word replaced by the one it is nearest to; a
    word in ``known`` (shorthand the readers spell out) is left as it is."""
    return _WORD.sub(lambda m: _mend_word(m.group(0), known), text)
