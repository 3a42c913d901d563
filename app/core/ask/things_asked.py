"""What a question asks about besides the kind of answer: the thing it asks exists, the
count it wants, the verb of making or owning, the doing it asks leave for.

A page about the kitchen does not say whether there is a microwave in it, nor whether
one may smoke there; a page about the pets says nothing of how many dogs live in the
building; who meets in the lounge did not build it. These readers take from an English
question what the text that answers must speak of (answer_checks compares it with the
page quoted, fact_gaps with the facts found).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.core.ask.analysis import RULE_NOUNS, STOP_WORDS
from app.core.ask.answer_kinds import (
    ASKS_PERSON,
    ASKS_TIME,
    FUNCTION_WORDS,
    NOT_FOCUS,
    WORD,
    attribute_words,
    doing_words,
    focus_words,
)
from app.core.ask.coverage import CIRCLE, named_phrases, uncovered
from app.nlp.key_terms import word_forms

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
        if word in FUNCTION_WORDS:
            break
        if len(word) >= 3 and word not in NOT_FOCUS and word not in _ANYWHERE:
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
    if not (ASKS_PERSON.match(question) or ASKS_TIME.match(question)):
        return []
    asked = [w for w in WORD.findall(question.lower()) if w in _PROVENANCE]
    if not asked:
        return []
    written = {w for t in texts for w in WORD.findall(t.lower())}
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
    skip = NOT_FOCUS | _VAGUE | CIRCLE | STOP_WORDS  # a friend coming along is who
    words = [w for w in WORD.findall(rest) if len(w) >= 3 and w not in skip]
    return list(dict.fromkeys(words))


def undone(question: str, texts: Sequence[str]) -> list[str]:
    """What a "can I ...?" question wants to do, when no text speaks of any of it."""
    wanted = wanted_doing(question)
    return wanted if wanted and len(uncovered(wanted, texts, {})) == len(wanted) else []


def asked_words(question: str) -> list[str]:
    """Every word the checks here may look up in meaning (embedded with the question)."""
    words = [*attribute_words(question), *focus_words(question), *doing_words(question)]
    words += thing_asked(question) + wanted_doing(question) + how_doing(question)
    if ASKS_PERSON.match(question):
        words += [w for phrase in named_phrases(question) for w in phrase]
    return list(dict.fromkeys(words))


# "is the fitness room wheelchair accessible?", "are the bins emptied weekly?": a yes-or-no
# question about a thing's property. What the thing is named by comes first, the
# property after it; a page about the thing that never says the property does not answer.
_PROPERTY = re.compile(
    r"^\s*(?:(?:and|so|but)\s+)?(?:is|are|was|were)\s+(?!(?:it|there|this|that|they|we|i|you)\b)"
    r"(?:(?:the|a|an|our|my|your|their)\s+)?([a-z][a-z-]*(?:\s+[a-z][a-z-]*){1,5})",
    re.I,
)
# Properties any rule speaks of in its own words: whether a thing is allowed, possible,
# open or free is said by the rule itself, not by the word.
_LOOSE_PROPERTY = frozenset(
    """allowed permitted forbidden banned prohibited ok okay possible available fine
    necessary needed required mandatory compulsory open closed free true right correct
    still already really also always ever actually""".split()
)


def property_asked(question: str, texts: Sequence[str]) -> list[str]:
    """The words after the last one the texts contain, in a yes-or-no question's phrase
    up to a function word ("is the fitness room wheelchair accessible?" -> wheelchair,
    accessible, when the page speaks of the fitness room)."""
    found = _PROPERTY.match(question)
    if found is None:
        return []
    words: list[str] = []
    for word in found.group(1).lower().replace("-", " ").split():
        if word in FUNCTION_WORDS or word in STOP_WORDS:
            break
        words.append(word)
    left = uncovered(words, texts, {})
    named = [i for i, w in enumerate(words) if w not in left]
    if not named:
        return []
    after = words[named[-1] + 1 :]
    return [w for w in after if len(w) >= 3 and w not in _LOOSE_PROPERTY and w not in NOT_FOCUS]


# "how do I book the phone booths?": the doing asked how to do, which the page must speak
# of ("how do I get rid of ..." asks nothing a page words one way).
_HOW_DO = re.compile(
    r"^\s*how (?:do|can|should|would|could|must) (?:i|we|you|one|members?)\s+"
    r"(?:\w+ly\s+)?([a-z]+)\b|"
    r"^\s*how to\s+([a-z]+)\b",
    re.I,
)


# Verbs a page answers in its own words: "how do I care for the plants?" is answered by
# "water them on Mondays".
_ANY_WAY = frozenset(
    """get find know see tell care handle deal manage treat look maintain work operate
    start stop go avoid prepare help behave act proceed""".split()
)


def how_doing(question: str) -> list[str]:
    """The verb a "how do I ...?" question asks how to do ("book"), unless a vague one."""
    found = _HOW_DO.match(question)
    word = next((g for g in found.groups() if g), "").lower() if found else ""
    skip = NOT_FOCUS | _VAGUE | STOP_WORDS | _ANY_WAY
    return [word] if len(word) >= 3 and word not in skip else []


# "what is our policy on drones?", "rules about pet birds": what the rule must be about
_RULE_ON = re.compile(
    rf"\b(?:{RULE_NOUNS}|stance)\s+"
    r"(?:on|for|about|regarding|concerning|around)\s+((?:[a-z][a-z-]*\s*){1,4})",
    re.I,
)
_UNTIL = frozenset("in at on during for with from by near inside outside after before".split())


def rule_topic(question: str) -> list[str]:
    """The words of what a rule question asks the rule to be about, up to a preposition
    ("visitors at night" -> visitors): a page of rules on other things does not answer."""
    found = _RULE_ON.search(question)
    if found is None:
        return []
    words: list[str] = []
    for word in found.group(1).lower().split():
        if word in _UNTIL:
            break
        if len(word) >= 3 and word not in STOP_WORDS and word not in NOT_FOCUS:
            words.append(word)
    return words


_OWNED = re.compile(r"\b(?:my|our|your|his|her|their)\s+([a-z][a-z-]{2,})\b", re.I)


def owned(question: str) -> list[str]:
    """What the asker's own thing is ("where can I wash my car?" -> car): a page that
    names no car, nor a word near it, does not say where."""
    words = (m.group(1).lower() for m in _OWNED.finditer(question))
    return [w for w in words if w not in STOP_WORDS and w not in NOT_FOCUS and w not in CIRCLE]
