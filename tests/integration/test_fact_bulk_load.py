"""The bulk load path (`coordbot facts import`, FactRepository.bulk_upsert) on SQLite and
PostgreSQL: one row per normalised triple into an empty table and into one that already
holds facts, hand-added facts kept from derived sources, ids in key order, text that
needs escaping, and the connections' settings put back afterwards, also after a failure."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select

from app.core.graph.graph_import import import_lines
from app.core.graph.graph_service import GraphService
from app.domain.clock import FrozenClock
from app.persistence.database import Database
from app.persistence.models import FactRow
from app.persistence.repositories.facts import FactRepository, NewFact
from tests.conftest import NOW

Stored = tuple[str, str, str, float, str]


@pytest.fixture
def graph(database: Database, clock: FrozenClock) -> GraphService:
    return GraphService(database, clock)


async def stored(db: Database) -> list[Stored]:
    """Every fact in id order, as written, with confidence and source."""
    columns = (FactRow.subject, FactRow.predicate, FactRow.object, FactRow.confidence,
               FactRow.source)  # fmt: skip
    async with db.transaction() as session:
        rows = await session.execute(select(*columns).order_by(FactRow.id))
    return [tuple(row) for row in rows]  # type: ignore[misc]


def tsv(*facts: tuple[object, ...]) -> list[str]:
    return ["\t".join(map(str, fact)) + "\n" for fact in facts]


async def test_bulk_load_into_an_empty_table_keeps_one_row_per_triple(
    graph: GraphService, database: Database
) -> None:
    lines = tsv(*[(f"Gadget {i:02}", "made by", "Acme", 0.5) for i in range(30)])
    lines += tsv(("gadget 07", "MADE BY", "acme", 0.9), ("Gadget_08", "made_by", "ACME"))

    report = await graph.import_tsv(lines, batch_size=8)  # five batches: the worker runs

    assert (report.lines, report.skipped, report.errors) == (32, 0, [])
    facts = await stored(database)
    assert len(facts) == 30
    by_subject = {f[0].casefold().replace("_", " "): f for f in facts}
    # A later line updates confidence and source; the fact keeps its first wording.
    assert by_subject["gadget 07"] == ("Gadget 07", "made by", "Acme", 0.9, "manual")
    assert by_subject["gadget 08"] == ("Gadget 08", "made by", "Acme", 1.0, "manual")
    assert by_subject["gadget 09"] == ("Gadget 09", "made by", "Acme", 0.5, "manual")


async def test_bulk_load_upserts_into_a_table_that_holds_facts(
    graph: GraphService, database: Database
) -> None:
    await graph.store_facts([NewFact("Edison", "invented", "light bulb", 0.4),
                             NewFact("Tesla", "invented", "AC motor", 0.6)])  # fmt: skip
    lines = tsv(("EDISON", "invented", "Light_Bulb", 0.95), ("Bell", "invented", "telephone"))
    lines += tsv(*[(f"Person {i}", "knows", "Edison", 0.7) for i in range(20)])

    report = await graph.import_tsv(lines, batch_size=5)

    assert report.imported == 22
    facts = await stored(database)
    assert len(facts) == 23  # 2 + 21 new: the light bulb is updated, not repeated
    assert facts[0] == ("Edison", "invented", "light bulb", 0.95, "manual")
    assert facts[1] == ("Tesla", "invented", "AC motor", 0.6, "manual")
    again = await graph.import_tsv(lines, batch_size=5)  # the same file twice: no change
    assert again.imported == 22 and await stored(database) == facts


async def test_a_derived_bulk_load_does_not_take_over_hand_added_facts(
    graph: GraphService, database: Database, clock: FrozenClock
) -> None:
    await graph.store_fact("Policy", "allows", "dogs", 0.7)
    await graph.replace_sources({"document:old": [("Policy", "allows", "cats")]}, 0.5)
    lines = tsv(("policy", "ALLOWS", "Dogs", 0.2), ("Policy", "allows", "cats", 0.3))

    await import_lines(database, lines, clock.now(), source="document:new")

    assert await stored(database) == [
        ("Policy", "allows", "dogs", 0.7, "manual"),  # still the admin's
        ("Policy", "allows", "cats", 0.3, "document:new"),  # derived: the newer source wins
    ]
    async with database.transaction() as session:  # the other bulk entry point agrees
        rows = [("Policy", "allows", "dogs", "policy", "allows", "dogs", 0.1, "document:x",
                 "polici allow dog")]  # fmt: skip
        assert await FactRepository(session).bulk_upsert(rows, NOW) == 1
    assert (await stored(database))[0] == ("Policy", "allows", "dogs", 0.7, "manual")
    await import_lines(database, lines, clock.now())  # a manual load takes a derived fact
    assert (await stored(database))[1] == ("Policy", "allows", "cats", 0.3, "manual")


async def test_bulk_upsert_called_again_in_the_same_transaction(database: Database) -> None:
    """Each call merges only its own rows, however often a transaction calls it."""
    async with database.transaction() as session:
        for confidence in (0.5, 0.9, 0.5):
            rows = [("A", "is", "x", "a", "is", "x", confidence, "manual", "x")]
            assert await FactRepository(session).bulk_upsert(rows, NOW) == 1
    assert await stored(database) == [("A", "is", "x", 0.5, "manual")]


async def test_ids_follow_key_order_within_a_batch(graph: GraphService, database: Database) -> None:
    """PostgreSQL writes each batch in two halves at once; the order stays the keys'."""
    names = [f"Item {i:05}" for i in range(5000)]
    await graph.import_tsv(tsv(*[(n, "is", "thing") for n in reversed(names)]))

    assert [f[0] for f in await stored(database)] == names
    found = await graph.find_facts({"object": "thing"}, 100)
    assert [f["subject"] for f in found.as_dict()["facts"]] == names[:100]


