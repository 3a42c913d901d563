"""Facts for /ask's general pipeline: paths through the graph, scored by one scorer.

A fact question names something and asks for what a relation leads to: "who heads up
the conduct committee?" wants the far end of "Code of Conduct Committee chaired by
Mateus". Members say it in other words than the facts, name things by a word or by
initials, and chain two relations. So, with no community's words:

1. **Candidates**: facts the lexical index and the question's embedding find, fused by
   reciprocal rank fusion, plus every fact about the entities the question names by
   words or initials (fact_names).
2. **Paths** of one hop (a fact the rankings found, read in either direction; one around
   a named entity, read from it) and of two (the best of those taken one step further).
   The far end is the answer.
3. **One fitted scorer** (fact_paths): the probability that a path's far end is the
   answer. Only the walks that are paths get their facts' vectors read (a detour's
   never are).

The decision reads the best path's probability, its margin over the best path ending
elsewhere, its cover and its relation: a path that answers covers the question and
ends somewhere else; a path that is merely near does neither.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from app.core.ask.fact_names import EntityIndex, Named
from app.core.ask.fact_paths import FEATURES, Path, PathScorer, Walks, norm_of, relation_terms
from app.core.ask.passages import fuse
from app.core.graph.fact_vectors import COMMUNITY, FactVectors
from app.core.graph.graph_answers import human, say
from app.core.graph.graph_results import AskResult, ScoredFact
from app.core.graph.multihop import ContextStore, Hop, HopStep
from app.core.graph.proposal_facts import SOURCE_PREFIX as PROPOSALS
from app.nlp.key_terms import normalize
from app.nlp.lexical import lexical_terms
from app.persistence.database import Database
from app.persistence.repositories.facts import Fact, FactRepository
from app.persistence.repositories.lexical import LexicalSearch
from app.persistence.repositories.users import UserRepository
from app.services.vector_db_service import VectorDBService

# Proposals are a source of their own in /ask: the facts derived from them
# (proposal_facts) would only answer the same again, worse. Facts by meaning are
# therefore read from the other facts' collection alone (fact_vectors).
RANKED = 20  # facts taken from each ranking (words, meaning)
NAMED = 12  # entities whose facts are read
NEIGHBOURS = 100  # facts read around each named entity (and each far end taken further)
EXPAND = 8  # one-hop paths taken one step further
ENTITY_LIMIT = 50_000
SHOWN = 8  # facts handed to the answer writer
MEMBERS = 50_000  # members' names read, to tell a person from a place or a time


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
        self._entities: tuple[int, EntityIndex] | None = None
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
            by_name = await _around(repo, list(named))
        gaps = self._predicate_gaps(embedding)
        reader = PathScorer(question, entities, named, asked, embedding, gaps, members)
        vectors: dict[int, np.ndarray] = {}  # the facts' vectors, read as paths need them
        # a fact found by words or meaning is read from either end; one found around a
        # named entity, from the named end (read from its other end it would answer with
        # the name the question gave)
        ranked_ids = {f.id for f in first}
        starts = [((f,), end) for f in first for end in _starts(f)]
        starts += [
            ((f,), end)
            for f in by_name
            if f.id not in ranked_ids
            for end in _starts(f)
            if norm_of(f, end) in named
        ]
        one = await self._scored(reader, starts, vectors)
        one.sort(key=lambda p: (-p.cover - p.cosine / 2, p.facts[0].id))  # what it holds
        further = one[:EXPAND]
        async with self.db.transaction() as session:
            ends = [norm_of(p.facts[0], p.answer) for p in further]
            around = _by_end(await _around(FactRepository(session), list(dict.fromkeys(ends))))
        onward = [
            ((p.facts[0], f), p.anchor)
            for p, end in zip(further, ends, strict=True)
            for f in around.get(end, ())
            if f.id != p.facts[0].id
        ]
        two = await self._scored(reader, onward, vectors)
        paths = sorted(one + two, key=lambda p: (-p.score, len(p.facts), p.facts[0].id))
        if not paths:
            return None
        gap = paths[0].features[FEATURES.index("predicate")]
        return FactsFound(paths, _as_result(question, paths, list(named.values())), gap)

    async def _scored(
        self, reader: PathScorer, walks: Walks, vectors: dict[int, np.ndarray]
    ) -> list[Path]:
        """The walks that are paths, scored. The vectors of their facts not read yet are
        read into ``vectors`` first: a walk dropped as a detour costs no vector."""
        held = reader.read(walks)
        wanted = {f.id for walk in held for f in walk.facts} - vectors.keys()
        vectors |= await self.fact_vectors.of(sorted(wanted))
        return reader.scored(held, vectors)


async def _around(repo: FactRepository, norms: list[str]) -> list[Fact]:
    """The facts of each entity, up to NEIGHBOURS each (a busy one does not crowd out
    the others)."""
    found = await repo.neighbours_each(norms, NEIGHBOURS)
    return _unique(f for f in found if not f.source.startswith(PROPOSALS))


def _by_end(facts: Iterable[Fact]) -> dict[str, list[Fact]]:
    """The facts by each of their ends (normalised), in their order."""
    found: dict[str, list[Fact]] = {}
    for fact in facts:
        for norm in dict.fromkeys((fact.subject_norm, fact.object_norm)):
            found.setdefault(norm, []).append(fact)
    return found


def _unique(facts: Iterable[Fact]) -> list[Fact]:
    return list({f.id: f for f in facts}.values())


def _starts(fact: Fact) -> list[str]:
    """A fact read either way: from its subject, or from its object."""
    return [fact.subject] if fact.subject_norm == fact.object_norm else [fact.subject, fact.object]


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
