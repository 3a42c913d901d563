"""Paths through the fact graph, read and scored: what /ask's fact search ranks.

A path goes from an entity the question names to the answer at its far end, one or two
facts long (fact_search finds the walks). One fitted scorer (fact_paths.json, refitted
by scripts/fit_ask_decision.py) gives the probability that a path's far end is the
answer, over FEATURES: how much of the question the path holds before its answer,
plainly and by rarity; the relation asked; cosine; how fully the question names the
start; hops; echo of the question; the nearest relation; whether the answer is a member,
and asked "who"; whether the second hop adds what the question asks.

With 100,000 facts a question reads a few thousand walks, and they share their entities
and relations: what the question holds of each is read once per question, and a walk
only combines them. The cosines of all the walks are taken at once when they are
scored, in the float32 arithmetic of one walk at a time, so a path's score does not
depend on how many are scored with it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path as File
from typing import NamedTuple

import numpy as np

from app.core.ask import logistic
from app.core.ask.fact_names import EntityIndex, Named
from app.core.ask.logistic import Logistic
from app.core.ask.sentences import rarity, weighted_share
from app.nlp.key_terms import base_form, normalize
from app.nlp.lexical import lexical_terms
from app.persistence.repositories.facts import Fact

_KIND = re.compile(r"\b(?:which|what)\s+([^\W\d_]{3,})", re.I)
_WORDS = re.compile(r"[^\W\d_]+")
_WHO = re.compile(r"\bwho(?:m|se|s|'s)?\b", re.I)
MODEL = File(__file__).with_name("fact_paths.json")
FEATURES = ("cover", "rare", "relation", "cosine", "anchor", "hops", "echo", "predicate",
            "member", "who_member", "further")  # fmt: skip
_COVER, _RELATION, _COSINE, _ECHO = (FEATURES.index(n) for n in ("cover", "relation",
                                                                  "cosine", "echo"))  # fmt: skip
Walks = Iterable[tuple[tuple[Fact, ...], str]]  # facts, and the end the first is read from


@dataclass(frozen=True, slots=True)
class Path:
    """From the entity the question names to the answer, one or two facts long."""

    facts: tuple[Fact, ...]
    ends: tuple[str, ...]  # entity names, anchor first, answer last (len(facts) + 1)
    cover: float  # share of the question's terms the path holds before its answer
    relation: float  # ... of those not naming its start: what it asks about the start
    cosine: float  # of the question and the path's facts (their mean vector)
    new: float  # 1 - the share of the answer's name the question holds
    score: float  # the fitted scorer's probability that the answer is the one asked
    features: tuple[float, ...] = ()  # FEATURES, as the scorer read them

    @property
    def answer(self) -> str:
        return self.ends[-1]

    @property
    def anchor(self) -> str:
        return self.ends[0]


class Walk(NamedTuple):
    """A walk that is a path, read for what it holds of the question: its FEATURES but
    the cosine, which needs its facts' vectors."""

    facts: tuple[Fact, ...]
    ends: tuple[str, ...]
    features: tuple[float, ...]  # the cosine is 0.0 until scored


@dataclass(frozen=True, slots=True)
class _Entity:
    """What the question holds of one entity, as a path's start or its answer."""

    terms: frozenset[str]  # its name's terms, and the question's that name it
    asked: frozenset[str]  # those of them the question asks
    own: frozenset[str] | None  # its name's own terms, for the echo; None by initials
    share: float  # how fully the question names it (1.0 by initials)
    # the question's other terms the graph knows, for the relation; None: the question
    # asks nothing besides this name
    known: frozenset[str] | None


