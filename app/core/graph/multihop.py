"""Chained questions, answered hop by hop, with a context store of every step.

"What symptoms do diseases treated by Aspirin have?" names an anchor (Aspirin)
and relations (treated, symptoms). The relations before the anchor are followed
nearest first (Aspirin -treats-> diseases -has symptom-> symptoms), then any after
it, which belong to the main clause ("where were the founders of Bayer born?"). Each hop follows
facts in either direction, so "who proposed the proposals that closed with
outcome Yes?" goes Yes <-has outcome- proposals -proposed by-> people.

The context store keeps every step's results and the final result (at most 15,
with a count of the rest), as spec 003 describes, so an answer can explain the
path it took and not only where it ended.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.core.graph.graph_answers import Analysis, Entity, human, join_names
from app.core.graph.graph_results import Connection
from app.nlp.key_terms import normalize
from app.persistence.repositories.facts import Fact, FactRepository

MAX_HOPS = 4
FINAL_LIMIT = 15
FRONTIER_LIMIT = 200  # entities carried into the next hop
HOP_FACT_LIMIT = 1000  # facts read per hop and direction
NOTHING_STORED = (
    "Based on the available data, I cannot find an answer to your question in the knowledge base."
)
NOTHING_FINAL = (
    "Based on the data, I followed the steps but could not find a final answer for your question."
)


@dataclass(frozen=True)
class Hop:
    word: str  # the question's word(s) for this relation
    predicates: frozenset[str]  # normalised predicates it stands for


@dataclass
class HopStep:
    key: str  # "step1_treated": the name this step's results have in the store
    hop: Hop
    inputs: list[str]  # entities the step started from
    results: list[str]  # entities it reached, in order, as written in the facts
    facts: list[Fact]  # for each result, the fact that reached it


@dataclass
class ContextStore:
    question: str
    anchor: str
    steps: list[HopStep] = field(default_factory=list)
    final_result: list[str] = field(default_factory=list)
    omitted: int = 0  # final results left out of final_result
    complete: bool = False  # every planned hop found something

    @property
    def facts(self) -> list[Fact]:
        return [f for step in self.steps for f in step.facts]

    def as_dict(self) -> dict[str, Any]:
        """Spec 003's shape: one key per step, then final_result (and how many were cut)."""
        store: dict[str, Any] = {step.key: list(step.results) for step in self.steps}
        store["final_result"] = list(self.final_result)
        store["final_result_omitted"] = self.omitted
        return store

    def explain(self) -> str:
        """The path in words, ending with the answer."""
        if not self.steps:
            return NOTHING_STORED
        sentences = [_describe(step) for step in self.steps if step.facts]
        if not self.final_result:
            return " ".join([NOTHING_FINAL, *sentences]).strip()
        names = list(self.final_result)
        answer = join_names(names, limit=FINAL_LIMIT)
        if self.omitted:
            answer = f"{', '.join(human(n) for n in names)} and {self.omitted} more"
        return " ".join([*sentences, f"So the answer is: {answer}."])


def _describe(step: HopStep, max_groups: int = 5) -> str:
    """One sentence per starting entity: "Aspirin treats Heart Disease and Stroke"."""
    inputs = {normalize(n) for n in step.inputs}
    groups: dict[tuple[str, str, bool], list[str]] = {}
    for fact in step.facts:
        forward = fact.subject_norm in inputs
        origin = fact.subject if forward else fact.object
        target = fact.object if forward else fact.subject
        groups.setdefault((origin, fact.predicate, forward), []).append(target)
    parts = []
    for (origin, predicate, forward), targets in list(groups.items())[:max_groups]:
        if forward:
            parts.append(f"{human(origin)} {human(predicate)} {join_names(targets)}")
        else:
            parts.append(f"{join_names(targets)} {human(predicate)} {human(origin)}")
    if len(groups) > max_groups:
        parts.append(f"and {len(groups) - max_groups} more")
    return "; ".join(parts) + "."


def _slug(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", text.casefold()).strip("_") or "step"


def plan(analysis: Analysis) -> tuple[Entity, list[Hop]] | None:
    """An anchor and the hops to follow, or None if the question is not a chain
    (it needs an entity and at least two distinct relations)."""
    if len(analysis.groups) < 2 or not analysis.entities:
        return None
    named = [e for e in analysis.entities if e.named]
    anchor = (named or list(analysis.entities))[-1]

    # "symptoms of diseases treated by Aspirin": the relations before the anchor apply
    # nearest first; any after it ("... of Aspirin born?") are the main clause, so last.
    before = [g for g in analysis.groups if max(g.positions) < anchor.start]
    after = [g for g in analysis.groups if max(g.positions) >= anchor.start]
    before.sort(key=lambda g: -max(g.positions))
    after.sort(key=lambda g: min(g.positions))
    ordered = (before + after)[:MAX_HOPS]
    return anchor, [Hop(" ".join(g.words), g.predicates) for g in ordered]


async def follow(
    repo: FactRepository, question: str, anchor_text: str, anchor_norm: str, hops: Sequence[Hop]
) -> ContextStore:
    """Walk the hops from the anchor; each step's reached entities feed the next."""
    store = ContextStore(question=question, anchor=anchor_text)
    frontier: dict[str, str] = {anchor_norm: anchor_text}  # norm -> name as written
    visited = {anchor_norm}
    for index, hop in enumerate(hops, 1):
        facts = await repo.hop(list(frontier), sorted(hop.predicates), HOP_FACT_LIMIT)
        reached: dict[str, tuple[str, Fact]] = {}
        for fact in facts:  # forward first: "Aspirin treats X" before "X treated by Aspirin"
            if fact.subject_norm in frontier and fact.object_norm not in visited:
                reached.setdefault(fact.object_norm, (fact.object, fact))
        for fact in facts:
            if fact.object_norm in frontier and fact.subject_norm not in visited:
                reached.setdefault(fact.subject_norm, (fact.subject, fact))
        store.steps.append(
            HopStep(
                key=f"step{index}_{_slug(hop.word)}",
                hop=hop,
                inputs=list(frontier.values()),
                results=[name for name, _ in reached.values()],
                facts=[fact for _, fact in reached.values()],
            )
        )
        if not reached:
            return store
        visited |= reached.keys()
        frontier = {norm: name for norm, (name, _) in list(reached.items())[:FRONTIER_LIMIT]}
    final = store.steps[-1].results if store.steps else []
    store.final_result = final[:FINAL_LIMIT]
    store.omitted = max(0, len(final) - FINAL_LIMIT)
    store.complete = bool(final)
    return store


async def explore(repo: FactRepository, start: str, max_depth: int, limit: int) -> list[Connection]:
    """Facts reachable from ``start`` (a normalised name) within ``max_depth`` hops,
    breadth first, each with the path of facts that leads to it."""
    paths: dict[str, list[Fact]] = {start: []}
    frontier = [start]
    connections: list[Connection] = []
    seen: set[int] = set()
    for depth in range(1, max_depth + 1):
        if not frontier or len(connections) >= limit:
            break
        current = set(frontier)
        reached: list[str] = []
        for fact in await repo.neighbours(frontier, limit=limit):
            if fact.id in seen or len(connections) >= limit:
                continue
            seen.add(fact.id)
            forward = fact.subject_norm in current
            origin = fact.subject_norm if forward else fact.object_norm
            other = fact.object_norm if forward else fact.subject_norm
            path = [*paths[origin], fact]
            connections.append(Connection(fact, depth, path))
            if other not in paths:
                paths[other] = path
                reached.append(other)
        frontier = reached[:FRONTIER_LIMIT]
    return connections
