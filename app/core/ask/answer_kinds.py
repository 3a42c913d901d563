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
- **the verb itself** for making, paying or owning ("who built ...?", "when was ...
  built?", "who paid for ...?"): looking after something is said in many words, these
  are not, so who meets in the lounge did not build it;
- **the attribute itself** for "X's Y" ("Greta's phone number", "the events team's
  budget"), and **the thing the answer is** for "what brand is ...", "which vet ...",
  "how many decibels ...": its words must be in what answers, in some form (for
  passages, close in meaning to the one quoted will do, ATTRIBUTE_NEAR). A fact
  answers "which room ...?" by placing what the question names, whatever the room's
  name, and any question naming the fact's relation ("which company supplied ...?").
- **the thing itself** for "is there a ...?", "does the gym have a ...?", "is smoking
  allowed ...?" and "which vet ...?": the page quoted must name it, or a synonym
  (answer_checks.SYNONYM_NEAR): a kitchen page with no microwave in it does not say
  there is one, a pets page names no vet; "how many X" needs a number by the X it names;
- **the doing** for "can I ...?": a page or a fact about the place that never speaks of
  smoking does not say whether one may smoke there.

English questions only: the patterns read English.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum

from app.core.ask.analysis import HOW_TO, STOP_WORDS
from app.core.ask.answers import shares_words
from app.core.ask.chatter import CHATTER
from app.core.ask.coverage import (
    CIRCLE,
    keyword_query,
    named_phrases,
    uncovered,
    unmet_quantity,
)
from app.core.graph.graph_results import AskResult
from app.core.graph.proposal_facts import is_proposal_source
from app.domain.messages import N_
from app.nlp.key_terms import word_forms

# Cosine of a word alone to the passage quoted (MiniLM, int8): "spot" is this close to the
# parking policy, "brand" (0.07) or "phone" (0.10) are not to the kitchen or supplier pages.
ATTRIBUTE_NEAR = 0.15


class Kind(Enum):
    TIME = N_("What I found gives no date or time.")
    PLACE = N_("What I found names no place.")
    NUMBER = N_("What I found gives no number.")
    PERSON = N_("What I found names no one.")
    STEPS = N_("What I found does not say how to do it.")

    @property
    def unsaid(self) -> str:
        """The sentence saying what was missing (a catalog msgid)."""
        return str(self.value)


_ASKS_TIME = re.compile(
    r"^\s*(?:(?:and|so|but)\s+)?(?:when\b|how often\b|(?:what|which) (?:time|day|date)\b|"
    r"(?:on )?which (?:days?|weekdays?|dates?|months?|evenings?|mornings?)\b)",
    re.I,
)
_HOW_IT_WORKS = re.compile(r"^\s*how (?:does|do|did) .+ work\b", re.I)  # "... solar panels work"
_TIME_ASKED = re.compile(r"\b(?:day|days|date|dates|time|times|when|schedule)\b", re.I)
_ASKS_PLACE = re.compile(
    r"^\s*(?:(?:and|so|but)\s+)?(?:where\b|in which (?:room|place|building)\b)", re.I
)
_WHAT_DOES = re.compile(r"^\s*what (?:does|do|did) .+ ([a-z]+)\W*$", re.I)
# Verbs of any doing: "what does Farid do?", "what do they have?" ask for any fact.
_ANY_VERB = frozenset("do does did have has had get make go use".split())
_ASKS_PERSON = re.compile(r"^\s*(?:who|whom)\b", re.I)
_WHO_DOES = re.compile(
    r"^\s*who(?:['’]s| is| are| will| would| can| should| could| does| do| has| did)?\s+([a-z]+)",
    re.I,
)
_ASKS_NUMBER = re.compile(
    r"\bhow (old|young|tall|high|big|large|small|far|wide|deep|heavy|fast|loud)\b", re.I
)
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
            rf"\b{_N}\s*(?:years?|yrs?)\b|"
            r"\b(?:since|built|founded|opened|installed)(?: in)? (?:1\d{3}|20\d{2})\b",
        ),
        ("tall high big large small wide deep", rf"\b{_N}{_SIZE}"),
        ("far", rf"\b{_N}(?:{_SIZE}|{_SPAN}|\s*miles?\b)"),  # "three days in advance"
        ("fast", r"\d\s*(?:mbit|mb/s|mbps|gbit|kbit|km/h|kmh|mph)"),
        ("loud", r"\d\s*(?:db|decibels?)\b"),
        ("heavy", r"\d\s*(?:kg|g|kilos?|kilograms?|grams?|tonnes?|tons?|lbs?)\b"),
    )
    for word in words.split()
}
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
_TIME = re.compile(
    r"\b(?:1\d{3}|20\d{2})\b|\d[:.]\d{2}\b|\d(?:st|nd|rd|th)\b|\d\s*(?:am|pm)\b|"
    rf"\b(?:{'|'.join(f'{_MONTHS} {_DAYS} {_TIME_WORDS}'.split())})\b",
    re.I,
)  # a year, a clock time, an ordinal day or a word of time: "Room 3" is no time
# Relations that place their subject: "located in", "meets in", "based at", "kept on".
_PLACING = frozenset("in on at located based situated near inside next behind under above".split())
_NUMBER = re.compile(r"\d")
# "Greta's phone number", "the board's meeting room": the words after the possessive.
_POSSESSIVE = re.compile(
    r"(?=\b([a-z][a-z-]*)['’]s\s+([a-z][a-z-]+(?:\s+[a-z][a-z-]+)?))", re.I
)  # a lookahead, so that "what's Kofi's favourite food" finds Kofi's after "what's"
# "what's", "it's", "who's": contractions, not possessives
_CONTRACTED = frozenset("what who where when why how that there here it he she let".split())
_WORD = re.compile(r"[a-z]+")
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
_FUNCTION = frozenset(
    """a an the and or but of to in on at by for with from into about as is are was were be
    been do does did have has had can could will would should may might must this that these
    those it its they them their we us our you your i me my he she his her him there here
    any some all each every other one ones many much more most such""".split()
)
_NOT_FOCUS = (
    _FUNCTION
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
    if _ASKS_NUMBER.search(question):
        return Kind.NUMBER
    if _ASKS_TIME.match(question) or (keyword_query(question) and _TIME_ASKED.search(question)):
        return Kind.TIME
    if _ASKS_PLACE.match(question):
        return Kind.PLACE
    if _ASKS_PERSON.match(question):
        return Kind.PERSON
    return None


def facts_give(kind: Kind, facts: Sequence[tuple[str, str, str]]) -> bool:
    """Whether some (subject, predicate, object) gives an answer of the kind."""
    if kind is Kind.PLACE:  # "meets on first Monday of the month" places nothing
        return any(
            _PLACING & set(_WORD.findall(p.lower())) and not _TIME.search(o) for _, p, o in facts
        )
    if kind is Kind.PERSON:  # "who founded the hub?" is not answered by "founded in 2019"
        return any(
            _WORD.search(o.lower()) and not _TIME.fullmatch(o.strip()) for _, _, o in facts[:1]
        )
    pattern = _NUMBER if kind is Kind.NUMBER else _TIME
    return any(pattern.search(f"{p} {o}") for _, p, o in facts)


def passages_give(kind: Kind, passages: Sequence[str], question: str = "") -> bool:
    """Passages are only checked for a number, with the unit of the measure the question
    asks ("how loud" wants decibels): the rest is too loosely written to read."""
    if kind is not Kind.NUMBER:
        return True
    measure = _ASKS_NUMBER.search(question)
    pattern = _MEASURES[measure.group(1).lower()] if measure else _NUMBER
    return any(pattern.search(p) for p in passages)


_HOW_MANY = re.compile(r"\bhow many\s+([a-z][a-z-]+)", re.I)
_COUNT = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
    r"twenty|thirty|forty|fifty|hundred|dozen|single|both)\b",
    re.I,
)
COUNT_BEFORE = 3  # words before the thing counted, where its number stands ("up to 4 visitor")


