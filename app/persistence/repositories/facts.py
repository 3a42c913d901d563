"""Facts: one row per normalised (subject, predicate, object), looked up through indexes.

Every lookup matches a normalised column exactly (``normalize`` from
app.nlp.key_terms), so it is an index scan on both databases, and results come
back in insertion order (``id``). Bulk loads bypass the ORM (fact_bulk).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import case, delete, func, literal_column, select, text, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from app.nlp.key_terms import normalize
from app.nlp.lexical import fact_lexical
from app.persistence import fact_version
from app.persistence.models import FactRow
from app.persistence.repositories.base import dialect_insert
from app.persistence.repositories.fact_bulk import LoadRow, upsert_rows

_COLUMNS = (
    FactRow.id,
    FactRow.subject,
    FactRow.predicate,
    FactRow.object,
    FactRow.confidence,
    FactRow.source,
    FactRow.subject_norm,
    FactRow.predicate_norm,
    FactRow.object_norm,
)
MANUAL = "manual"
_NOT_MANUAL = FactRow.source != literal_column("'manual'")


@dataclass(frozen=True, slots=True)
class Fact:
    id: int
    subject: str
    predicate: str
    object: str
    confidence: float
    source: str
    subject_norm: str
    predicate_norm: str
    object_norm: str

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.subject_norm, self.predicate_norm, self.object_norm)

    def triple(self) -> dict[str, str]:
        return {"subject": self.subject, "predicate": self.predicate, "object": self.object}


class NewFact(NamedTuple):
    """A fact to store, already validated (app.core.graph.graph_import.clean_fact)."""

    subject: str
    predicate: str
    object: str
    confidence: float = 1.0
    source: str = "manual"

    @property
    def key(self) -> tuple[str, str, str]:
        return (normalize(self.subject), normalize(self.predicate), normalize(self.object))


def _fact(row: Any) -> Fact:
    return Fact(*row)


def _last_wins(facts: Iterable[NewFact]) -> dict[tuple[str, str, str], NewFact]:
    """One per normalised triple (the last one given), so one statement never hits a row twice."""
    return {fact.key: fact for fact in facts}


def _equal_oldest_first(column: Any, value: str) -> tuple[Any, tuple[Any, ...]]:
    """``column = value`` ordered by id, written so the planner walks (column, id).

    With ``= value ORDER BY id`` PostgreSQL may walk the primary key and filter, which
    reads most of the table when the matching facts are not spread evenly over ids
    (seen: 95,000 rows read for 10). A one-value range is the same filter, but the
    column is no longer a constant to the planner, so only the (column, id) index
    delivers ``ORDER BY column, id`` and the scan stops after LIMIT rows. SQLite plans
    it the same way.
    """
    return (column >= value) & (column <= value), (column, FactRow.id)


def _in_id_order(rows: Iterable[Any]) -> list[Fact]:
    unique = {row[0]: row for row in rows}
    return [_fact(unique[i]) for i in sorted(unique)]


class FactRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def _predicate_as_filter(self) -> Any:
        """The predicate column for a query that also names a subject or an object.

        Without statistics SQLite prefers (predicate_norm, id), which spares it the sort
        but reads every fact with that predicate; a unary + keeps it on the subject or
        object index. PostgreSQL plans this well from its statistics.
        """
        if self.session.get_bind().dialect.name == "sqlite":
            return literal_column("+facts.predicate_norm")
        return FactRow.predicate_norm

    # -- reads ---------------------------------------------------------------------------

    async def get(self, fact_id: int) -> Fact | None:
        row = (await self.session.execute(select(*_COLUMNS).where(FactRow.id == fact_id))).first()
        return _fact(row) if row else None

    async def get_by_key(self, key: tuple[str, str, str]) -> Fact | None:
        s, p, o = key
        stmt = select(*_COLUMNS).where(
            FactRow.subject_norm == s, FactRow.predicate_norm == p, FactRow.object_norm == o
        )
        row = (await self.session.execute(stmt)).first()
        return _fact(row) if row else None

    async def find(
        self,
        *,
        subject: str | None = None,
        predicate: str | None = None,
        obj: str | None = None,
        limit: int = 10,
    ) -> list[Fact]:
        """Facts matching every normalised part given, oldest first."""
        stmt = select(*_COLUMNS)
        if subject is not None:
            stmt = stmt.where(FactRow.subject_norm == subject)
        alone = subject is None and obj is None
        order: tuple[Any, ...] = (FactRow.id,)  # a subject's facts are few: sorted after
        if obj is not None:
            if subject is None:
                condition, order = _equal_oldest_first(FactRow.object_norm, obj)
                stmt = stmt.where(condition)
            else:
                stmt = stmt.where(FactRow.object_norm == obj)
        if predicate is not None:
            if alone:
                condition, order = _equal_oldest_first(FactRow.predicate_norm, predicate)
                stmt = stmt.where(condition)
            else:
                stmt = stmt.where(self._predicate_as_filter() == predicate)
        rows = await self.session.execute(stmt.order_by(*order).limit(limit))
        return [_fact(r) for r in rows]

    async def search(
        self,
        *,
        subjects: Sequence[str] = (),
        objects: Sequence[str] = (),
        predicates: Sequence[str] = (),
        per_term: int = 100,
    ) -> list[Fact]:
        """The first ``per_term`` facts per term and role: one round trip, no duplicates."""
        lookups = [(FactRow.subject_norm == t, (FactRow.id,)) for t in dict.fromkeys(subjects)]
        lookups += [_equal_oldest_first(FactRow.object_norm, t) for t in dict.fromkeys(objects)]
        lookups += [
            _equal_oldest_first(FactRow.predicate_norm, t) for t in dict.fromkeys(predicates)
        ]
        parts = [
            select(*_COLUMNS).where(condition).order_by(*order).limit(per_term)
            for condition, order in lookups
        ]
        return await self._union(parts)

    async def _union(self, parts: Sequence[Any]) -> list[Fact]:  # Selects of _COLUMNS
        if not parts:
            return []
        if len(parts) == 1:
            return _in_id_order(await self.session.execute(parts[0]))
        # SQLite wants LIMIT outside a compound member, hence one subquery level each.
        wrapped = [select(part.subquery()) for part in parts]
        return _in_id_order(await self.session.execute(union_all(*wrapped)))

    async def existing_entities(self, norms: Sequence[str]) -> set[str]:
        """Which of these normalised names occur as a subject or an object."""
        norms = list(dict.fromkeys(n for n in norms if n))
        if not norms:
            return set()
        values = ", ".join(f"(:v{i})" for i in range(len(norms)))
        stmt = text(
            f"WITH c(v) AS (VALUES {values}) SELECT v FROM c "
            "WHERE EXISTS (SELECT 1 FROM facts WHERE subject_norm = c.v) "
            "OR EXISTS (SELECT 1 FROM facts WHERE object_norm = c.v)"
        )
        rows = await self.session.execute(stmt, {f"v{i}": n for i, n in enumerate(norms)})
        return {r[0] for r in rows}

    async def entity_names(self, limit: int, *, skip_source_prefix: str = "") -> list[str]:
        """Subjects and objects as written, at most ``limit`` of each (for /ask's words),
        leaving out facts whose source starts with ``skip_source_prefix`` when given."""
        subjects = select(FactRow.subject).distinct().limit(limit)
        objects = select(FactRow.object).distinct().limit(limit)
        if skip_source_prefix:
            own = ~FactRow.source.startswith(skip_source_prefix, autoescape=True)
            subjects, objects = subjects.where(own), objects.where(own)
        found = [*await self.session.scalars(subjects), *await self.session.scalars(objects)]
        return list(dict.fromkeys(found))

    async def predicate_vocabulary(self, limit: int = 5000) -> list[str]:
        """Distinct normalised predicates, by a loose index scan: one index probe per
        predicate instead of reading every row (neither database skips on its own)."""
        stmt = text(
            "WITH RECURSIVE p(v, n) AS ("
            " SELECT MIN(predicate_norm), 1 FROM facts"
            " UNION ALL"
            " SELECT (SELECT MIN(f.predicate_norm) FROM facts f WHERE f.predicate_norm > p.v),"
            " p.n + 1 FROM p WHERE p.v IS NOT NULL AND p.n < :limit"
            ") SELECT v FROM p WHERE v IS NOT NULL"
        )
        return [r[0] for r in await self.session.execute(stmt, {"limit": limit})]

    async def hop(
        self, entities: Sequence[str], predicates: Sequence[str], limit: int = 1000
    ) -> list[Fact]:
        """Facts with one of ``predicates`` that touch one of ``entities`` at either end."""
        if not entities or not predicates:
            return []
        ents, preds = list(entities), list(predicates)
        parts = [
            select(*_COLUMNS)
            .where(end.in_(ents), self._predicate_as_filter().in_(preds))
            .order_by(FactRow.id)
            .limit(limit)
            for end in (FactRow.subject_norm, FactRow.object_norm)
        ]
        return await self._union(parts)

    async def neighbours(self, entities: Sequence[str], limit: int = 200) -> list[Fact]:
        """Facts with one of ``entities`` as subject or object."""
        if not entities:
            return []
        ents = list(entities)
        parts = [
            select(*_COLUMNS).where(end.in_(ents)).order_by(FactRow.id).limit(limit)
            for end in (FactRow.subject_norm, FactRow.object_norm)
        ]
        return (await self._union(parts))[:limit]

    async def neighbours_each(self, entities: Sequence[str], limit: int) -> list[Fact]:
        """Facts with one of ``entities`` as subject or object, up to ``limit`` for each
        (a busy one does not crowd out the others), in one query: each entity's first
        ``limit`` by id, as ``neighbours`` would give them one at a time."""
        ents = list(dict.fromkeys(e for e in entities if e))
        parts = [
            select(*_COLUMNS).where(end == e).order_by(FactRow.id).limit(limit)
            for e in ents
            for end in (FactRow.subject_norm, FactRow.object_norm)
        ]
        touching: dict[str, list[Fact]] = {}
        for fact in await self._union(parts):  # in id order
            for end in {fact.subject_norm, fact.object_norm}:
                touching.setdefault(end, []).append(fact)
        kept: dict[int, Fact] = {}
        for e in ents:
            for fact in touching.get(e, [])[:limit]:
                kept.setdefault(fact.id, fact)
        return list(kept.values())

    async def signature(self) -> int:
        """The facts' version (app.persistence.fact_version): it moves whenever a fact is
        added, changed or removed, so a derived index can tell cheaply whether it is behind."""
        return int(await self.session.scalar(text(fact_version.READ)) or 0)

    async def all_ids(self) -> set[int]:
        return set(await self.session.scalars(select(FactRow.id)))

    async def ids_with_source_prefix(self, prefix: str) -> set[int]:
        """The ids of the facts whose source starts with ``prefix`` ("proposal:"), read
        as a range of the partial index on source (so never "manual")."""
        if not prefix:
            raise ValueError("a source prefix is needed")
        after = prefix[:-1] + chr(ord(prefix[-1]) + 1)  # the first string past the prefix
        stmt = select(FactRow.id).where(
            FactRow.source >= prefix, FactRow.source < after, _NOT_MANUAL
        )
        return set(await self.session.scalars(stmt))

    async def get_many(self, ids: Sequence[int]) -> list[Fact]:
        """The facts with these ids that exist, oldest first."""
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return []
        rows = await self.session.execute(select(*_COLUMNS).where(FactRow.id.in_(wanted)))
        return _in_id_order(rows)

    async def count(self, source: str | None = None) -> int:
        stmt = select(func.count()).select_from(FactRow)
        if source is not None:
            stmt = stmt.where(FactRow.source == source)
        return int(await self.session.scalar(stmt) or 0)

    # -- writes --------------------------------------------------------------------------

    async def upsert_many(self, facts: Iterable[NewFact], now: datetime, *, language: str) -> None:
        """Store facts (a new one with its lexical terms in ``language``, BOT_LANGUAGE); a
        triple already present gets the new confidence and source, unless an admin added
        it by hand and the new one is derived."""
        values = [
            {
                "subject": f.subject, "predicate": f.predicate, "object": f.object,
                "subject_norm": key[0], "predicate_norm": key[1], "object_norm": key[2],
                "confidence": f.confidence, "source": f.source, "created_at": now,
                "lexical": fact_lexical(f.subject, f.predicate, f.object, language),
            }
            for key, f in _last_wins(facts).items()
        ]  # fmt: skip
        if not values:
            return
        stmt = dialect_insert(self.session, FactRow)
        # A fact an admin added stays theirs when a proposal or document later derives
        # the same triple: otherwise re-syncing that source would delete it.
        keep = (FactRow.source == MANUAL) & (stmt.excluded.source != MANUAL)
        stmt = stmt.on_conflict_do_update(
            index_elements=[FactRow.subject_norm, FactRow.predicate_norm, FactRow.object_norm],
            set_={
                "confidence": case((keep, FactRow.confidence), else_=stmt.excluded.confidence),
                "source": case((keep, FactRow.source), else_=stmt.excluded.source),
            },
        )
        await self.session.execute(stmt, values)

    async def delete(self, fact_id: int) -> bool:
        result = await self.session.execute(delete(FactRow).where(FactRow.id == fact_id))
        return bool(result.rowcount)  # type: ignore[attr-defined]

    async def delete_by_source(self, source: str) -> int:
        """Remove everything one origin contributed ("proposal:12", "document:<uuid>")."""
        return await self.delete_by_sources([source])

    async def delete_by_sources(self, sources: Sequence[str]) -> int:
        if MANUAL in sources:
            raise ValueError("manual facts are deleted one by one, not by source")
        if not sources:
            return 0
        # The literal term lets both databases use the partial index ix_facts_source.
        stmt = delete(FactRow).where(FactRow.source.in_(list(sources)), _NOT_MANUAL)
        result = await self.session.execute(stmt)
        return int(result.rowcount)  # type: ignore[attr-defined]

    async def bulk_upsert(self, rows: Sequence[LoadRow], now: datetime) -> int:
        """The fast path for large loads; same effect as ``upsert_many``. ``rows`` are
        unique by normal form and best sorted by it, and carry their lexical terms
        (``fact_bulk.load_row``). Returns how many rows were written.
        (`coordbot facts import` goes through fact_bulk.BulkWriter, tuned for the job.)"""
        if rows:
            await upsert_rows(await self.session.connection(), rows, now)
        return len(rows)

    async def analyze(self) -> None:
        """Refresh the planner's statistics (after a bulk load changed the table a lot)."""
        await self.session.execute(text("ANALYZE facts"))
