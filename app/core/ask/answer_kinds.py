"""Whether what was found is the kind of answer the question asks for.

A question can find something about the very thing it names and still go unanswered:
"when was Alice born?" finds the committee Alice sits on, "how old is Bob?" finds his
role, "what is Greta's phone number?" the proposals she made. The form of the question
says what kind of answer it wants, and what was found must give one:

- **a time** for "when ..." and "how often ..." (a year, a month, a weekday, a clock
  time, "every ...", "monthly"), in the facts that would answer (a passage answering
  "when" almost always holds some time, so passages are not checked for it);
- **a place** for "where ..." in the facts: a relation that places something ("located
  in", "meets in", "based at"); "Bike Cellar maintained by Hugo" says nothing of where
  Hugo lives;
- **a number** for "how old / tall / big / far / loud ...", in facts and passages alike;
  in passages with the measure's unit (years, metres, decibels: the quiet hours' clock
  times say nothing of how loud the rehearsal room is);
- **someone** for "who ...": the fact the answer leads with does not end in a year or a
  number ("who founded the hub?" is not answered by "founded in 2019"); a passage must
  speak of the doing asked about ("who looks after the laundry room?");
- **the attribute itself** for "X's Y" ("Greta's phone number", "the events team's
  budget"), and **the thing the answer is** for "what brand is ...", "which vet ...",
  "how many decibels ...": its words must be in what answers, in some form (for
  passages, close in meaning to the one quoted will do, ATTRIBUTE_NEAR). A fact
  answers "which room ...?" by placing what the question names, whatever the room's
  name, and any question naming the fact's relation ("which company supplied ...?").

The things a question asks about besides the kind of answer (the thing asked to exist,
the count, the verb of making or owning, the doing asked leave for) are read in
things_asked; fact_gaps checks the facts found against all of it.

English questions only: the patterns read English.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum

from app.core.ask.chatter import CHATTER
from app.core.ask.coverage import QUANTITY, keyword_query, quantity_asked
from app.domain.messages import N_

# Cosine of a word alone to the passage quoted (MiniLM, int8): "spot" is this close to the
# parking policy, "brand" (0.07) or "phone" (0.10) are not to the kitchen or supplier pages.
ATTRIBUTE_NEAR = 0.15


class Kind(Enum):
    TIME = N_("What I found gives no date or time.")
    PLACE = N_("What I found names no place.")
    NUMBER = N_("What I found gives no number.")
    PERSON = N_("What I found names no one.")
    STEPS = N_("What I found does not say how to do it.")
    VALUE = N_("What I found does not give the code or number you asked for.")

    @property
    def unsaid(self) -> str:
        """The sentence saying what was missing (a catalog msgid)."""
        return str(self.value)


ASKS_TIME = re.compile(
    r"^\s*(?:(?:and|so|but)\s+)?(?:when\b|how often\b|(?:what|which) (?:time|day|date)\b|"
    r"(?:on )?which (?:days?|weekdays?|dates?|months?|evenings?|mornings?)\b)",
    re.I,
)
# "how do solar panels work?", "how do solar panels generate electricity?": a process
HOW_IT_WORKS = re.compile(r"^\s*how (?:does|do|did) (?!(?:i|we|you|one)\b)[a-z]", re.I)
_TIME_ASKED = re.compile(r"\b(?:day|days|date|dates|time|times|when|schedule)\b", re.I)
_ASKS_PLACE = re.compile(
    r"^\s*(?:(?:and|so|but)\s+)?(?:where\b|in which (?:room|place|building)\b)", re.I
)
ASKS_PERSON = re.compile(r"^\s*(?:who|whom)\b", re.I)
_WHO_DOES = re.compile(
    r"^\s*who(?:['’]s| is| are| will| would| can| should| could| does| do| has| did)?\s+([a-z]+)",
    re.I,
)
_ASKS_NUMBER = re.compile(
    r"\bhow (old|young|tall|high|big|large|small|far|wide|deep|heavy|fast|loud|warm|hot|cold)\b",
    re.I,
)
# Measures asked by their noun: "what temperature ...", "minimum age for the sauna?"
_ASKS_MEASURE = (
    (re.compile(r"\btemperatures?\b|\bdegrees\b", re.I), "warm"),
    (re.compile(r"\b(?:(?:minimum|maximum|min|max|what|which) age|age (?:limit|restriction)s?)\b",
                re.I), "old"),
)  # fmt: skip
# What a passage must give for each measure asked ("how old is the coffee machine?" is
# not answered by "about 60 people"): a number with its unit.
_N = r"(?:\d[\d.,]*|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|fifty|hundred)"
_SIZE = (
    r"\s*(?:m|cm|mm|km|metres?|meters?|ft|feet|inch(?:es)?|m2|m²|sq|square|"
    r"people|persons|seats|places|spaces|floors?)\b"
)
_SPAN = r"\s*(?:min(?:ute)?s?|hours?|days?|weeks?|months?)\b"
_MEASURES = {
    word: re.compile(pattern, re.I)
    for words, pattern in (
        (
            "old young",
            rf"\b{_N}\s*(?:years?|yrs?)\b|\b(?:under|over|aged|above|below)\s+\d{{1,2}}\b|"
            r"\b(?:since|built|founded|opened|installed)(?: in)? (?:1\d{3}|20\d{2})\b",
        ),
        ("tall high big large small wide deep", rf"\b{_N}{_SIZE}"),
        ("far", rf"\b{_N}(?:{_SIZE}|{_SPAN}|\s*miles?\b)"),  # "three days in advance"
        ("fast", r"\d\s*(?:mbit|mb/s|mbps|gbit|kbit|km/h|kmh|mph)"),
        ("loud", r"\d\s*(?:db|decibels?)\b"),
        ("warm hot cold", r"\d\s*(?:°|º|degrees?\b)"),
    )
    for word in words.split()
} | {"heavy": QUANTITY["heavy"]}  # a weight, as coverage reads one
_MONTHS = (
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
)
_DAYS = "monday tuesday wednesday thursday friday saturday sunday weekday weekdays weekend weekends"
_TIME_WORDS = (
    "daily weekly monthly yearly annually annual every morning mornings afternoon evening "
    "evenings night nights noon midnight today tomorrow tonight spring summer autumn fall "
    "winter week weeks month months year years christmas easter holiday holidays"
)
TIME = re.compile(
    r"\b(?:1\d{3}|20\d{2})\b|\d[:.]\d{2}\b|\d(?:st|nd|rd|th)\b|\d\s*(?:am|pm)\b|"
    rf"\b(?:{'|'.join(f'{_MONTHS} {_DAYS} {_TIME_WORDS}'.split())})\b",
    re.I,
)  # a year, a clock time, an ordinal day or a word of time: "Room 3" is no time
# Relations that place their subject: "located in", "meets in", "based at", "kept on".
PLACING = frozenset("in on at located based situated near inside next behind under above".split())
_NUMBER = re.compile(r"\d")
# "Greta's phone number", "the board's meeting room": the words after the possessive.
_POSSESSIVE = re.compile(
    r"(?=\b([a-z][a-z-]*)['’]s\s+([a-z][a-z-]+(?:\s+[a-z][a-z-]+)?))", re.I
)  # a lookahead, so that "what's Kofi's favourite food" finds Kofi's after "what's"
# "what's", "it's", "who's": contractions, not possessives
_CONTRACTED = frozenset("what who where when why how that there here it he she let".split())
WORD = re.compile(r"[a-z]+")
_NOUNS = r"([a-z][a-z-]+(?:\s+(?:and\s+)?[a-z][a-z-]+){0,2})"  # "brand and model"
_FOCUS = re.compile(
    r"^\s*(?:(?:at|in|on|from|to|with|for|by)\s+)?(?:"
    rf"(?:what|which)\s+{_NOUNS}\s+(?:is|are|was|were|do|does|did|can|could|should|will|"
    r"would|has|have)\b|which\s+([a-z][a-z-]+)|how many\s+([a-z][a-z-]+)|"
    r"what(?:['’]s|s| is| are| was)\s+(?:the|a|an|our|your|my)\s+"
    rf"{_NOUNS}\s+(?:of|for|on|at|to|in)\b)",
    re.I,
)
# Words that ask for something any rule can give: "what time", "which days", "the rule for".
FUNCTION_WORDS = frozenset(
    """a an the and or but of to in on at by for with from into about as is are was were be
    been do does did have has had can could will would should may might must this that these
    those it its they them their we us our you your i me my he she his her him there here
    any some all each every other one ones many much more most such""".split()
)
NOT_FOCUS = (
    FUNCTION_WORDS
    | CHATTER
    | frozenset(
        """name names kind type sort way ways thing things best rule rules policy policies info
    information details time times day days date dates hour hours year years week weeks
    month months happens happen difference point reason procedure process steps each every
    all some any other role roles job jobs position title function proposal proposals poll
    polls vote votes one ones""".split()
    )
)


def asked_kind(question: str) -> Kind | None:
    """The kind of answer the question's form asks for, if it asks for one ("green
    committee meeting day": a keyword query naming a time asks for one)."""
    if _measure(question):
        return Kind.NUMBER
    if ASKS_TIME.match(question) or (keyword_query(question) and _TIME_ASKED.search(question)):
        return Kind.TIME
    if _ASKS_PLACE.match(question):
        return Kind.PLACE
    if ASKS_PERSON.match(question):
        return Kind.PERSON
    return None