def uncounted(question: str, passages: Sequence[str]) -> bool:
    """Whether the passages name what "how many X ...?" counts but never with a number
    just before it: the pets page speaks of dogs, and of no number of them. A page that
    does not name X at all is left to the other checks ("how many ppl" of the quorum)."""
    found = _HOW_MANY.search(question)
    if found is None:
        return False
    thing = found.group(1).lower()
    forms = word_forms(thing)
    named = False
    for passage in passages:
        words = re.findall(r"[\w'-]+", passage.lower())
        for i, word in enumerate(words):
            if word_forms(word) & forms:
                named = True
                if _COUNT.search(" ".join(words[max(0, i - COUNT_BEFORE) : i])):
                    return False
    return named


def attribute_words(question: str) -> list[str]:
    """The words of what the question asks of a thing by a possessive ("Greta's phone
    number" -> phone, number), up to a stop word."""
    words: list[str] = []
    for match in _POSSESSIVE.finditer(question):
        if match.group(1).lower() in _CONTRACTED:
            continue
        for word in match.group(2).lower().replace("-", " ").split():
            if word in _FUNCTION:
                break
            if len(word) >= 3 and word not in _NOT_FOCUS:
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
    return [w for w in words if len(w) >= 3 and w not in _NOT_FOCUS]