class PathScorer:
    """Reads walks as paths and scores each the same way, for one question."""

    def __init__(
        self,
        question: str,
        entities: EntityIndex,
        named: dict[str, Named],
        asked: set[str],
        q: np.ndarray,
        gaps: dict[str, float] | None = None,
        members: set[str] | None = None,
    ) -> None:
        self.entities = entities
        self.named = named
        self.asked = asked
        self.gaps = gaps or {}
        self.rarity = _rarity(asked, entities)
        self.members = members or set()
        self.who = float(bool(_WHO.search(question)))
        self.kind = kind_asked(question, entities.language) & asked  # "what street"
        self.q = np.asarray(q, dtype=np.float32)
        self.q_norm = float(np.linalg.norm(self.q))
        self.language = entities.language
        # read once per question
        self._entities: dict[str, _Entity] = {}
        self._relations: dict[str, frozenset[str]] = {}
        self._members: dict[str, float] = {}
        self._rare: dict[frozenset[str], float] = {}

    def read(self, walks: Walks) -> list[Walk]:
        """The walks that are paths, in their order."""
        return [w for facts, start in walks if (w := self._read(facts, start)) is not None]

    def scored(self, walks: Sequence[Walk], vectors: dict[int, np.ndarray]) -> list[Path]:
        """The walks as paths, scored by the fitted scorer (``vectors``: their facts')."""
        if not walks:
            return []
        rows = np.array([w.features for w in walks])
        rows[:, _COSINE] = self._cosines(walks, vectors)
        scores = scorer().probabilities(rows)
        return [
            Path(w.facts, w.ends, f[_COVER], f[_RELATION], f[_COSINE], 1.0 - f[_ECHO], s, tuple(f))
            for w, f, s in zip(walks, rows.tolist(), scores.tolist(), strict=True)
        ]

    def _read(self, facts: tuple[Fact, ...], start: str) -> Walk | None:
        ends, norms = [start], [norm_of(facts[0], start)]
        for fact in facts:
            if norms[-1] == fact.subject_norm:
                ends.append(fact.object)
                norms.append(fact.object_norm)
            elif norms[-1] == fact.object_norm:
                ends.append(fact.subject)
                norms.append(fact.subject_norm)
            else:
                return None
        if len(set(norms)) < len(norms):  # back where it started
            return None
        steps = []  # the question's terms each hop holds: its relation, where it leads
        for index, fact in enumerate(facts, 1):
            reached = self._entity(norms[index])
            # the answer: the kind of thing asked for ("what street")
            leads = reached.asked if index < len(facts) else reached.terms & self.kind
            steps.append(self._relation_asked(fact.predicate) | leads)
        if not steps[0] and len(facts) > 1:
            return None  # a first hop the question does not ask for: a detour
        anchor, answer = self._entity(norms[0]), self._entity(norms[-1])
        held = anchor.asked.union(*steps)
        echo = self._echo(answer, held)
        gaps = [self.gaps[f.predicate_norm] for f in facts if f.predicate_norm in self.gaps]
        gap = max(gaps) if gaps else 0.0
        member = self._member(ends[-1])
        features = (len(held) / len(self.asked), self._rarity_held(held),
                    self._relation(anchor, held), 0.0, anchor.share, float(len(facts) - 1),
                    echo, gap, member, member * self.who,
                    self._further(facts, steps))  # fmt: skip
        return Walk(facts, tuple(ends), features)

    def _further(self, facts: tuple[Fact, ...], steps: list[frozenset[str]]) -> float:
        """1.0 when both hops' relations are asked, the second for more than the first
        ("when does the body that appoints the conduct committee meet?")."""
        if len(facts) < 2 or not self._relation_asked(facts[0].predicate):
            return 0.0
        return float(bool(steps[-1] - steps[0]))

    def _member(self, name: str) -> float:
        """1.0 when the name is a member's (a first name, a username, or a first and a
        last name)."""
        found = self._members.get(name)
        if found is None:
            words = name.split()
            whole = normalize(name) in self.members
            found = float(whole or (len(words) == 2 and normalize(words[0]) in self.members))
            self._members[name] = found
        return found

    def _relation_asked(self, predicate: str) -> frozenset[str]:
        """The question's terms a relation holds."""
        found = self._relations.get(predicate)
        if found is None:
            found = frozenset(relation_terms(predicate, self.language) & self.asked)
            self._relations[predicate] = found
        return found

    def _entity(self, norm: str) -> _Entity:
        found = self._entities.get(norm)
        if found is None:
            found = self._entities[norm] = self._read_entity(norm)
        return found

    def _read_entity(self, norm: str) -> _Entity:
        named = self.named.get(norm)
        listed = self.entities.terms.get(norm)
        own = listed or frozenset(lexical_terms(norm, self.language))
        terms = own | named.terms if named else own
        asked = terms & self.asked
        rest = self.asked - asked
        known = frozenset(rest & self.entities.vocabulary) if rest else None
        if named is not None and named.by_initials:
            return _Entity(terms, asked, None, 1.0, known)
        share = self.entities.share(norm, self.asked)
        return _Entity(terms, asked, listed or terms, share, known)

    @staticmethod
    def _relation(anchor: _Entity, held: frozenset[str]) -> float:
        """The share of what the question asks besides the start's name, in words the
        graph knows, that the path holds ("meet" in "when does the board meet?"; a
        "hey" or "actually" no fact uses is not asked of the graph). 1.0 when the
        question asks nothing besides the name; 0.0 when it asks more, but only in
        words the graph does not know."""
        if anchor.known is None:
            return 1.0
        return len(held & anchor.known) / len(anchor.known) if anchor.known else 0.0

    def _echo(self, answer: _Entity, held: frozenset[str]) -> float:
        """How much of the answer's name the question holds for itself (not for the
        relation or the kind asked for): 1.0 when the answer is what the question names."""
        if answer.own is None:
            return 1.0
        return len(answer.own & (self.asked - held)) / len(answer.own) if answer.own else 0.0

    def _rarity_held(self, held: frozenset[str]) -> float:
        found = self._rare.get(held)
        if found is None:
            found = self._rare[held] = weighted_share(self.rarity, held)
        return found

    def _cosines(self, walks: Sequence[Walk], vectors: dict[int, np.ndarray]) -> np.ndarray:
        """Each walk's cosine with the question: that of its facts' mean vector (a fact
        with no vector left out; 0.0 with none). All walks at once, in the floats one
        walk at a time gives: the mean of two float32 vectors is (a + b) / 2, of one
        (a + a) / 2 == a, and np.vecdot takes each row's dot product as ``@`` does."""
        ids = list(dict.fromkeys(f.id for w in walks for f in w.facts if f.id in vectors))
        row = {fact_id: index for index, fact_id in enumerate(ids)}
        stacked = np.array([*(vectors[i] for i in ids), np.zeros_like(self.q)])
        pairs = []
        for walk in walks:
            found = [row[f.id] for f in walk.facts if f.id in row] or [len(ids)]  # zeros
            pairs.append((found[0], found[-1]))
        first, last = np.array(pairs).T
        mean = (stacked[first] + stacked[last]) / 2
        dots = np.vecdot(mean, self.q).astype(np.float64)
        sizes = np.sqrt(np.vecdot(mean, mean)).astype(np.float64) * self.q_norm
        return np.divide(dots, sizes, out=np.zeros_like(dots), where=sizes != 0)