def _measure(question: str) -> str | None:
    """The measure a question asks ("how loud" -> loud, "what temperature" -> warm)."""
    asked = _ASKS_NUMBER.search(question)
    if asked:
        return asked.group(1).lower()
    return next((m for pattern, m in _ASKS_MEASURE if pattern.search(question)), None)


def quantity_given(question: str) -> re.Pattern[str] | None:
    """What a sentence giving the quantity asked for contains (a price for "how much
    does it cost", decibels for "how loud"), or None when the question asks for none."""
    measure = _measure(question)
    if measure:
        return _MEASURES[measure]
    word = quantity_asked(question)
    return QUANTITY[word] if word else None


def facts_give(kind: Kind, facts: Sequence[tuple[str, str, str]]) -> bool:
    """Whether some (subject, predicate, object) gives an answer of the kind."""
    if kind is Kind.PLACE:  # "meets on first Monday of the month" places nothing
        return any(
            PLACING & set(WORD.findall(p.lower())) and not TIME.search(o) for _, p, o in facts
        )
    if kind is Kind.PERSON:  # "who founded the hub?" is not answered by "founded in 2019"
        return any(
            WORD.search(o.lower()) and not TIME.fullmatch(o.strip()) for _, _, o in facts[:1]
        )
    pattern = _NUMBER if kind is Kind.NUMBER else TIME
    return any(pattern.search(f"{p} {o}") for _, p, o in facts)


