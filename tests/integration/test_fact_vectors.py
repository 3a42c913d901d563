"""The facts' vectors in two Chroma collections (fact_vectors): proposal facts apart, so
/ask's lookup by meaning is one unfiltered query; the catch-up moves a fact whose origin
changed, migrates a data directory from before the split without embedding again, and
bulk writers and ``reindex`` leave nothing for the first question to embed. SQLite and
PostgreSQL, the bundled model, embedded Chroma."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.container import Container
from app.core.graph.fact_vectors import COMMUNITY, PROPOSAL, FactVectors, fact_sentence, origin
from app.core.graph.proposal_facts import SOURCE_PREFIX
from app.domain.clock import FrozenClock
from app.persistence.database import Database
from app.persistence.repositories.facts import FactRepository
from app.services.vector_db_service import FACTS, PROPOSAL_FACTS
from tests.conftest import make_settings

COMMUNITY_FACTS = [
    ("Security Council", "led by", "Olena"),
    ("Security Council", "meets", "on Fridays"),
    ("Garden Committee", "chaired by", "Ines"),
]
FROM_PROPOSALS = {
    f"{SOURCE_PREFIX}{i}": [(f"Security council call {i}", "proposed by", "olena_k")]
    for i in range(12)
}


@pytest.fixture
async def kb(database: Database, clock: FrozenClock, tmp_path: Path) -> Container:
    kb = Container(make_settings(data_dir=tmp_path / "data"), clock=clock, database=database)
    for subject, predicate, obj in COMMUNITY_FACTS:
        await kb.graph.store_fact(subject, predicate, obj)
    await kb.graph.replace_sources(FROM_PROPOSALS)
    return kb


class Counting:
    """Counts the texts the vector store embeds, and records every query's filter."""

    def __init__(self, kb: Container) -> None:
        self.embedded = 0
        self.filters: list[object] = []
        embed, query = kb.vectors.embed, kb.vectors.query

        async def counted_embed(texts: Any) -> Any:
            self.embedded += len(texts)
            return await embed(texts)

        async def recorded_query(*args: Any, **kwargs: Any) -> Any:
            self.filters.append(args[3] if len(args) > 3 else kwargs.get("where"))
            return await query(*args, **kwargs)

        kb.vectors.embed = counted_embed  # type: ignore[method-assign]
        kb.vectors.query = recorded_query  # type: ignore[method-assign]


async def _ids(kb: Container) -> tuple[set[int], set[int]]:
    """(community fact ids, proposal fact ids) in SQL."""
    async with kb.db.transaction() as session:
        repo = FactRepository(session)
        every = await repo.all_ids()
        from_proposals = await repo.ids_with_source_prefix(SOURCE_PREFIX)
    return every - from_proposals, from_proposals


async def _held(kb: Container, name: str) -> set[int]:
    return {int(i) for i in await kb.vectors.all_ids(name)}


async def test_proposal_facts_have_a_collection_and_the_lookup_no_filter(kb: Container) -> None:
    vectors = kb.fact_vectors
    await vectors.current()
    community, from_proposals = await _ids(kb)
    assert len(community) == len(COMMUNITY_FACTS) and len(from_proposals) == len(FROM_PROPOSALS)
    assert await _held(kb, FACTS) == community
    assert await _held(kb, PROPOSAL_FACTS) == from_proposals
    counting = Counting(kb)
    embedding = (await kb.vectors.embed(["security council call proposed by olena"]))[0]
    # the proposal facts are nearest, yet the lookup returns the others, unfiltered
    both = await vectors.nearest(embedding, 2, kinds=(COMMUNITY, PROPOSAL))
    assert {i for i, _ in both} <= from_proposals
    own = await vectors.nearest(embedding, 2)
    assert len(own) == 2 and {i for i, _ in own} <= community
    assert counting.filters and all(where is None for where in counting.filters)
    assert [s for _, s in both] == sorted((s for _, s in both), reverse=True)


async def test_a_fact_whose_origin_changes_moves_without_a_new_embedding(kb: Container) -> None:
    await kb.fact_vectors.current()
    counting = Counting(kb)
    # an admin confirms a proposal's fact by hand: it is theirs now (FactRepository.upsert_many)
    taken = await kb.graph.store_fact("Security council call 3", "proposed by", "olena_k")
    assert not taken.created and taken.fact.source == "manual"
    await kb.graph.store_fact("Garden Committee", "meets", "on Sundays")  # the table moves
    await kb.fact_vectors.current()
    assert taken.fact.id in await _held(kb, FACTS)
    assert taken.fact.id not in await _held(kb, PROPOSAL_FACTS)
    assert counting.embedded == 1  # the new fact only; the moved one kept its vector