async def test_text_that_needs_escaping_arrives_as_written(
    graph: GraphService, database: Database
) -> None:
    awkward = [r"C:\temp\new", r"\N", "back\\slash\\", "naïve café ☕", "'quoted' \"too\""]
    report = await graph.import_tsv(tsv(*[(text, "is", "awkward") for text in awkward]))

    assert report.skipped == 0
    assert sorted(f[0] for f in await stored(database)) == sorted(awkward)
    found = await graph.find_facts({"subject": r"c:\TEMP\new"})
    assert found.count == 1


async def _pragmas(db: Database) -> tuple[int, int]:
    async with db.engine.connect() as connection:
        synchronous = (await connection.exec_driver_sql("PRAGMA synchronous")).scalar()
        cache = (await connection.exec_driver_sql("PRAGMA cache_size")).scalar()
    return int(synchronous or 0), int(cache or 0)


def _failing_lines(good: int) -> Iterator[str]:
    for i in range(good):
        yield f"Part {i}\tbelongs to\tMachine\n"
    raise OSError("the disk went away")


async def test_sqlite_settings_are_put_back_after_a_load_and_after_a_failure(
    sqlite_database: Database, clock: FrozenClock
) -> None:
    graph = GraphService(sqlite_database, clock)
    before = await _pragmas(sqlite_database)  # the one pooled connection, used throughout

    await graph.import_tsv(tsv(("Einstein", "is", "scientist")))
    assert await _pragmas(sqlite_database) == before
    with pytest.raises(OSError, match="went away"):
        await import_lines(sqlite_database, _failing_lines(12), clock.now(), batch_size=5)
    assert await _pragmas(sqlite_database) == before
    pool = sqlite_database.engine.pool
    assert (pool.checkedout(), pool.checkedin()) == (0, 1)  # type: ignore[attr-defined]
    assert len(await stored(sqlite_database)) == 11  # the batches written before it
