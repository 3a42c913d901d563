"""The fact graph's use cases: store and delete facts, find_facts, ask_question,
explore_connections and chained (multi-hop) questions.

Specs 001 (find_facts) and 000 (ask_question) fix the inputs, limits, messages
and shapes; this service fixes their flaws: the limit is applied, confidence is
the stored value, every candidate is scored before the list is cut, duplicates
are removed everywhere, the context breaks ties, and matching is
case-insensitive with simple stemming. Admin-only rules live here, so every
front door obeys them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, tzinfo
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.core.graph.graph_answers import Analysis, PredicateIndex, analyze, answer_from, relevance
from app.core.graph.graph_import import ImportReport, bounded, clean_fact, clean_text, import_lines
from app.core.graph.graph_results import AskResult, ExploreResult, FindFactsResult, ScoredFact
from app.core.graph.multihop import ContextStore, Hop, explore, follow, plan
from app.domain.clock import Clock, SystemClock
from app.domain.errors import NotFoundError, PermissionDeniedError, ValidationError
from app.domain.interfaces import FactIndex, NullFactIndex
from app.domain.messages import N_
from app.nlp.key_terms import candidate_ngrams, normalize
from app.persistence.database import Database
from app.persistence.repositories.facts import Fact, FactRepository, NewFact

logger = logging.getLogger(__name__)

MAX_QUESTION = 500
MAX_CONTEXT = 500
PER_TERM = 100  # spec 000's internal limit for each lookup
QUERY_FIELDS = ("subject", "predicate", "object")
VOCABULARY_TTL = 30.0  # seconds; other processes (the CLI) may add predicates meanwhile
ADMIN_ONLY = {  # require_admin's action -> the refusal
    "add facts": N_("Only admins can add facts."),
    "delete facts": N_("Only admins can delete facts."),
    "change facts": N_("Only admins can change facts."),
}


@dataclass(frozen=True)
class StoredFact:
    fact: Fact
    created: bool  # False: the triple was known; its confidence and source were updated


class GraphService:
    def __init__(
        self,
        db: Database,
        clock: Clock | None = None,
        *,
        admin_ids: frozenset[int] = frozenset(),
        timezone: tzinfo = UTC,
        language: str = "en",
        fact_index: FactIndex | None = None,
    ) -> None:
        self.db = db
        self.fact_index: FactIndex = fact_index or NullFactIndex()
        self.language = language  # BOT_LANGUAGE: the lexical terms' language
        self.clock: Clock = clock or SystemClock()
        self.admin_ids = admin_ids
        self.timezone = timezone  # for facts about dates, like a proposal's deadline month
        self._index: PredicateIndex | None = None
        self._index_loaded = 0.0

    # -- who may write -------------------------------------------------------------------

    def is_admin(self, user_id: int) -> bool:
        return user_id in self.admin_ids

    def require_admin(self, user_id: int, action: str = "change facts") -> None:
        if not self.is_admin(user_id):
            known = ADMIN_ONLY.get(action)
            if known is not None:
                raise PermissionDeniedError(known)
            raise PermissionDeniedError("Only admins can {action}.", action=action)

    # -- writes --------------------------------------------------------------------------

    async def add_fact(
        self, user_id: int, subject: str, predicate: str, obj: str, confidence: Any = 1.0
    ) -> StoredFact:
        """An admin adds (or re-confirms) a fact by hand."""
        self.require_admin(user_id, "add facts")
        return await self.store_fact(subject, predicate, obj, confidence)

    async def store_fact(
        self, subject: str, predicate: str, obj: str, confidence: Any = 1.0, source: str = "manual"
    ) -> StoredFact:
        """Store one fact for a trusted caller (the operator's CLI, the service itself)."""
        fact = clean_fact(subject, predicate, obj, confidence, source)
        async with self.db.transaction() as session:
            repo = FactRepository(session)
            created = await repo.get_by_key(fact.key) is None
            await repo.upsert_many([fact], self.clock.now(), language=self.language)
            stored = await repo.get_by_key(fact.key)
        assert stored is not None
        self._forget_vocabulary()
        return StoredFact(stored, created)

    async def store_facts(self, facts: Iterable[NewFact]) -> int:
        """Store validated facts (``clean_fact``) for a trusted caller, in one transaction."""
        batch = list(facts)
        async with self.db.transaction() as session:
            await FactRepository(session).upsert_many(
                batch, self.clock.now(), language=self.language
            )
        self._forget_vocabulary()
        return len(batch)

    async def replace_sources(
        self,
        facts_by_source: Mapping[str, Sequence[tuple[str, str, str] | tuple[str, str, str, float]]],
        confidence: float = 1.0,
        *,
        check: Callable[[AsyncSession], Awaitable[None]] | None = None,
    ) -> int:
        """Make each source's facts exactly these (proposals and documents stay current).

        A fact is (subject, predicate, object), with ``confidence``, or carries its own as
        a fourth item. ``check`` runs in the same transaction after the writes; raising
        there undoes them (a document deleted or changed while its facts were read).
        """
        facts = [
            clean_fact(s, p, o, own[0] if own else confidence, source)
            for source, items in facts_by_source.items()
            for s, p, o, *own in items
        ]
        async with self.db.transaction() as session:
            repo = FactRepository(session)
            await repo.delete_by_sources(list(facts_by_source))
            await repo.upsert_many(facts, self.clock.now(), language=self.language)
            if check is not None:
                await check(session)
        self._forget_vocabulary()
        return len(facts)

    async def delete_by_source(self, source: str) -> int:
        """Remove what one origin contributed, e.g. "document:<id>" when it is deleted."""
        async with self.db.transaction() as session:
            removed = await FactRepository(session).delete_by_source(source)
        self._forget_vocabulary()
        return removed

    async def delete_fact(self, user_id: int, subject: str, predicate: str, obj: str) -> Fact:
        self.require_admin(user_id, "delete facts")
        key = clean_fact(subject, predicate, obj).key
        async with self.db.transaction() as session:
            repo = FactRepository(session)
            fact = await repo.get_by_key(key)
            if fact is None:
                raise NotFoundError(
                    "There is no fact “{subject} {predicate} {object}”. "
                    "Use /facts <name> to see what is stored.",
                    subject=subject,
                    predicate=predicate,
                    object=obj,
                )
            await repo.delete(fact.id)
        self._forget_vocabulary()
        return fact

    async def delete_fact_by_id(self, user_id: int, fact_id: int) -> Fact:
        self.require_admin(user_id, "delete facts")
        async with self.db.transaction() as session:
            repo = FactRepository(session)
            fact = await repo.get(fact_id)
            if fact is None:
                raise NotFoundError("That fact is already gone.")
            await repo.delete(fact_id)
        self._forget_vocabulary()
        return fact

    async def get_fact(self, fact_id: int) -> Fact:
        async with self.db.transaction() as session:
            fact = await FactRepository(session).get(fact_id)
        if fact is None:
            raise NotFoundError("That fact is already gone.")
        return fact

    async def import_tsv(
        self,
        lines: Iterable[str],
        *,
        batch_size: int | None = None,
        progress: Callable[[ImportReport], None] | None = None,
        index_progress: Callable[[int, int], None] | None = None,
    ) -> ImportReport:
        """Bulk-load "subject<TAB>predicate<TAB>object[<TAB>confidence]" lines (trusted
        caller), then index the new facts' vectors (``index_progress`` follows that)."""
        report = await import_lines(
            self.db,
            lines,
            self.clock.now(),
            batch_size=batch_size,
            progress=progress,
            language=self.language,
        )
        async with self.db.transaction() as session:
            await FactRepository(session).analyze()
        self._forget_vocabulary()
        await self.index_facts(index_progress)
        return report

    async def index_facts(self, progress: Callable[[int, int], None] | None = None) -> None:
        """Bring the facts' vectors up to the table after a bulk write (an import, a seed,
        a document's facts), so the next question does not embed them. Best effort: what
        fails here, the next read catches up."""
        try:
            await self.fact_index.current(progress=progress)
        except Exception:
            logger.warning("indexing the facts' vectors failed; will retry", exc_info=True)

    async def count(self) -> int:
        async with self.db.transaction() as session:
            return await FactRepository(session).count()

    # -- find_facts ----------------------------------------------------------------------

    async def find_facts(
        self, query: Mapping[str, Any] | None, limit: Any = None
    ) -> FindFactsResult:
        """Spec 001: facts matching every part given (case-insensitive), oldest first."""
        if query is None:
            raise ValidationError("Missing required 'query' parameter")
        if not isinstance(query, Mapping):
            raise ValidationError("The 'query' parameter must name a subject, predicate or object")
        unknown = sorted(set(query) - set(QUERY_FIELDS))
        if unknown:
            raise ValidationError(
                "Unknown query field '{field}': use subject, predicate or object", field=unknown[0]
            )
        parts = {k: " ".join(str(query.get(k) or "").split()) or None for k in QUERY_FIELDS}
        if not any(parts.values()):
            raise ValidationError(
                "At least one of subject, predicate, or object must be specified in the query"
            )
        applied = bounded(limit, name="limit", default=10, maximum=100)
        norms = {k: normalize(v) if v else None for k, v in parts.items()}
        async with self.db.transaction() as session:
            facts = await FactRepository(session).find(
                subject=norms["subject"],
                predicate=norms["predicate"],
                obj=norms["object"],
                limit=applied,
            )
        return FindFactsResult(facts=facts, limit=applied, query=parts)

    async def facts_about(self, entity: str, limit: Any = None) -> FindFactsResult:
        """find_facts for an entity in either role (what /facts shows), oldest first."""
        name = clean_text(
            entity, name="name", limit=300, empty=N_("Which entity? For example: /facts Einstein")
        )
        applied = bounded(limit, name="limit", default=10, maximum=100)
        norm = normalize(name)
        async with self.db.transaction() as session:
            facts = await FactRepository(session).search(
                subjects=[norm], objects=[norm], per_term=applied
            )
        return FindFactsResult(
            facts=facts[:applied], limit=applied, query={"subject": name, "object": name}
        )

    # -- ask_question --------------------------------------------------------------------

    async def ask_question(
        self, question: Any, context: Any = None, max_results: Any = None
    ) -> AskResult:
        """Spec 000: key terms, every term searched as subject, object and predicate, all
        candidates scored and ranked, then cut to ``max_results``. A chained question is
        followed hop by hop instead (``result.chain`` holds the context store)."""
        text = clean_text(
            question, name="question", limit=MAX_QUESTION, empty=N_("Question cannot be empty")
        )
        hint = " ".join(str(context or "").split()) or None
        if hint is not None and len(hint) > MAX_CONTEXT:
            raise ValidationError(
                "The context is too long: at most {limit} characters.", limit=MAX_CONTEXT
            )
        wanted = bounded(max_results, name="max_results", default=5, maximum=20)
        async with self.db.transaction() as session:
            repo = FactRepository(session)
            analysis = await self._analyze(repo, text)
            if not analysis.key_terms:
                raise ValidationError("Could not extract meaningful terms from the question")
            chain = await self._chain(repo, analysis)
            if chain is None or not chain.complete:
                terms = list(
                    dict.fromkeys(
                        [normalize(t) for t in analysis.key_terms]
                        + [e.norm for e in analysis.entities]
                    )
                )
                candidates = await repo.search(
                    subjects=terms,
                    objects=terms,
                    predicates=sorted(analysis.predicates),
                    per_term=PER_TERM,
                )
        if chain is not None and chain.complete:
            # The path is the answer: keep its facts in hop order, each with its relevance.
            top = [
                ScoredFact(f, relevance(f, analysis.words, analysis.forms, analysis.singulars))
                for f in chain.facts
            ]
            top, answer = top[:wanted], chain.explain()
        else:
            top, answer = answer_from(candidates, analysis, hint, wanted)
        return AskResult(
            question=text,
            context=hint,
            key_terms=list(analysis.key_terms),
            relevant_facts=top,
            answer_text=answer,
            chain=chain,
        )

    async def answer_chain(self, question: str) -> ContextStore | None:
        """The context store for a chained question, or None if it is not one (for /ask)."""
        text = clean_text(
            question, name="question", limit=MAX_QUESTION, empty=N_("Question cannot be empty")
        )
        async with self.db.transaction() as session:
            repo = FactRepository(session)
            return await self._chain(repo, await self._analyze(repo, text))

    async def follow_path(self, anchor: str, relations: Sequence[str]) -> ContextStore:
        """Follow named relations from an entity ("Aspirin", ["treats", "has symptom"]);
        each relation matches stored predicates as a question word would."""
        name = clean_text(
            anchor, name="entity", limit=300, empty=N_("Which entity should I start from?")
        )
        if not relations or len(relations) > 4:
            raise ValidationError("Give between one and four relations to follow.")
        async with self.db.transaction() as session:
            repo = FactRepository(session)
            index = await self._vocabulary(repo)
            hops = [Hop(r, index.match(normalize(r)) | {normalize(r)}) for r in relations]
            return await follow(
                repo, f"{name}: {' / '.join(relations)}", name, normalize(name), hops
            )

    async def _analyze(self, repo: FactRepository, question: str) -> Analysis:
        index = await self._vocabulary(repo)
        ngrams = candidate_ngrams(question)
        existing = await repo.existing_entities([n for g in ngrams for n in g.norms])
        return analyze(question, ngrams, existing, index)

    async def _chain(self, repo: FactRepository, analysis: Analysis) -> ContextStore | None:
        planned = plan(analysis)
        if planned is None:
            return None
        anchor, hops = planned
        return await follow(repo, analysis.question, anchor.text, anchor.norm, hops)

    async def _vocabulary(self, repo: FactRepository) -> PredicateIndex:
        if self._index is None or time.monotonic() - self._index_loaded > VOCABULARY_TTL:
            self._index = PredicateIndex(await repo.predicate_vocabulary())
            self._index_loaded = time.monotonic()
        return self._index

    def _forget_vocabulary(self) -> None:
        self._index = None

    # -- explore_connections -------------------------------------------------------------

    async def explore_connections(
        self, entity: str, max_depth: Any = 2, limit: Any = None
    ) -> ExploreResult:
        """Facts reachable from an entity within ``max_depth`` hops (at most 4), breadth
        first, each with the path of facts that leads to it."""
        name = clean_text(
            entity, name="entity", limit=300, empty=N_("Which entity should I explore?")
        )
        depth = bounded(max_depth, name="max_depth", default=2, maximum=4)
        wanted = bounded(limit, name="limit", default=100, maximum=500)
        async with self.db.transaction() as session:
            connections = await explore(FactRepository(session), normalize(name), depth, wanted)
        return ExploreResult(entity=name, max_depth=depth, connections=connections)
