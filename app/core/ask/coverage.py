"""Whether what would answer a question is about what it names, not only near it.

A passage can match an off-topic question closely enough on its other words: "where
can I park my boat?" lies near the parking policy, "what is the password for
netflix?" near the guest wifi page. One similarity threshold cannot tell these from
"is the gym open on Sundays?", which the fitness room page answers although it never
says "gym". What tells them apart is the thing the question names.

A subject word is a word of a phrase the question puts after an article, a possessive
or "for"/"about" ("the gym", "my boat", "for netflix", "the golf club"), up to the
first word the community uses; in a keyword query ("kitchen robot") every word is one.
A subject word the community's texts never use (its proposals, documents and facts)
must be in what would answer, in some form, or - for document passages - close in
meaning to the passage the answer quotes (SUBJECT_NEAR_PASSAGE: "gym" to the fitness
room page, "clothes" to the laundry room page) and then a synonym of one of its page's
words (answer_checks.SUBJECT_SYNONYM: "the orchestra" is near the music rehearsal rules,
and none of their words is an orchestra). A boat is not close to the parking
policy, so the question gets "nothing found", and the answer says which word nothing
covers.

A passage that is only loosely close (below routing.DOC_SURE) must also cover the other
words the question asks about (content_words), known to the community or not, when they
pull the question away from it: when the question as a whole is less close to the
passage than a word the passage contains (off_passage). "What do dogs eat?" is farther
from the pets page than "dogs" alone, and the page says nothing about food; "where do I
put empty wine bottles?" is closer to the waste page than its words, so "wine" need not
be there. A word asking for a quantity ("how long", "cost", "how heavy") is covered by a
quantity of its kind (a time, a price, a weight) as well as by its own forms, and a
question for a price or a weight needs one in the passage however close it is
(unmet_quantity). Facts found about another thing that shares a word do not answer: in
what the question names, the words before the first one the facts contain must be in
them too ("the football team" against the "Events Team", unnamed_modifiers).

Cost: the subject and content words are embedded in the same model call as the
question (and kept between questions), and the passages' vectors are read from the
index, so this adds no model call to an /ask.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from app.core.ask.analysis import STOP_WORDS
from app.core.ask.chatter import CHATTER
from app.core.ask.spelling import Lexicon
from app.nlp.key_terms import word_forms

SUBJECT_NEAR_PASSAGE = 0.2  # cosine of the word alone to the passage (MiniLM, int8)
PASSAGES_READ = 3
KEYWORD_QUERY = 4  # at most this many words with no question word: a keyword query
_SUBJECT = re.compile(
    r"\b(?:the|a|an|my|our|your|their|his|her|its|for|about)\s+"
    r"(?=([a-z][a-z0-9-]{2,}(?:\s+[a-z][a-z-]{2,}){0,2}))",  # "the under-12 football team"
    re.I,
)
_ASKING = re.compile(
    r"^\s*(?:who|whom|whose|what|when|where|which|why|how|is|are|was|were|do|does|did|"
    r"can|could|should|will|would|may|has|have)\b",
    re.I,
)
# Words naming a kind of text, not a subject: "sauna rules" asks about the sauna.
GENERIC = frozenset("rule rules policy policies info information details guide hours times".split())
# Words naming the community itself ("Bob's role in the association"): never a subject
# a page or a fact must name.
OURSELVES = frozenset("association community organisation organization collective".split())
_WORDS = re.compile(r"[a-z]{3,}")
# Words of the question's frame, not of what it asks about: "what happens when",
# "how does parking work", "until what time".
FRAME = frozenset(
    "happen happens happened happening work works time besides except excluding apart aside".split()
)
CONTENT_WORDS = 6  # at most this many content words are checked (and embedded)
# Past forms a passage uses for the question's verb ("a lost card" for "lose my card").
_PAST = {
    "lost": "lose", "paid": "pay", "kept": "keep", "brought": "bring", "ate": "eat",
    "came": "come", "found": "find", "left": "leave", "sent": "send", "spent": "spend",
}  # fmt: skip
_TIME = r"\d{1,2}:\d{2}|\b\d+\s*(?:min(?:ute)?s?|hours?|h|days?|weeks?|months?|years?)\b|\buntil\b"
_MONEY = r"\d\s*(?:eur|euros?|usd|gbp|chf|dollars?|pounds?)\b|[€$£]\s*\d|\d\s*[€$£]|\bfree\b"
_WEIGHT = r"\d\s*(?:kg|g|kilos?|kilograms?|grams?|tonnes?|tons?|lbs?)\b"
# A word asking for a quantity, and what in a passage gives one.
QUANTITY = {
    word: re.compile(pattern, re.I)
    for words, pattern in (
        ("long", _TIME),
        ("cost costs price prices charge charges expensive cheap free paid earn earns", _MONEY),
        ("heavy weigh weighs weight", _WEIGHT),
    )
    for word in words.split()
}


# The people in a member's life ("my brother is coming by car"): who the question is
# for, not what it is about; the pages speak of them as guests and visitors. Children
# are not among them: rules speak of them apart ("can kids use the sauna?").
CIRCLE = frozenset(
    """brother brothers sister sisters mum mom mother dad father parents friend friends
    cousin cousins partner wife husband boyfriend girlfriend colleague colleagues
    neighbour neighbours neighbor neighbors family relatives aunt uncle flatmate roommate
    housemate""".split()
)


def keyword_query(question: str) -> bool:
    """A few words with no question around them: "kitchen robot", "sauna rules"."""
    words = _WORDS.findall(question.lower())
    return 0 < len(words) <= KEYWORD_QUERY and not _ASKING.match(question) and "?" not in question


def subjects(question: str, lexicon: Lexicon) -> list[str]:
    """What the question names that must be covered by what answers it: in a keyword
    query, every word ("kitchen robot"); otherwise the foreign subject words."""
    if keyword_query(question):
        words = [w for w in _WORDS.findall(question.lower()) if w not in STOP_WORDS]
        return [w for w in dict.fromkeys(words) if w not in CHATTER and w not in GENERIC]
    return foreign_subjects(question, lexicon)


def content_words(question: str, already: Sequence[str] = ()) -> list[str]:
    """The words the question asks about, besides the ``already`` named ones: every word
    that is no stop word, no conversation and no frame ("dogs", "eat")."""
    skip = {*STOP_WORDS, *CHATTER, *GENERIC, *FRAME, *CIRCLE, *OURSELVES, *already}
    words = [w for w in _WORDS.findall(question.lower()) if w not in skip]
    return list(dict.fromkeys(words))[:CONTENT_WORDS]


def named_phrases(question: str, things_only: bool = False) -> list[list[str]]:
    """The content words of each phrase the question puts after an article, a
    possessive or "for"/"about", known or not: "the football team" -> football, team.
    ``things_only``: not after "for"/"about" (what "about wifi trouble" is about).
    A person of the asker's circle is who, not what: "a friend come train" names none."""
    skip = {*STOP_WORDS, *CHATTER, *GENERIC, *FRAME, *OURSELVES}
    found = _SUBJECT.finditer(question)
    phrases = (
        m.group(1).lower().replace("-", " ").split()
        for m in found
        if not (things_only and m.group(0).split()[0].lower() in ("for", "about"))
    )
    return [
        [w for w in words if len(w) >= 3 and w not in skip]
        for words in phrases
        if words[0] not in CIRCLE
    ]