# "is there a place to ...", "is there a way to ...": no thing named
_ANYWHERE = frozenset(
    "place places spot spots way option options possibility chance something anything".split()
)
# "is there a microwave ...?", "are there any lockers", "do we have a ladder", "does the
# gym have a treadmill": the thing whose presence is asked (an article must follow "have":
# "do we have to bring ..." asks no such thing).
_EXISTS = re.compile(
    r"\b(?:(?:is|are) there\s+(?:(?:a|an|any|some)\s+)?|"
    r"(?:do|does|did) [a-z' ]{1,40}? have\s+(?:a|an|any|some)\s+)"
    r"([a-z][a-z-]+(?:\s+[a-z][a-z-]+){0,2})|"
    r"^\s*(?:is|are)\s+([a-z][a-z-]+(?:\s+[a-z][a-z-]+)?)\s+(?:allowed|permitted|forbidden|banned)\b",
    re.I,
)  # and what a rule may allow: "is smoking allowed in the lounge?"


def thing_asked(question: str) -> list[str]:
    """The words of the thing a question asks exists ("is there a microwave in the
    kitchen?" -> microwave), up to a function word: a passage about the kitchen that
    never names one does not say there is one."""
    found = _EXISTS.search(question)
    if found is None:
        return []
    words: list[str] = []
    for word in (found.group(1) or found.group(2)).lower().replace("-", " ").split():
        if word in _FUNCTION:
            break
        if len(word) >= 3 and word not in _NOT_FOCUS and word not in _ANYWHERE:
            words.append(word)
    return words


# Verbs of making, paying and owning: "who built the lounge?" is not answered by who meets
# there, nor "when was the car park built?" by a page on parking. Looking after, running
# or managing something are said in many words ("takes care of" for "maintained by");
# these are not, so what answers must use the verb itself.
_PROVENANCE = frozenset(
    """build builds built design designs designed create creates created invent invents
    invented found founds founded establish established install installs installed paint
    paints painted buy buys bought purchase purchased pay pays paid own owns owned donate
    donated fund funds funded sponsor sponsored renovate renovated construct constructed
    sell sells sold""".split()
)


def made_left(question: str, texts: Sequence[str]) -> list[str]:
    """The verb of making, paying or owning that a "who" or "when" question asks about,
    when no text uses it ("building" is no form of "built": the texts' words are
    compared as written, the question's verb in its forms)."""
    if not (_ASKS_PERSON.match(question) or _ASKS_TIME.match(question)):
        return []
    asked = [w for w in _WORD.findall(question.lower()) if w in _PROVENANCE]
    if not asked:
        return []
    written = {w for t in texts for w in _WORD.findall(t.lower())}
    return [w for w in asked[:1] if not (word_forms(w) | _base(w)) & written]


def _base(verb: str) -> set[str]:
    """The verb's present and past forms: "paid" -> pay, pays, paid."""
    stems = {f for f in word_forms(verb) if f in _PROVENANCE}
    return {form for stem in stems for form in (stem, stem + "s", stem + "ed", stem + "d")}


# "can I smoke in the fitness room?", "am I allowed to ...", "is it ok to ...": what the
# member wants to do, which what answers must speak of; where is not it ("in the gym").
_PERMISSION = re.compile(
    r"^\s*(?:(?:and|so|but)\s+)?(?:(?:can|could|may)\s+(?!there\b)\w+|"
    r"(?:am|are)\s+(?:i|we)\s+allowed\s+to|is\s+it\s+(?:ok|okay|allowed|possible)\s+to)\b(.*)$",
    re.I,
)
_PLACE_PHRASE = re.compile(
    r"\b(?:in|on|at|inside|into|to|near|from|during|after|before)\s+"
    r"(?:(?:the|a|an|my|our|your)\s+)?[a-z-]+(?:\s+(?!with\b|for\b|and\b)[a-z-]+){0,2}",
    re.I,
)
# Verbs that say nothing of the doing itself: "can my friend come to the gym?"
_VAGUE = frozenset("come go get have put bring use do make take keep leave let also still".split())


