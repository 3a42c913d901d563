"""Loading many facts fast: a whole batch per statement, on connections set up for it.

At a million facts the database does most of the work, and what is left in Python is
per row. So a batch crosses over as bytes the import's worker process packed: on
PostgreSQL COPY text into a temporary table and one INSERT .. SELECT .. ON CONFLICT,
in two halves on two connections (the server then uses both cores); on SQLite one
executemany. The connections are held for the whole load, with settings that only make
sense for it, and left as they were found.

Same effect as ``FactRepository.upsert_many``: one row per normalised triple, a triple
already present takes the new confidence and source, except that a fact an admin added
by hand is not taken over by a derived source.
"""

from __future__ import annotations

import asyncio
import marshal
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.persistence import fact_version
from app.persistence.lexical_schema import FACTS, sqlite_bulk_insert

LOAD_COLUMNS = (
    "subject", "predicate", "object", "subject_norm", "predicate_norm", "object_norm",
    "confidence", "source", "lexical",
)  # fmt: skip
# subject, predicate, object, their three normal forms, confidence, source, and the
# lexical terms (app.nlp.lexical.fact_lexical: letters, digits and spaces only)
LoadRow = tuple[str, str, str, str, str, str, float, str, str]
POSTGRES_WRITERS = 2
SQLITE_CACHE_KIB = 256 * 1024  # the default 2 MB thrashes on random index inserts

_COLUMNS = ", ".join(LOAD_COLUMNS)
_KEY = "(subject_norm, predicate_norm, object_norm)"
# The WHERE leaves a hand-added fact alone when a derived source brings the same triple,
# and skips rewriting a row to what it already holds (a file loaded again).
_TAKE_OVER = (
    "DO UPDATE SET confidence = excluded.confidence, source = excluded.source "
    "WHERE (facts.source <> 'manual' OR excluded.source = 'manual') "
    "AND (facts.confidence <> excluded.confidence OR facts.source <> excluded.source)"
)
# n numbers the rows in COPY order, which is key order.
_STAGE = (
    "CREATE TEMP TABLE IF NOT EXISTS facts_load (n int GENERATED ALWAYS AS IDENTITY, "
    "subject text, predicate text, object text, subject_norm text, predicate_norm text, "
    "object_norm text, confidence float8, source text, lexical text) ON COMMIT DROP"
)
_MERGE = (
    f"INSERT INTO facts ({_COLUMNS}, created_at) SELECT {_COLUMNS}, $1 FROM facts_load "
    f"ON CONFLICT {_KEY} {_TAKE_OVER}"
)
_MERGE_WITH_IDS = (
    f"INSERT INTO facts (id, {_COLUMNS}, created_at) "
    f"SELECT ($2::int[])[n], {_COLUMNS}, $1 FROM facts_load ON CONFLICT {_KEY} {_TAKE_OVER}"
)
_SEQUENCE = "SELECT pg_get_serial_sequence('facts', 'id')::regclass::oid"
_RESERVE = "SELECT array_agg(nextval($1::oid::regclass) ORDER BY g) FROM generate_series(1, $2) g"


def writers(dialect: str) -> int:
    """How many connections write a batch at once (SQLite has one writer)."""
    return POSTGRES_WRITERS if dialect == "postgresql" else 1


def pack(rows: Sequence[LoadRow], dialect: str) -> list[bytes]:
    """``rows`` (unique by normal form, sorted) as ``BulkWriter.write`` takes them: on
    PostgreSQL one piece per writer, each a contiguous run of keys, so no two writers
    ever touch the same triple."""
    if dialect != "postgresql":
        # marshal: the fastest round trip for tuples of str and float between two
        # processes of this interpreter (pickle spends most of its time memoising).
        return [marshal.dumps(list(rows))]
    step = -(-len(rows) // writers(dialect)) or 1
    return [_copy_text(rows[i : i + step]) for i in range(0, len(rows), step)]


def _copy_text(rows: Sequence[LoadRow]) -> bytes:
    """COPY's text format. Cleaned parts hold no tab or newline (whitespace is collapsed
    to single spaces), so only backslashes need escaping."""
    text = "".join(
        [
            f"{s}\t{p}\t{o}\t{sn}\t{pn}\t{on}\t{c!r}\t{src}\t{lx}\n"
            for s, p, o, sn, pn, on, c, src, lx in rows
        ]
    )
    if "\\" in text:
        text = text.replace("\\", "\\\\")
    return text.encode()


def _stamp(now: datetime) -> str:
    return now.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")  # as UTCDateTime stores it


def _sqlite_upsert(now: datetime) -> str:
    return (
        f"INSERT INTO facts ({_COLUMNS}, created_at) "
        f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '{_stamp(now)}') ON CONFLICT {_KEY} {_TAKE_OVER}"
    )


@asynccontextmanager
async def _sqlite_triggers_per_batch(connection: AsyncConnection) -> AsyncIterator[None]:
    """Inside the caller's transaction: the facts' FTS5 entries are added, and their
    version moved, once for the whole batch instead of by triggers per row
    (lexical_schema.sqlite_bulk_insert, fact_version.sqlite_bulk_insert). New facts get
    keys above the largest before (AUTOINCREMENT); a fact already there keeps its terms,
    as an upsert changes only its confidence and source (its update trigger stays)."""
    before, after = sqlite_bulk_insert(FACTS)
    version_before, version_after = fact_version.sqlite_bulk_insert()
    last = (await connection.exec_driver_sql("SELECT coalesce(max(id), 0) FROM facts")).scalar()
    for statement in before + version_before:
        await connection.exec_driver_sql(statement)
    yield
    for statement in after + version_after:
        await connection.execute(text(statement), {"after": last})