async def test_a_data_dir_from_before_the_split_is_moved_not_embedded_again(
    kb: Container,
) -> None:
    """Before the split every fact sat in graph_facts with its origin as metadata."""
    async with kb.db.transaction() as session:
        repo = FactRepository(session)
        facts = await repo.get_many(sorted(await repo.all_ids()))
    old = await kb.vectors.embed([fact_sentence(f) for f in facts])
    await kb.vectors.upsert(
        FACTS, [str(f.id) for f in facts], [fact_sentence(f) for f in facts],
        [{"origin": origin(f.source)} for f in facts], old,
    )  # fmt: skip
    counting = Counting(kb)
    restarted = FactVectors(kb.db, kb.vectors)  # a new process: nothing known yet
    await restarted.current()
    community, from_proposals = await _ids(kb)
    assert await _held(kb, FACTS) == community
    assert await _held(kb, PROPOSAL_FACTS) == from_proposals
    assert counting.embedded == 0
    moved = await restarted.of(sorted(from_proposals))
    by_id = {f.id: row for f, row in zip(facts, old, strict=True)}
    assert all(np.allclose(moved[i], by_id[i], atol=1e-6) for i in from_proposals)


async def test_a_bulk_import_stores_the_vectors_before_any_question(kb: Container) -> None:
    lines = [f"Working group {i}\tmeets in\tRoom {i}\n" for i in range(40)]
    seen: list[tuple[int, int]] = []
    report = await kb.graph.import_tsv(lines, index_progress=lambda d, t: seen.append((d, t)))
    assert report.imported == 40
    community, from_proposals = await _ids(kb)
    assert await _held(kb, FACTS) == community and len(community) == len(COMMUNITY_FACTS) + 40
    assert await _held(kb, PROPOSAL_FACTS) == from_proposals
    assert seen[0][1] == len(community) + len(from_proposals)  # nothing was indexed before
    assert sum(done for done, _ in seen) == seen[0][1]
    counting = Counting(kb)
    await FactVectors(kb.db, kb.vectors).current()  # the bot's process, after the CLI's import
    assert counting.embedded == 0


async def test_reindex_rebuilds_both_collections(kb: Container) -> None:
    await kb.fact_vectors.current()
    await kb.vectors.delete(FACTS, [str(i) for i in sorted(await _held(kb, FACTS))][:2])
    report = await kb.index.reindex()
    community, from_proposals = await _ids(kb)
    assert report["facts_indexed"] == len(community) + len(from_proposals)
    assert await _held(kb, FACTS) == community
    assert await _held(kb, PROPOSAL_FACTS) == from_proposals


async def test_the_vectors_a_question_read_are_kept_until_the_facts_change(
    kb: Container,
) -> None:
    vectors = kb.fact_vectors
    await vectors.current()
    community, _ = await _ids(kb)
    ids = sorted(community)
    stored = await kb.vectors.vectors(FACTS, [str(i) for i in ids])
    reads: list[list[str]] = []
    read = kb.vectors.vectors

    async def counted(name: str, wanted: Any) -> Any:
        if wanted:
            reads.append(list(wanted))
        return await read(name, wanted)

    kb.vectors.vectors = counted  # type: ignore[method-assign]
    first = await vectors.of(ids)
    assert sorted(first) == ids and reads == [[str(i) for i in ids]]
    assert all(np.array_equal(first[i], stored[str(i)]) for i in ids)
    again = await vectors.of(ids[:2])
    assert sorted(again) == ids[:2] and len(reads) == 1  # from memory: no Chroma read
    assert all(np.array_equal(again[i], first[i]) for i in ids[:2])

    async with kb.db.transaction() as session:  # the facts change: read afresh
        await FactRepository(session).delete(ids[0])
    await kb.graph.store_fact("Garden Committee", "meets", "on Mondays")
    await vectors.current()
    now, _ = await _ids(kb)
    after = await vectors.of(sorted(now | {ids[0]}))
    assert sorted(after) == sorted(now)  # the deleted fact's vector is not kept
    assert str(ids[1]) in reads[1]