def passages_give(kind: Kind, passages: Sequence[str], question: str = "") -> bool:
    """Passages are only checked for a number, with the unit of the measure the question
    asks ("how loud" wants decibels): the rest is too loosely written to read."""
    if kind is not Kind.NUMBER:
        return True
    measure = _measure(question)
    pattern = _MEASURES[measure] if measure else _NUMBER
    return any(pattern.search(p) for p in passages)


def attribute_words(question: str) -> list[str]:
    """The words of what the question asks of a thing by a possessive ("Greta's phone
    number" -> phone, number), up to a stop word."""
    words: list[str] = []
    for match in _POSSESSIVE.finditer(question):
        if match.group(1).lower() in _CONTRACTED:
            continue
        for word in match.group(2).lower().replace("-", " ").split():
            if word in FUNCTION_WORDS:
                break
            if len(word) >= 3 and word not in NOT_FOCUS:
                words.append(word)
    return list(dict.fromkeys(words))


def focus_words(question: str, which: bool = True) -> list[str]:
    """The words naming what the answer is ("what brand is the dishwasher?" -> brand,
    "what's the phone number of Velostal?" -> phone, number, "how many decibels ..."):
    a passage that never mentions it, in any form or in meaning, cannot give one."""
    found = _FOCUS.match(question)
    if found is None or (not which and re.search(r"\bwhich\b", found.group(0), re.I)):
        return []  # without ``which``: "which room" names a kind of thing, not an attribute
    phrase = next(g for g in found.groups() if g)
    words = phrase.lower().replace("-", " ").split()
    return [w for w in words if len(w) >= 3 and w not in NOT_FOCUS]


def which_thing(question: str) -> list[str]:
    """The kind of thing "which X ...?" asks for ("which vet is closest?" -> vet)."""
    return [] if focus_words(question, which=False) else focus_words(question)


def doing_words(question: str) -> list[str]:
    """What a "who" question asks someone does: "who looks after the laundry room?" ->
    looks (a passage naming no one who looks after anything does not answer it). A "how
    do I" question's verb is not checked: pages word a task in many ways ("complaints",
    "guests may train with a member")."""
    return caught_verb(_WHO_DOES.match(question), NOT_FOCUS)


def caught_verb(found: re.Match[str] | None, skip: frozenset[str]) -> list[str]:
    """The verb a pattern caught, unless it is too short or one of ``skip``."""
    word = found.group(1).lower() if found else ""
    return [word] if len(word) >= 3 and word not in skip else []