def unnamed_modifiers(question: str, answers: Sequence[str], headed: bool = False) -> list[str]:
    """The words before the first word the answers contain, in each phrase the question
    names: "football" of "the football team" when the facts are about the "Events Team".
    Words after it may be a verb ("the board get together"), and are not read.
    ``headed``: only in phrases of things whose last word the answers contain ("the music
    rehearsal room" on the event room's page), not in what one asks "about"."""
    left: list[str] = []
    for words in named_phrases(question, things_only=headed):
        missing = uncovered(words, answers, {})
        if headed and (len(words) < 2 or words[-1] in missing):
            continue
        for word in words:
            if word not in missing:
                break
            left.append(word)
    return list(dict.fromkeys(left))


def foreign_subjects(question: str, lexicon: Lexicon) -> list[str]:
    """The subject words of the question that none of the community's texts contain."""
    found = []
    for match in _SUBJECT.finditer(question):
        # "the golf club", "the national election": the phrase's foreign words up to the
        # first known one; a word after a known one may be a verb ("the budget plan for")
        for word in match.group(1).lower().replace("-", " ").split():
            if len(word) < 3:  # "co" of "co-working"
                continue
            if word in STOP_WORDS or word in CIRCLE or lexicon.contains(word):
                break  # after "a friend", a verb: "can a friend come train with me?"
            found.append(word)
    return list(dict.fromkeys(found))


