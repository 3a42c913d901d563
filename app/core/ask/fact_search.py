"""Facts for /ask's general pipeline: paths through the graph, scored by one scorer.

A fact question names something and asks for what a relation leads to: "who heads up
the conduct committee?" wants the far end of "Code of Conduct Committee chaired by
Mateus". Members say it in other words than the facts, name things by a word or by
initials, and chain two relations. So, with no community's words:

1. **Candidates**: facts the lexical index and the question's embedding find, fused by
   reciprocal rank fusion, plus every fact about the entities the question names by
   words or initials (fact_names).
2. **Paths** of one hop (a candidate read in either direction) and of two (the best of
   those taken one step further). The far end is the answer.
3. **One fitted scorer** (fact_paths.json, refitted by scripts/fit_ask_decision.py):
   the probability that a path's far end is the answer, over FEATURES (how much of the
   question the path holds before its answer, plainly and by rarity; the relation
   asked; cosine; how fully the question names the start; hops; echo of the question;
   the nearest relation; whether the answer is a member, and asked "who"; whether the
   second hop adds what the question asks).

The decision reads the best path's probability, its margin over the best path ending
elsewhere, its cover and its relation: a path that answers covers the question and
ends somewhere else; a path that is merely near does neither.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path as File

import numpy as np

from app.core.ask import logistic
from app.core.ask.fact_names import EntityIndex, Named
from app.core.ask.logistic import Logistic
from app.core.ask.passages import fuse
from app.core.ask.sentences import rarity, weighted_share
from app.core.graph.fact_vectors import COMMUNITY, FactVectors
from app.core.graph.graph_answers import human, say
from app.core.graph.graph_results import AskResult, ScoredFact
from app.core.graph.multihop import ContextStore, Hop, HopStep
from app.core.graph.proposal_facts import SOURCE_PREFIX as PROPOSALS
from app.nlp.key_terms import base_form, normalize
from app.nlp.lexical import lexical_terms
from app.persistence.database import Database
from app.persistence.repositories.facts import Fact, FactRepository
from app.persistence.repositories.lexical import LexicalSearch
from app.persistence.repositories.users import UserRepository
from app.services.vector_db_service import VectorDBService

_KIND = re.compile(r"\b(?:which|what)\s+([^\W\d_]{3,})", re.I)
_WORDS = re.compile(r"[^\W\d_]+")
# Proposals are a source of their own in /ask: the facts derived from them
# (proposal_facts) would only answer the same again, worse. Facts by meaning are
# therefore read from the other facts' collection alone (fact_vectors).
RANKED = 20  # facts taken from each ranking (words, meaning)
NAMED = 12  # entities whose facts are read
NEIGHBOURS = 100  # facts read around each named entity (and each far end taken further)
EXPAND = 8  # one-hop paths taken one step further
ENTITY_LIMIT = 50_000
SHOWN = 8  # facts handed to the answer writer
MODEL = File(__file__).with_name("fact_paths.json")
FEATURES = ("cover", "rare", "relation", "cosine", "anchor", "hops", "echo", "predicate",
            "member", "who_member", "further")  # fmt: skip
MEMBERS = 50_000  # members' names read, to tell a person from a place or a time
_WHO = re.compile(r"\bwho(?:m|se|s|'s)?\b", re.I)


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


@dataclass(frozen=True)
class FactsFound:
    """The paths found, best first, and the answer writer's view of them."""

    paths: list[Path]
    result: AskResult
    # the best path's relation against the graph's others: the cosine of the question
    # and its closest predicate minus the question's closest predicate anywhere (0.0:
    # no relation in the graph is nearer to what is asked)
    predicate_gap: float = 0.0

    @property
    def best(self) -> Path | None:
        return self.paths[0] if self.paths else None

    @property
    def margin(self) -> float:
        """How far the best path stands above the best one ending elsewhere: an answer
        stands out, a path that is merely near ties with its neighbours."""
        if not self.paths:
            return 0.0
        top = self.paths[0]
        other = next((p.score for p in self.paths if p.answer != top.answer), 0.0)
        return max(0.0, top.score - other)


