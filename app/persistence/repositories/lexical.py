"""Lexical retrieval: passages, proposals and facts ranked by the words they share with
a question (SQLite FTS5 BM25, PostgreSQL full-text search).

Terms come normalised (``app.nlp.lexical.lexical_terms`` of the question, in the
community's language) and are matched against each row's ``lexical`` column
(app.persistence.lexical_schema): any of the terms (OR), ranked, best first. A term is
data, never query syntax: on SQLite each is one quoted FTS5 string, on PostgreSQL each
goes through ``plainto_tsquery`` as a bound parameter.

Scores are higher-is-better within one call and one database: the negated ``bm25()`` on
SQLite; on PostgreSQL ``ts_rank`` normalised by the log of the row's length. Both grow
with each distinct term a row holds, less and less with repeats of one term, and favour
the shorter of two rows that hold the same; only BM25 also weighs a rare term above a
common one. So compare ranks (e.g. reciprocal rank fusion), not scores, and expect
the two databases to order alike where coverage, repeats and length decide, not where
rarity does. (``ts_rank``, not ``ts_rank_cd``: cover density adds up every occurrence,
so a row repeating one common term beats a row holding several, and it cost twice as
much per matching row at 50,000 chunks.) Ties: proposals newest first and facts oldest
first on both databases; chunks in the order they were stored on SQLite, by document
and position on PostgreSQL.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    Table,
    bindparam,
    column,
    func,
    literal_column,
    select,
)
from sqlalchemy import table as table_clause
from sqlalchemy.ext.asyncio import AsyncSession

from app.persistence.knowledge_models import ChunkRow, DocumentRow
from app.persistence.lexical_schema import CHUNKS, FACTS, PROPOSALS, TSV_COLUMN, Source
from app.persistence.models import FactRow, ProposalRow

MAX_TERMS = 64  # a question has a few dozen at most; more is a pasted text
# ts_rank's normalisation: divide by 1 + log(number of words), as BM25 discounts long
# rows (a little).
PG_RANK_NORMALISATION = 1
_TOKEN = re.compile(r"[^\W_]")


def search_terms(terms: Sequence[str]) -> list[str]:
    """The distinct terms that can match anything (some letter or digit), in order."""
    seen = dict.fromkeys(t for t in terms if isinstance(t, str) and _TOKEN.search(t))
    return list(seen)[:MAX_TERMS]


def fts5_query(terms: Sequence[str]) -> str:
    """An FTS5 MATCH expression: any of ``terms``, each a quoted string (so ``OR``, ``*``,
    ``:``, ``NEAR``, parentheses and quotes in a term are text, not syntax)."""
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


def _tsquery(terms: Sequence[str]) -> Any:
    parts = [
        func.plainto_tsquery(literal_column("'simple'::regconfig"), bindparam(f"t{i}", term))
        for i, term in enumerate(terms)
    ]
    query: Any = parts[0]
    for part in parts[1:]:
        query = query.op("||")(part)
    return query


class _Search:
    """One source's lexical query: the rows whose terms match, the conditions and joins
    that narrow them, and how ties are broken."""

    def __init__(self, source: Source, table: Table, *, newest_first: bool = False) -> None:
        self.source = source
        self.table = table
        self.newest_first = newest_first
        self.joins: list[tuple[Any, Any]] = []
        self.conditions: list[Any] = []

    def sqlite(self, terms: list[str], limit: int) -> Any:
        fts: Any = literal_column(self.source.fts)  # the FTS5 table's own hidden column
        entries = table_clause(self.source.fts, column("rowid"))
        rowid = _rowid(self.source, self.table)
        rank = func.bm25(fts).label("rank")
        match = fts.op("MATCH")(bindparam("q", fts5_query(terms)))
        tie = entries.c.rowid.desc() if self.newest_first else entries.c.rowid
        key = self.table.c.id
        if not self.joins and not self.conditions:
            # The best few straight from the FTS5 table, then their rows: joining every
            # match before the cut cost twice as much at 50,000 chunks.
            best = select(entries.c.rowid, rank).where(match).order_by(rank, tie).limit(limit)
            top = best.subquery()
            outer_tie = top.c.rowid.desc() if self.newest_first else top.c.rowid
            return (
                select(key, top.c.rank)
                .select_from(top.join(self.table, rowid == top.c.rowid))
                .order_by(top.c.rank, outer_tie)
            )
        joined: Any = entries.join(self.table, rowid == entries.c.rowid)
        for target, on in self.joins:
            joined = joined.join(target, on)
        return (
            select(key, rank)
            .select_from(joined)
            .where(match, *self.conditions)
            .order_by(rank, tie)
            .limit(limit)
        )

    def postgres(self, terms: list[str], limit: int, ties: Sequence[Any]) -> Any:
        vector: Any = literal_column(f"{self.table.name}.{TSV_COLUMN}")  # the GIN index's
        query = _tsquery(terms)
        score = func.ts_rank(vector, query, PG_RANK_NORMALISATION).label("score")
        stmt: Any = select(self.table.c.id, score).select_from(self.table)
        for target, on in self.joins:
            stmt = stmt.join(target, on)
        return (
            stmt.where(vector.op("@@")(query), *self.conditions)
            .order_by(score.desc(), *ties)
            .limit(limit)
        )


class LexicalSearch:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def _run(
        self, search: _Search, terms: Sequence[str], limit: int, ties: Sequence[Any]
    ) -> list[tuple[Any, float]]:
        wanted = search_terms(terms)
        if not wanted or limit < 1:
            return []
        if self.session.get_bind().dialect.name == "postgresql":
            found = await self.session.execute(search.postgres(wanted, limit, ties))
            return [(key, float(score)) for key, score in found]
        found = await self.session.execute(search.sqlite(wanted, limit))
        return [(key, -float(rank)) for key, rank in found]  # bm25(): lower is better

    async def chunks(
        self,
        terms: Sequence[str],
        limit: int,
        *,
        proposal_id: int | None = None,
        document_id: str | None = None,
        category: str | None = None,
    ) -> list[tuple[str, float]]:
        """(chunk id, score), best first; only chunks of documents matching every filter."""
        table = cast(Table, ChunkRow.__table__)
        search = _Search(CHUNKS, table)
        if proposal_id is not None or document_id is not None or category is not None:
            documents = cast(Table, DocumentRow.__table__)
            search.joins.append((documents, documents.c.id == table.c.document_id))
            if proposal_id is not None:
                search.conditions.append(documents.c.proposal_id == proposal_id)
            if document_id is not None:
                search.conditions.append(documents.c.id == document_id)
            if category is not None:
                search.conditions.append(documents.c.category == category)
        ties = (table.c.document_id, table.c.chunk_index)
        return [(str(k), s) for k, s in await self._run(search, terms, limit, ties)]

    async def proposals(
        self, terms: Sequence[str], limit: int, where: ColumnElement[bool] | None = None
    ) -> list[tuple[int, float]]:
        """(proposal id, score), best first; ``where`` is any condition on the proposals
        table (status, type, dates, proposer: the filters /ask read)."""
        table = cast(Table, ProposalRow.__table__)
        search = _Search(PROPOSALS, table, newest_first=True)
        if where is not None:
            search.conditions.append(where)
        found = await self._run(search, terms, limit, (table.c.id.desc(),))
        return [(int(k), s) for k, s in found]

    async def facts(
        self, terms: Sequence[str], limit: int, *, skip_source_prefix: str = ""
    ) -> list[tuple[int, float]]:
        """(fact id, score), best first; leaving out facts whose source starts with
        ``skip_source_prefix`` when given."""
        table = cast(Table, FactRow.__table__)
        search = _Search(FACTS, table)
        if skip_source_prefix:
            search.conditions.append(
                ~table.c.source.startswith(skip_source_prefix, autoescape=True)
            )
        found = await self._run(search, terms, limit, (table.c.id,))
        return [(int(k), s) for k, s in found]


def _rowid(source: Source, table: Table) -> Any:
    """The source row's integer key, as its FTS5 entries name it."""
    if source.rowid == "rowid":
        return literal_column(f"{table.name}.rowid")
    return table.c[source.rowid]