@cache
def scorer(path: File = MODEL) -> Logistic:
    """The fitted path scorer over FEATURES (logistic.py)."""
    return logistic.load(path, FEATURES)[0]


def _rarity(asked: set[str], entities: EntityIndex) -> dict[str, float]:
    """Each asked term the graph knows, weighted by how rare it is among the graph's
    names and relations (the weight sentences.py gives a term among its candidates)."""
    n = entities.documents
    return {t: rarity(n, entities.frequency[t]) for t in asked if entities.frequency.get(t)}


def relation_terms(text: str, language: str = "en") -> set[str]:
    """A relation's index terms, irregular verbs read as their base form ("led" is
    "lead", "met" is "meet"): a question says "who leads", a fact "led by"."""
    based = _WORDS.sub(lambda m: base_form(m.group()), text)
    return set(lexical_terms(based, language))


def kind_asked(question: str, language: str = "en") -> set[str]:
    """The kind of thing a "which/what <noun>" question asks for ("what street", "which
    group"), as index terms; empty when it names none."""
    found = _KIND.search(question)
    return set(lexical_terms(found.group(1), language)) if found else set()


def norm_of(fact: Fact, name: str) -> str:
    """The normalised form of one of the fact's ends, given as written."""
    return fact.subject_norm if name == fact.subject else fact.object_norm