class FactSearch:
    def __init__(
        self,
        db: Database,
        vectors: VectorDBService,
        language: str = "en",
        fact_vectors: FactVectors | None = None,
    ) -> None:
        self.db = db
        self.language = language
        self.fact_vectors = fact_vectors or FactVectors(db, vectors)
        self._entities: tuple[tuple[int, int], EntityIndex] | None = None
        self.vectors = vectors
        # the graph's distinct predicates and their vectors, embedded when it changes
        self._predicates: dict[str, int] = {}
        self._predicate_vectors = np.zeros((0, 0), dtype=np.float32)

    async def entities(self) -> EntityIndex:
        """The graph's entities by words and initials, rebuilt when the facts change
        (and the facts' vectors caught up with them)."""
        async with self.db.transaction() as session:
            repo = FactRepository(session)
            signature = await repo.signature()
            await self.fact_vectors.current(signature)
            if self._entities is None or self._entities[0] != signature:
                names = await repo.entity_names(ENTITY_LIMIT, skip_source_prefix=PROPOSALS)
                predicates = await repo.predicate_vocabulary()
                relations = [relation_terms(p, self.language) for p in predicates]
                await self._embed_predicates(predicates)
                index = EntityIndex.build(names, self.language, relations)
                self._entities = (signature, index)
        return self._entities[1]

    async def _embed_predicates(self, predicates: list[str]) -> None:
        """The predicates' vectors, once per change of the graph (a few hundred words)."""
        self._predicates = {p: i for i, p in enumerate(predicates)}
        if predicates:
            self._predicate_vectors = np.asarray(
                await self.vectors.embed(predicates), dtype=np.float32
            )

    def _predicate_gaps(self, embedding: np.ndarray) -> dict[str, float]:
        """Each predicate's cosine to the question minus the nearest predicate's."""
        if not len(self._predicate_vectors):
            return {}
        q = np.asarray(embedding, dtype=np.float32)
        sims = (
            self._predicate_vectors
            @ q
            / (np.linalg.norm(self._predicate_vectors, axis=1) * float(np.linalg.norm(q)) + 1e-9)
        )
        top = float(sims.max())
        return {p: float(sims[i]) - top for p, i in self._predicates.items()}

    async def search(self, question: str, embedding: np.ndarray) -> FactsFound | None:
        """The paths that answer the question best; None when the graph is empty or the
        question has no term to look up."""
        asked_terms = lexical_terms(question, self.language)
        if not asked_terms:
            return None
        entities = await self.entities()
        if not entities.names:
            return None
        named = {n.norm: n for n in entities.named(question)[:NAMED]}
        asked = relation_terms(question, self.language)
        if not asked:
            return None
        nearest = await self.fact_vectors.nearest(embedding, RANKED, kinds=(COMMUNITY,))
        async with self.db.transaction() as session:
            by_words = await LexicalSearch(session).facts(
                asked_terms, RANKED, skip_source_prefix=PROPOSALS
            )
            ranked = fuse([i for i, _ in by_words], [i for i, _ in nearest])
            fused = [i for i, _ in sorted(ranked, key=lambda kv: (-kv[1], kv[0]))]
            members = {normalize(n) for n in await UserRepository(session).names(MEMBERS)}
            repo = FactRepository(session)
            first = [f for f in await repo.get_many(fused) if not f.source.startswith(PROPOSALS)]
            first += await _around(repo, list(named))
        gaps = self._predicate_gaps(embedding)
        reader = _Scorer(question, entities, named, asked, embedding, gaps, members)
        vectors = await self.fact_vectors.of(sorted({f.id for f in first}))
        one = reader.paths([((f,), end) for f in _unique(first) for end in _starts(f)], vectors)
        one.sort(key=lambda p: (-p.cover - p.cosine / 2, p.facts[0].id))  # what it holds
        further = one[:EXPAND]
        async with self.db.transaction() as session:
            ends = [_norm_of(p.facts[0], p.answer) for p in further]
            around = await _around(FactRepository(session), list(dict.fromkeys(ends)))
        vectors |= await self.fact_vectors.of(sorted({f.id for f in around} - set(vectors)))
        two = reader.paths(
            [
                ((p.facts[0], f), p.anchor)
                for p, end in zip(further, ends, strict=True)
                for f in around
                if f.id != p.facts[0].id and end in (f.subject_norm, f.object_norm)
            ],
            vectors,
        )
        paths = sorted(one + two, key=lambda p: (-p.score, len(p.facts), p.facts[0].id))
        if not paths:
            return None
        gap = paths[0].features[FEATURES.index("predicate")]
        return FactsFound(paths, _as_result(question, paths, list(named.values())), gap)