# -- keeping the column current ----------------------------------------------------------

# Per source: its table, its key, and the columns its text is made of, in order.
_TEXT_COLUMNS: dict[str, tuple[str, ...]] = {
    CHUNKS.table: ("content",),
    PROPOSALS.table: ("title", "description", "options"),
    FACTS.table: ("subject", "predicate", "object"),
}
_TABLES = {CHUNKS.table: ChunkRow, PROPOSALS.table: ProposalRow, FACTS.table: FactRow}


class LexicalColumns:
    """Reads rows' text and stored terms a batch at a time, and writes new terms
    (``coordbot reindex``: a changed normaliser or BOT_LANGUAGE is caught up)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def batch(
        self, source: Source, after: Any, limit: int
    ) -> list[tuple[Any, tuple[Any, ...], str | None]]:
        """Up to ``limit`` rows with a key above ``after`` (None: from the start), in key
        order: (key, the text columns' values, the stored terms)."""
        table = cast(Table, _TABLES[source.table].__table__)
        key = table.c.id
        stmt = select(key, table.c.lexical, *(table.c[c] for c in _TEXT_COLUMNS[source.table]))
        if after is not None:
            stmt = stmt.where(key > after)
        rows = await self.session.execute(stmt.order_by(key).limit(limit))
        return [(row[0], tuple(row[2:]), row[1]) for row in rows]

    async def store(self, source: Source, terms: dict[Any, str]) -> None:
        """Set ``lexical`` of each keyed row (the triggers update FTS5 in step)."""
        if not terms:
            return
        table = cast(Table, _TABLES[source.table].__table__)
        stmt = (
            table.update()
            .where(table.c.id == bindparam("k"))
            .values(lexical=bindparam("v"))
            .execution_options(synchronize_session=False)
        )
        await self.session.execute(stmt, [{"k": k, "v": v} for k, v in terms.items()])