def uncovered(
    words: Sequence[str],
    answers: Sequence[str],
    word_vectors: dict[str, np.ndarray],
    answer_vectors: Sequence[np.ndarray] = (),
    near: float = SUBJECT_NEAR_PASSAGE,
) -> list[str]:
    """The words none of the answering texts (passages, facts, manual entries) contains
    in any form or, given their vectors, is about in meaning (``near``: the cosine of a
    word alone to a text that counts as about it)."""
    texts = answers[:PASSAGES_READ]
    present = {f for t in texts for w in _WORDS.findall(t.lower()) for f in _forms(w)}
    left = [
        w
        for w in words
        if not word_forms(w) & present
        and not (w in QUANTITY and any(QUANTITY[w].search(t) for t in texts))
    ]
    if not left or not answer_vectors:
        return left
    matrix = np.stack([np.asarray(v, dtype=np.float32) for v in answer_vectors[:PASSAGES_READ]])
    return [
        w for w in left if w not in word_vectors or float(np.max(matrix @ word_vectors[w])) < near
    ]


# A question asking for a price or a weight, by the word that asks ("how much does a new
# kitchen cost?", "how heavy is the dryer?"): what answers it must give one.
_ASKS_QUANTITY = re.compile(
    r"\b(?:how much\b.*\b(cost|costs|price|charge|charges|paid|earn|earns)|how (expensive|cheap)|"
    r"what (?:does|do|did|will|would) .{1,60}\b(cost)|how (heavy)|(weigh|weighs)\b|"
    r"(cost|costs|charge) (?:anything|money|extra)\b|^\s*(?:is|are)\b.{1,60}\b(free)"
    r"(?: to use| of charge)?\W*$)",
    re.I,
)  # "does the workshop cost anything?", "is the sauna free to use?"


# "how much did the dryer cost?" asks what was paid for it: the price of a use ("a dry
# costs 1.50 EUR") is no answer; a text saying what was bought, paid or quoted is.
_PRICE_PAID = re.compile(
    r"\b(?:how much|what) (?:did|was|were|had) .{1,60}\b(cost|paid|spent|pay)\b", re.I
)
_PAID = re.compile(
    r"\b(?:bought|purchased|spent|cost|price[ds]?|quoted?|quotes|invoice[ds]?|budget(?:ed)?|"
    r"total|price of|paid (?:for|about|around|\d|[€$£])|"
    r"for (?:about |around )?(?:[€$£]\s*)?\d)(?![a-z])",
    re.I,
)  # "paid with tokens" is how a use is paid
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def quantity_asked(question: str) -> str | None:
    """The word asking for a price or a weight ("cost", "heavy"), a key of QUANTITY."""
    asked = _ASKS_QUANTITY.search(question)
    return next(g for g in asked.groups() if g).lower() if asked else None


def unmet_quantity(question: str, answers: Sequence[str]) -> list[str]:
    """The word asking for a price or a weight when no answering text gives one (for
    a price paid, one a text says was paid)."""
    word = quantity_asked(question)
    if word is None:
        return []
    texts = answers[:PASSAGES_READ]
    if _PRICE_PAID.search(question):  # a sentence saying what was paid, with its amount
        texts = [s for t in texts for s in _SENTENCE.split(t) if _PAID.search(s)]
    return [] if any(QUANTITY[word].search(t) for t in texts) else [word]


def off_passage(
    words: Sequence[str],
    answers: Sequence[str],
    word_vectors: dict[str, np.ndarray],
    answer_vectors: Sequence[np.ndarray],
    similarity: float,
) -> list[str]:
    """The words a loosely matching passage does not cover, when they pull the question
    away from it: the question as a whole (``similarity``) is less close to the passage
    than a word the passage contains. "What do dogs eat?" is farther from the pets page than
    "dogs" alone, "where do I put empty wine bottles?" is closer to the waste page than
    "bottles" alone."""
    in_form = set(words) - set(uncovered(words, answers, {}))  # not only close in meaning
    if not in_form:  # a loose match on none of its words: "our policy on time travel"
        return list(words)
    left = uncovered(words, answers, word_vectors, answer_vectors)
    if not left or not answer_vectors:
        return []
    passage = np.asarray(answer_vectors[0], dtype=np.float32)
    closest = [float(passage @ word_vectors[w]) for w in in_form if w in word_vectors]
    return left if closest and max(closest) > similarity else []


def _forms(word: str) -> frozenset[str]:
    return word_forms(word) | word_forms(_PAST[word]) if word in _PAST else word_forms(word)