async def _driver(connection: AsyncConnection) -> Any:
    raw = await connection.get_raw_connection()
    return raw.driver_connection  # asyncpg


async def _stage(driver: Any, payload: bytes) -> None:
    await driver.execute(_STAGE)
    # A memoryview: asyncpg would take bytes for a file name.
    await driver.copy_to_table("facts_load", source=memoryview(payload), columns=list(LOAD_COLUMNS))


async def upsert_rows(connection: AsyncConnection, rows: Sequence[LoadRow], now: datetime) -> None:
    """Rows into facts inside the connection's current transaction (no tuning)."""
    if connection.dialect.name == "postgresql":
        await connection.exec_driver_sql("SELECT 1")  # opens the transaction the COPY joins
        driver = await _driver(connection)
        await _stage(driver, _copy_text(rows))
        await driver.execute(_MERGE, now)
        # ON COMMIT DROP waits for the commit: a second call in this transaction would
        # merge these rows again (and fail on a key it changed twice).
        await driver.execute("DROP TABLE facts_load")
    else:
        # As for BulkWriter, a bigger page cache; an operator's job (a benchmark's set-up),
        # so this connection may keep it.
        cache = (await connection.exec_driver_sql("PRAGMA cache_size")).scalar()
        if int(cache or 0) > -SQLITE_CACHE_KIB:
            await connection.exec_driver_sql(f"PRAGMA cache_size = -{SQLITE_CACHE_KIB}")
        async with _sqlite_triggers_per_batch(connection):
            await connection.exec_driver_sql(_sqlite_upsert(now), list(rows))


class BulkWriter:
    """Writes packed batches, each in its own transaction(s), on held connections.

    On PostgreSQL the two halves of a batch commit separately (a failed load may leave
    one half in; loading the file again is harmless) and without waiting for the disk;
    leaving flushes everything committed. The batch's ids are reserved up front and
    handed out in key order, so they do not depend on which half got there first (ids
    are the order find_facts lists facts in). On SQLite the load runs with
    synchronous=OFF and a big page cache, both put back afterwards.
    """

    def __init__(self, engine: AsyncEngine, now: datetime) -> None:
        self.engine = engine
        self.now = now
        self.dialect = engine.dialect.name
        self.connections: list[AsyncConnection] = []
        self.restore: list[str] = []
        self.sequence = 0  # facts.id's, on PostgreSQL

    async def __aenter__(self) -> BulkWriter:
        try:
            for _ in range(writers(self.dialect)):
                self.connections.append(await self.engine.connect())
            if self.dialect == "sqlite":
                await self._tune_sqlite(self.connections[0])
            else:  # looked up once: by name per row it costs more than the ids themselves
                self.sequence = await (await _driver(self.connections[0])).fetchval(_SEQUENCE)
        except BaseException:
            await self._close(failed=True)
            raise
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if kind is None and self.dialect == "postgresql":
                await self._flush(self.connections[0])
        finally:
            await self._close(failed=kind is not None)

    async def write(self, payloads: Sequence[bytes]) -> None:
        if self.dialect == "postgresql":
            await self._write_postgres(payloads)
            return
        connection = self.connections[0]
        async with connection.begin(), _sqlite_triggers_per_batch(connection):
            for payload in payloads:
                await connection.exec_driver_sql(_sqlite_upsert(self.now), marshal.loads(payload))

    async def _write_postgres(self, payloads: Sequence[bytes]) -> None:
        drivers = [await _driver(c) for c in self.connections]
        sizes = [payload.count(b"\n") for payload in payloads]  # one line per row
        ids = await drivers[0].fetchval(_RESERVE, self.sequence, sum(sizes))
        starts = [sum(sizes[:i]) for i in range(len(sizes))]
        halves = [
            self._copy(driver, payload, ids[start : start + size])
            for driver, payload, start, size in zip(drivers, payloads, starts, sizes, strict=False)
        ]
        # Every half finishes (or fails) before this returns: none is left running.
        for result in await asyncio.gather(*halves, return_exceptions=True):
            if isinstance(result, BaseException):
                raise result

    async def _copy(self, driver: Any, payload: bytes, ids: list[int]) -> None:
        async with driver.transaction():
            await driver.execute("SET LOCAL synchronous_commit = off")
            await _stage(driver, payload)
            await driver.execute(_MERGE_WITH_IDS, self.now, ids)

    async def _tune_sqlite(self, connection: AsyncConnection) -> None:
        for pragma, value in (("synchronous", "OFF"), ("cache_size", f"-{SQLITE_CACHE_KIB}")):
            old = (await connection.exec_driver_sql(f"PRAGMA {pragma}")).scalar()
            self.restore.append(f"PRAGMA {pragma} = {int(old or 0)}")
            await connection.exec_driver_sql(f"PRAGMA {pragma} = {value}")
        await connection.commit()

    async def _flush(self, connection: AsyncConnection) -> None:
        """A synchronous commit that writes a record waits until the WAL is on disk up to
        it, and with it every batch committed before."""
        driver = await _driver(connection)
        async with driver.transaction():
            await driver.execute("SELECT txid_current()")

    async def _close(self, *, failed: bool = False) -> None:
        connections, self.connections = self.connections, []
        for connection in connections:
            try:
                if self.restore and connection is connections[0]:
                    for statement in self.restore:
                        await connection.exec_driver_sql(statement)
                    await connection.commit()
            except Exception:
                await connection.invalidate()  # never back to the pool with load settings
                if not failed:
                    raise
            finally:
                await connection.close()