class _Scorer:
    """Walks candidate fact sequences into paths and scores each the same way."""

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
        self.kind = kind_asked(question, entities.language)
        self.q = np.asarray(q, dtype=np.float32)
        self.q_norm = float(np.linalg.norm(self.q))
        self.language = entities.language
        self._relations: dict[str, set[str]] = {}  # a predicate's terms, read once per question

    def paths(
        self, walks: Iterable[tuple[tuple[Fact, ...], str]], vectors: dict[int, np.ndarray]
    ) -> list[Path]:
        found = []
        for facts, start in walks:
            path = self.path(facts, start, vectors)
            if path is not None:
                found.append(path)
        if not found:
            return found
        scores = scorer().probabilities(np.array([p.features for p in found]))
        return [replace(p, score=float(s)) for p, s in zip(found, scores, strict=True)]

    def path(
        self, facts: tuple[Fact, ...], start: str, vectors: dict[int, np.ndarray]
    ) -> Path | None:
        ends, norms = [start], [_norm_of(facts[0], start)]
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
        answer = self._terms(norms[-1])
        steps = []  # the question's terms each hop holds: its relation, where it leads
        for index, fact in enumerate(facts):
            reached = self._terms(norms[index + 1]) if index + 1 < len(facts) else set()
            kind = answer & self.kind if index + 1 == len(facts) else set()  # "what street"
            steps.append((self._relation_of(fact.predicate) | reached | kind) & self.asked)
        if not steps[0] and len(facts) > 1:
            return None  # a first hop the question does not ask for: a detour
        named = self._terms(norms[0]) & self.asked
        held = named.union(*steps)
        cover = len(held) / len(self.asked)
        relation = self._relation(held, named)
        echo = self._echo(norms[-1], answer, held)
        cosine = self._cosine([vectors[f.id] for f in facts if f.id in vectors])
        rare = weighted_share(self.rarity, held)
        gap = max((self.gaps[f.predicate_norm] for f in facts if f.predicate_norm in self.gaps),
                  default=0.0)  # fmt: skip
        member = self._member(ends[-1])
        features = (cover, rare, relation, cosine, self._share(norms[0]), float(len(facts) - 1),
                    echo, gap, member, member * self.who,
                    self._further(facts, steps))  # fmt: skip
        return Path(facts, tuple(ends), cover, relation, cosine, 1.0 - echo, 0.0, features)

    def _further(self, facts: tuple[Fact, ...], steps: list[set[str]]) -> float:
        """1.0 when both hops' relations are asked, the second for more than the first
        ("when does the body that appoints the conduct committee meet?")."""
        if len(facts) < 2 or not self._relation_of(facts[0].predicate) & self.asked:
            return 0.0
        return float(bool(steps[-1] - steps[0]))

    def _member(self, name: str) -> float:
        """1.0 when the name is a member's (a first name, a username, or a first and a
        last name)."""
        words = name.split()
        whole = normalize(name) in self.members
        return float(whole or (len(words) == 2 and normalize(words[0]) in self.members))

    def _relation_of(self, predicate: str) -> set[str]:
        found = self._relations.get(predicate)
        if found is None:
            found = self._relations[predicate] = relation_terms(predicate, self.language)
        return found

    def _terms(self, norm: str) -> set[str]:
        named = self.named.get(norm)
        own = self.entities.terms.get(norm) or frozenset(lexical_terms(norm, self.language))
        return set(own) | (set(named.terms) if named else set())

    def _relation(self, held: set[str], named: set[str]) -> float:
        """The share of what the question asks besides the start's name, in words the
        graph knows, that the path holds ("meet" in "when does the board meet?"; a
        "hey" or "actually" no fact uses is not asked of the graph). 1.0 when the
        question asks nothing besides the name; 0.0 when it asks more, but only in
        words the graph does not know."""
        rest = self.asked - named
        if not rest:
            return 1.0
        known = rest & self.entities.vocabulary
        return len(held & known) / len(known) if known else 0.0

    def _echo(self, norm: str, answer: set[str], held: set[str]) -> float:
        """How much of the answer's name the question holds for itself (not for the
        relation or the kind asked for): 1.0 when the answer is what the question names."""
        named = self.named.get(norm)
        if named is not None and named.by_initials:
            return 1.0
        own = self.entities.terms.get(norm) or answer
        return len(own & (self.asked - held)) / len(own) if own else 0.0

    def _share(self, norm: str) -> float:
        named = self.named.get(norm)
        if named is not None and named.by_initials:
            return 1.0
        return self.entities.share(norm, self.asked)

    def _cosine(self, found: Sequence[np.ndarray]) -> float:
        if not found:
            return 0.0
        # one vector is its own mean (the same floats np.mean gives): skip the copy
        mean = found[0] if len(found) == 1 else np.mean(np.vstack(found), axis=0)
        size = float(np.linalg.norm(mean)) * self.q_norm
        return float(mean @ self.q) / size if size else 0.0


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


