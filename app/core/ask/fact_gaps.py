"""Whether the facts found give what a question asks, beyond naming what it is about.

The facts found for "who built the lounge?" name the lounge ("Events Team meets in
Lounge"), and still do not say who built it. The facts that count are the community's
own about what the question names (not proposal titles), and they must give the kind of
answer asked for (answer_kinds), the attribute or verb asked about, a price when one is
asked for (coverage.unmet_quantity), and a procedure for "how do I ...".
"""

from __future__ import annotations

import re

from app.core.ask.analysis import HOW_TO, STOP_WORDS
from app.core.ask.answer_kinds import (
    HOW_IT_WORKS,
    NOT_FOCUS,
    PLACING,
    WORD,
    Kind,
    asked_kind,
    attribute_words,
    caught_verb,
    facts_give,
    focus_words,
)
from app.core.ask.answers import shares_words
from app.core.ask.coverage import named_phrases, uncovered, unmet_quantity
from app.core.ask.things_asked import made_left, undone
from app.core.graph.graph_answers import said_every_way
from app.core.graph.graph_results import AskResult
from app.core.graph.proposal_facts import is_proposal_source
from app.nlp.key_terms import word_forms

# the verb, before a place or purpose it may end with ("what does Dmitri do in the ...")
_WHAT_DOES = re.compile(
    r"^\s*what (?:does|do|did) .+? ([a-z]+)(?:\s+(?:in|at|for|on|with|around|here)\b.*)?\W*$",
    re.I,
)
# Verbs of any doing: "what does Farid do?", "what do they have?" ask for any fact.
_ANY_VERB = frozenset("do does did have has had get make go use".split())


def facts_gap(
    question: str, result: AskResult, words: str | None = None
) -> tuple[list[str], Kind | None]:
    """(the words asked that the facts found leave out, the kind of answer none gives).
    Only the community's own facts about what the question names count, not proposal
    titles ("bob proposed Approve the 2027 annual budget" gives no age); a path followed
    to its end answers. ``words``: the whole message, when ``question`` is its question
    clause (chatter.question_clause): what the facts must be about is read in it."""
    if result.chain is not None and result.chain.complete:
        return [], None
    found = [
        (s.fact.subject, s.fact.predicate, s.fact.object)
        for s in result.relevant_facts
        if not is_proposal_source(s.fact.source)
        and shares_words(words or question, f"{s.fact.subject} {s.fact.object}")
    ]
    kind = asked_kind(question)
    if kind is Kind.PLACE:  # "where is Room 3?" is not answered by who meets in Room 3
        found = [f for f in found if not _names_whole(question, f[2])]
    if kind is not None and not facts_give(kind, found):
        return [], kind
    how = HOW_TO.match(question) or HOW_IT_WORKS.match(question)
    if how and not any(_relation_asked(question, p) for _, p, _ in found):
        return [], Kind.STEPS  # "how do I reset the router?": where it is is no procedure
    texts = [said_every_way(" ".join(f), f[1]) for f in found]
    left = unmet_quantity(question, texts)  # "how much does a new bike cost?"
    left = left or uncovered([*attribute_words(question), *_done(question)], texts, {})
    left = left or uncovered(_rank_words(question), texts, {})  # "the vice-chair"
    if kind is Kind.PERSON:  # "who coordinates the garden watering?": the watering too
        done_to = [w for phrase in named_phrases(question, things_only=True) for w in phrase]
        left = left or uncovered(list(dict.fromkeys(done_to)), texts, {})
    left = left or made_left(question, texts[:1])  # the fact the answer leads with
    left = left or undone(question, texts[:1])  # "can I smoke in the kitchen?"
    if not left and found and not _relation_asked(question, found[0][1]):
        # "what model is our wifi router?": the router's place is no model; "in which room
        # is the library corner?" is answered by where the corner is, whatever its name
        which = not any(_places_named(question, fact) for fact in found)
        left = uncovered(focus_words(question, which=which), texts, {})
    return left, None


# Words that make a role another one: the chair's facts do not name the vice-chair.
_RANK = frozenset("vice deputy assistant former previous ex acting interim honorary".split())


def _rank_words(question: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+", question.lower()) if w in _RANK]


def _names_whole(question: str, name: str) -> bool:
    """Whether every word of ``name`` is in the question ("room 3" in "where is room 3?")."""
    asked = set(WORD.findall(question.lower())) | set(re.findall(r"\d+", question))
    words = [*WORD.findall(name.lower()), *re.findall(r"\d+", name)]
    return bool(words) and all(w in asked for w in words)


def _done(question: str) -> list[str]:
    """What "what does the treasurer earn?" asks its subject does: its last word, when
    that is a verb of its own ("what does Farid do?" asks for anything he does)."""
    return caught_verb(_WHAT_DOES.match(question), NOT_FOCUS | _ANY_VERB)


def _places_named(question: str, fact: tuple[str, str, str]) -> bool:
    """Whether the fact places what the question names ("Library Corner located in
    Lounge" for "in which room is the library corner?")."""
    subject, predicate, place = fact
    named = shares_words(question, subject) and not shares_words(question, place)
    return named and bool(PLACING & set(WORD.findall(predicate.lower())))


def _relation_asked(question: str, predicate: str) -> bool:
    """Whether the question names the fact's relation ("which company supplied ...")."""
    forms = {f for w in WORD.findall(predicate.lower()) if w not in STOP_WORDS
             for f in word_forms(w)}  # fmt: skip
    return any(word_forms(w) & forms for w in WORD.findall(question.lower()))
