"""Fact questions the graph's own reading misses: loose names, the kind of answer asked for.

The graph answers by exact names and the relations it recognises. Members ask more
loosely, in three ways this module handles before the answer is chosen:

- **A name in part.** "Who manages the garden?" names "Community Garden" by one of its
  words. When the question names no entity in full, a word that belongs to exactly one
  multi-word entity stands for it, and the graph is asked again with the whole name.
- **The kind of answer.** "On which floor is the wifi router?": the facts say the router
  is in the server closet, which is not a floor. When the question asks "which <kind>"
  and the answer found is not one, one more step from it to a neighbour of that kind
  ("Server Closet located on Floor 2") answers it.
- **A role for a person.** "Who holds the master keys?": the security officer does, and
  "Dmitri is Security Officer". A "who" question whose answer is a role someone "is"
  gets that someone.

Each extra step is kept as a path (multihop.ContextStore), so "How I found this" says
that the connections were followed, from where.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Protocol

from app.core.ask.analysis import STOP_WORDS
from app.core.ask.spelling import Lexicon
from app.core.graph.graph_answers import relevance
from app.core.graph.graph_results import AskResult, ExploreResult, ScoredFact
from app.core.graph.multihop import ContextStore, Hop, HopStep
from app.domain.errors import ValidationError
from app.nlp.key_terms import normalize, word_forms
from app.persistence.repositories.facts import Fact

_WORD = re.compile(r"[a-z0-9]+")
_KIND = re.compile(r"\b(?:which|what)\s+([a-z]{3,})\b", re.I)
_WHO = re.compile(r"^\s*(?:who|whom)\b", re.I)
MIN_LOOSE = 4  # a word this long may stand for the one entity it belongs to
NEIGHBOURS = 50
# "which way", "what time": kinds no entity's name is made of.
NOT_KINDS = frozenset("time times way kind sort type day days date year month".split())


class Graph(Protocol):
    async def ask_question(
        self, question: object, context: object = None, max_results: object = None
    ) -> AskResult: ...

    async def explore_connections(
        self, entity: str, max_depth: object = 2, limit: object = None
    ) -> ExploreResult: ...


async def ask(
    graph: Graph, question: str, lexicon: Callable[[], Awaitable[Lexicon]], limit: int
) -> AskResult | None:
    """The graph's answer; asked again with whole names when the question names an
    entity by one of its words, and taken one step further when the answer is not the
    kind the question asks for. None when the question has nothing to look up."""
    result = await _ask(graph, question, limit)
    if not _complete(result):
        whole = with_whole_names(question, await lexicon())
        loose = await _ask(graph, whole, limit) if whole else None
        if loose is not None and (_complete(loose) or _strength(loose) > _strength(result)):
            result = loose
    if result is not None:
        result = await one_more_step(question, result, graph) or result
    return result


async def _ask(graph: Graph, question: str, limit: int) -> AskResult | None:
    try:
        return await graph.ask_question(question, max_results=limit)
    except ValidationError:  # nothing in the question to look up
        return None


def _complete(result: AskResult | None) -> bool:
    return result is not None and result.chain is not None and result.chain.complete


def _strength(result: AskResult | None) -> float:
    return result.relevant_facts[0].relevance if result and result.relevant_facts else 0.0


def with_whole_names(question: str, lexicon: Lexicon) -> str | None:
    """The question with each word that stands for exactly one multi-word entity replaced
    by its name; None when it names an entity in full already or no word stands for one."""
    words = _WORD.findall(question.lower())
    for size in range(1, 5):
        for i in range(len(words) - size + 1):
            if " ".join(words[i : i + size]) in lexicon.entities:
                return None
    rewritten, changed = question, False
    for word in dict.fromkeys(words):
        if len(word) < MIN_LOOSE or word in STOP_WORDS:
            continue
        names = lexicon.entity_words.get(word, set())
        if len(names) == 1 and len(next(iter(names)).split()) > 1:
            name = lexicon.entities[next(iter(names))]
            rewritten = re.sub(rf"\b{re.escape(word)}\b", name, rewritten, count=1, flags=re.I)
            changed = True
    return rewritten if changed else None


def _answer_end(fact: Fact, asked: set[str]) -> tuple[str, str] | None:
    """(the end of the fact the question names, the other end): the other is the answer."""
    subject = set(_WORD.findall(fact.subject_norm))
    obj = set(_WORD.findall(fact.object_norm))
    if subject <= asked and not obj <= asked:
        return fact.subject, fact.object
    if obj <= asked and not subject <= asked:
        return fact.object, fact.subject
    return None


def _kind(question: str) -> str | None:
    found = _KIND.search(question)
    if not found:
        return None
    kind = found.group(1).lower()
    return None if kind in STOP_WORDS or kind in NOT_KINDS else kind


def _is_kind(name: str, kind: str) -> bool:
    forms = word_forms(kind)
    return any(word_forms(w) & forms for w in _WORD.findall(normalize(name)))


async def one_more_step(question: str, result: AskResult, graph: Graph) -> AskResult | None:
    """The answer one step further when the one found is not of the kind asked for (a
    floor, a person), as a two-step path; None when no such step is needed or found."""
    if not result.relevant_facts or (result.chain is not None and result.chain.complete):
        return None
    kind, who = _kind(question), bool(_WHO.match(question))
    if kind is None and not who:
        return None
    top = result.relevant_facts[0].fact
    ends = _answer_end(top, set(_WORD.findall(question.lower())))
    if ends is None:
        return None
    anchor, found = ends
    if kind is not None and _is_kind(found, kind):
        return None  # already of the kind asked for
    around = await graph.explore_connections(found, max_depth=1, limit=NEIGHBOURS)
    for connection in around.connections:
        fact = connection.fact
        if fact.id == top.id:
            continue
        forward = fact.subject_norm == normalize(found)
        other = fact.object if forward else fact.subject
        if kind is not None:
            fits = _is_kind(other, kind)
        else:  # "Dmitri is Security Officer": the role's holder
            fits = who and not forward and fact.predicate_norm == "is"
        if fits:
            return _as_path(question, result, anchor, (top, found), (fact, other))
    return None


def _as_path(
    question: str,
    result: AskResult,
    anchor: str,
    first: tuple[Fact, str],
    second: tuple[Fact, str],
) -> AskResult:
    store = ContextStore(question=question, anchor=anchor)
    inputs = [anchor]
    for index, (fact, reached) in enumerate((first, second), 1):
        hop = Hop(fact.predicate, frozenset({fact.predicate_norm}))
        store.steps.append(HopStep(f"step{index}", hop, inputs, [reached], [fact]))
        inputs = [reached]
    store.final_result = [second[1]]
    store.complete = True
    words = tuple(_WORD.findall(question.lower()))
    forms = frozenset(f for w in words for f in word_forms(w))
    facts = [ScoredFact(f, relevance(f, words, forms)) for f in (first[0], second[0])]
    return AskResult(
        question=result.question,
        context=result.context,
        key_terms=result.key_terms,
        relevant_facts=facts,
        answer_text=store.explain(),
        chain=store,
    )