async def _around(repo: FactRepository, norms: list[str]) -> list[Fact]:
    """The facts of each entity, up to NEIGHBOURS each (a busy one does not crowd out
    the others)."""
    found = await repo.neighbours_each(norms, NEIGHBOURS)
    return _unique(f for f in found if not f.source.startswith(PROPOSALS))


def _unique(facts: Iterable[Fact]) -> list[Fact]:
    return list({f.id: f for f in facts}.values())


def _starts(fact: Fact) -> list[str]:
    """A fact read either way: from its subject, or from its object."""
    return [fact.subject] if fact.subject_norm == fact.object_norm else [fact.subject, fact.object]


def _norm_of(fact: Fact, name: str) -> str:
    """The normalised form of one of the fact's ends, given as written."""
    return fact.subject_norm if name == fact.subject else fact.object_norm


def _as_result(question: str, paths: list[Path], named: list[Named]) -> AskResult:
    """The answer writer's view (knowledge_answers.facts): the best path's facts first,
    then those of the next paths; a two-hop path as the steps it took."""
    best = paths[0]
    shown: dict[int, ScoredFact] = {}
    for path in paths:
        for fact in path.facts:
            shown.setdefault(fact.id, ScoredFact(fact, round(path.score, 4)))
        if len(shown) >= SHOWN:
            break
    terms = list(dict.fromkeys([best.anchor, *(n.name for n in named[:3])]))
    chain = _chain(question, best) if len(best.facts) > 1 else None
    text = chain.explain() if chain is not None else human(say(best.facts[0])) + "."
    return AskResult(
        question=question,
        context=None,
        key_terms=[human(t) for t in terms],
        relevant_facts=list(shown.values())[:SHOWN],
        answer_text=text,
        chain=chain,
    )


def _chain(question: str, path: Path) -> ContextStore:
    store = ContextStore(question=question, anchor=human(path.anchor))
    for index, fact in enumerate(path.facts):
        hop = Hop(fact.predicate, frozenset({fact.predicate_norm}))
        reached = path.ends[index + 1]
        step = HopStep(f"step{index + 1}", hop, [path.ends[index]], [reached], [fact])
        store.steps.append(step)
    store.final_result = [path.answer]
    store.complete = True
    return store