def wanted_doing(question: str) -> list[str]:
    """The words of what a "can I ...?" question wants to do ("smoke", "party" of "have
    a party"), without where or when, the people it is for and vague verbs."""
    found = _PERMISSION.match(question)
    if found is None:
        return []
    rest = _PLACE_PHRASE.sub(" ", found.group(1).lower())
    skip = _NOT_FOCUS | _VAGUE | CIRCLE | STOP_WORDS  # a friend coming along is who
    words = [w for w in _WORD.findall(rest) if len(w) >= 3 and w not in skip]
    return list(dict.fromkeys(words))


def undone(question: str, texts: Sequence[str]) -> list[str]:
    """What a "can I ...?" question wants to do, when no text speaks of any of it."""
    wanted = wanted_doing(question)
    return wanted if wanted and len(uncovered(wanted, texts, {})) == len(wanted) else []


def which_thing(question: str) -> list[str]:
    """The kind of thing "which X ...?" asks for ("which vet is closest?" -> vet)."""
    return [] if focus_words(question, which=False) else focus_words(question)


def doing_words(question: str) -> list[str]:
    """What a "who" question asks someone does: "who looks after the laundry room?" ->
    looks (a passage naming no one who looks after anything does not answer it). A "how
    do I" question's verb is not checked: pages word a task in many ways ("complaints",
    "guests may train with a member")."""
    return _verb(_WHO_DOES.match(question), _NOT_FOCUS)


def asked_words(question: str) -> list[str]:
    """Every word the checks here may look up in meaning (embedded with the question)."""
    words = [*attribute_words(question), *focus_words(question), *doing_words(question)]
    words += thing_asked(question) + wanted_doing(question)
    if _ASKS_PERSON.match(question):
        words += [w for phrase in named_phrases(question) for w in phrase]
    return list(dict.fromkeys(words))


def facts_gap(question: str, result: AskResult) -> tuple[list[str], Kind | None]:
    """(the words asked that the facts found leave out, the kind of answer none gives).
    Only the community's own facts about what the question names count, not proposal
    titles ("bob proposed Approve the 2027 annual budget" gives no age); a path followed
    to its end answers."""
    if result.chain is not None and result.chain.complete:
        return [], None
    found = [
        (s.fact.subject, s.fact.predicate, s.fact.object)
        for s in result.relevant_facts
        if not is_proposal_source(s.fact.source)
        and shares_words(question, f"{s.fact.subject} {s.fact.object}")
    ]
    kind = asked_kind(question)
    if kind is not None and not facts_give(kind, found):
        return [], kind
    how = HOW_TO.match(question) or _HOW_IT_WORKS.match(question)
    if how and not any(_relation_asked(question, p) for _, p, _ in found):
        return [], Kind.STEPS  # "how do I reset the router?": where it is is no procedure
    texts = [" ".join(f) for f in found]
    left = unmet_quantity(question, texts)  # "how much does a new bike cost?"
    left = left or uncovered([*attribute_words(question), *_done(question)], texts, {})
    left = left or made_left(question, texts[:1])  # the fact the answer leads with
    left = left or undone(question, texts[:1])  # "can I smoke in the kitchen?"
    if not left and found and not _relation_asked(question, found[0][1]):
        # "what model is our wifi router?": the router's place is no model; "in which room
        # is the library corner?" is answered by where the corner is, whatever its name
        which = not any(_places_named(question, fact) for fact in found)
        left = uncovered(focus_words(question, which=which), texts, {})
    return left, None


def _done(question: str) -> list[str]:
    """What "what does the treasurer earn?" asks its subject does: its last word, when
    that is a verb of its own ("what does Farid do?" asks for anything he does)."""
    return _verb(_WHAT_DOES.match(question), _NOT_FOCUS | _ANY_VERB)


def _verb(found: re.Match[str] | None, skip: frozenset[str]) -> list[str]:
    """The verb a pattern caught, unless it is too short or one of ``skip``."""
    word = found.group(1).lower() if found else ""
    return [word] if len(word) >= 3 and word not in skip else []


def _places_named(question: str, fact: tuple[str, str, str]) -> bool:
    """Whether the fact places what the question names ("Library Corner located in
    Lounge" for "in which room is the library corner?")."""
    subject, predicate, place = fact
    named = shares_words(question, subject) and not shares_words(question, place)
    return named and bool(_PLACING & set(_WORD.findall(predicate.lower())))


def _relation_asked(question: str, predicate: str) -> bool:
    """Whether the question names the fact's relation ("which company supplied ...")."""
    forms = {f for w in _WORD.findall(predicate.lower()) if w not in STOP_WORDS
             for f in word_forms(w)}  # fmt: skip
    return any(word_forms(w) & forms for w in _WORD.findall(question.lower()))
