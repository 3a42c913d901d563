"""knowledge_import / knowledge_query with the real ONNX model and embedded Chroma."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from app.container import Container
from app.core.knowledge.index_service import chunk_text
from app.domain.clock import FrozenClock
from app.domain.errors import ValidationError
from app.domain.models import ProposalDraft, ProposalType, User
from app.persistence.database import Database
from app.services.vector_db_service import CHUNKS, PROPOSALS
from tests.conftest import NOW, make_settings

POLICIES = {
    "Parking policy": "Residents of the tower park in the underground garage with a permit "
    "from the building office. Visitor spaces by the entrance are limited to four hours.",
    "Recycling rules": "Paper, glass and plastic go in the coloured bins in the basement. "
    "Collection is on Tuesday mornings.",
    "Quiet hours": "Between 22:00 and 07:00 keep noise down; no drilling or loud music.",
    "Pets": "Dogs must be on a lead in the hallways and the garden.",
}


@pytest.fixture
async def kb(
    sqlite_database: Database, clock: FrozenClock, tmp_path: Path
) -> AsyncIterator[Container]:
    container = Container(
        make_settings(data_dir=tmp_path / "data"), clock=clock, database=sqlite_database
    )
    yield container


async def _import_policies(kb: Container) -> dict[str, str]:
    ids = {}
    for title, content in POLICIES.items():
        result = await kb.documents.knowledge_import(title, content, category="policy")
        ids[title] = result.document_id
    return ids


async def test_parking_question_finds_the_parking_policy(kb: Container) -> None:
    ids = await _import_policies(kb)
    found = await kb.documents.knowledge_query("how does parking work at the tower?", top_k=3)
    assert found["total"] == 3
    top = found["results"][0]
    assert top["document"] == {"id": ids["Parking policy"], "title": "Parking policy",
                               "category": "policy"}  # fmt: skip
    assert top["similarity"] > found["results"][1]["similarity"]
    assert 0 < top["similarity"] <= 1


async def test_funding_question_ranks_budget_proposal_above_pizza(kb: Container) -> None:
    proposer = User(1001, "alice")
    for title, description in (
        ("Pizza party", "Friday pizza on floor 4 for everyone"),
        ("Community budget 2027", "How to allocate the community fund and grants next year"),
        ("Garden benches", "Two new benches for the rooftop garden"),
    ):
        await kb.proposals.create_proposal(
            proposer,
            ProposalDraft(title, description, ProposalType.MULTIPLE_CHOICE, ["Yes", "No"],
                          NOW + timedelta(days=3)),
        )  # fmt: skip
    embedding = (await kb.vectors.embed(["which proposals are about funding?"]))[0]
    hits = await kb.vectors.query(PROPOSALS, embedding, 3)
    ranked = [h.metadata["proposal_id"] for h in hits]
    assert ranked.index(2) < ranked.index(1)
    assert hits[0].metadata["status"] == "open" and hits[0].metadata["proposal_type"] == (
        "multiple_choice"
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"title": " ", "content": "x"}, "title cannot be empty"),
        ({"title": "T", "content": ""}, "content cannot be empty"),
        ({"title": "T", "content": "x", "chunk_size": 99}, "chunk_size must be between 100 and 10000"),
        ({"title": "T", "content": "x", "chunk_size": 10001}, "chunk_size must be between 100 and 10000"),
        ({"title": "T", "content": "x", "chunk_overlap": -1}, "chunk_overlap must be 0 or greater and less than chunk_size"),
        ({"title": "T", "content": "x", "chunk_size": 100, "chunk_overlap": 100}, "chunk_overlap must be 0 or greater and less than chunk_size"),
        ({"title": "T", "content": "word " * 30000, "chunk_size": 100, "chunk_overlap": 0}, "the limit is 1000"),
    ],
)  # fmt: skip
async def test_import_validation(kb: Container, kwargs: dict, message: str) -> None:  # type: ignore[type-arg]
    title, content = kwargs.pop("title"), kwargs.pop("content")
    with pytest.raises(ValidationError) as caught:
        await kb.documents.knowledge_import(title, content, **kwargs)
    assert message in caught.value.user_message


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"query": "  "}, "query cannot be empty"),
        ({"query": "x", "top_k": 0}, "top_k must be between 1 and 100"),
        ({"query": "x", "top_k": 101}, "top_k must be between 1 and 100"),
        ({"query": "x", "document_id": "not-a-uuid"}, "document_id must be a UUID"),
    ],
)
async def test_query_validation(kb: Container, kwargs: dict, message: str) -> None:  # type: ignore[type-arg]
    query = kwargs.pop("query")
    with pytest.raises(ValidationError) as caught:
        await kb.documents.knowledge_query(query, **kwargs)
    assert caught.value.user_message == message


async def test_filters_apply_before_top_k(kb: Container) -> None:
    # 30 parking chunks in one category would crowd out everything else after truncation.
    for i in range(30):
        await kb.documents.knowledge_import(
            f"Parking note {i}", f"Garage parking permit rule number {i} for residents.",
            category="parking",
        )  # fmt: skip
    for i in range(4):
        await kb.documents.knowledge_import(
            f"Menu {i}", f"The canteen serves soup number {i} on Mondays.", category="food"
        )
    found = await kb.documents.knowledge_query("parking permits", top_k=3, category="food")
    assert found["total"] == 3
    assert {r["document"]["category"] for r in found["results"]} == {"food"}
    one = await kb.documents.knowledge_import("Long", "alpha beta gamma. " * 100, chunk_size=200)
    only = await kb.documents.knowledge_query(
        "parking", top_k=5, document_id=one.document_id, include_document_info=False
    )
    assert only["total"] == 5 and all("document" not in r for r in only["results"])


async def test_same_content_same_scope_returns_existing(kb: Container) -> None:
    first = await kb.documents.knowledge_import("Pets", POLICIES["Pets"])
    again = await kb.documents.knowledge_import("Pets again", POLICIES["Pets"])
    assert again.existing and again.document_id == first.document_id
    assert again.chunks_created == first.chunks_created == 1
    assert first.as_dict()["created_at"] == "2026-11-18T12:00:00Z"


async def test_reindex_after_losing_chroma_restores_results(
    kb: Container, sqlite_database: Database, clock: FrozenClock, tmp_path: Path
) -> None:
    await _import_policies(kb)
    question = "when is the recycling collected?"
    before = await kb.documents.knowledge_query(question, top_k=4)
    await kb.stop()  # the bot goes down, and its index directory is lost
    shutil.rmtree(kb.settings.chroma_path)
    fresh = Container(kb.settings, clock=clock, database=sqlite_database)
    report = await fresh.index.reindex()
    assert report == {"proposals_indexed": 0, "chunks_indexed": 4, "facts_indexed": 0}
    after = await fresh.documents.knowledge_query(question, top_k=4)
    assert [r["chunk_id"] for r in after["results"]] == [r["chunk_id"] for r in before["results"]]
    assert [r["similarity"] for r in after["results"]] == pytest.approx(
        [r["similarity"] for r in before["results"]], abs=1e-4
    )


async def test_reconcile_after_a_chroma_outage(
    kb: Container, sqlite_database: Database, clock: FrozenClock
) -> None:
    def unreachable() -> object:
        raise ConnectionError("chroma is down")

    down = Container(kb.settings, clock=clock, database=sqlite_database)
    down.vectors._client_factory = unreachable  # type: ignore[assignment]
    result = await down.documents.knowledge_import("Quiet hours", POLICIES["Quiet hours"])
    created = await down.proposals.create_proposal(
        User(1001, "alice"),
        ProposalDraft("Quiet garden", "No music", ProposalType.FREE_FORM, [],
                      NOW + timedelta(days=2)),
    )  # fmt: skip
    assert created.proposal.id == 1  # SQL kept working while the index was away
    # A stale index entry whose row is gone must be cleaned up too.
    await kb.vectors.upsert(CHUNKS, ["orphan"], ["left behind"], [{"document_id": "x"}])

    report = await kb.index.reconcile()
    assert report == {"proposals_indexed": 1, "chunks_indexed": 1, "orphans_removed": 1}
    found = await kb.documents.knowledge_query("when must it be quiet?", top_k=1)
    assert found["results"][0]["document"]["id"] == result.document_id
    assert await kb.vectors.all_ids(CHUNKS) == {found["results"][0]["chunk_id"]}
    assert await kb.index.reconcile() == {
        "proposals_indexed": 0, "chunks_indexed": 0, "orphans_removed": 0,
    }  # fmt: skip


async def test_status_changes_reach_the_index_without_reembedding(kb: Container) -> None:
    created = await kb.proposals.create_proposal(
        User(1001, "alice"),
        ProposalDraft("Bike shed", "A shed for bikes", ProposalType.MULTIPLE_CHOICE,
                      ["Yes", "No"], NOW + timedelta(days=2)),
    )  # fmt: skip
    await kb.proposals.cancel_proposal(1001, created.proposal.id)
    embedding = (await kb.vectors.embed(["bicycle storage"]))[0]
    [hit] = await kb.vectors.query(PROPOSALS, embedding, 1, {"status": "cancelled"})
    assert hit.metadata["proposal_id"] == created.proposal.id


async def test_model_change_rebuilds_the_collections(
    kb: Container, sqlite_database: Database, clock: FrozenClock
) -> None:
    from app.services.embeddings import HashingEmbedder

    await _import_policies(kb)
    other = Container(
        kb.settings, clock=clock, database=sqlite_database, embedder=HashingEmbedder()
    )
    report = await other.index.reconcile()
    assert report["chunks_indexed"] == 4  # everything re-embedded with the new model
    assert await other.vectors.count(CHUNKS) == 4


async def test_chunks_are_embedded_led_by_their_title_and_old_ones_are_rebuilt(
    kb: Container, sqlite_database: Database, clock: FrozenClock
) -> None:
    """A short passage is embedded with its page's title ("Pets": a chunk about leads
    is about pets); a chunks collection filled before that is rebuilt at start."""
    result = await kb.documents.knowledge_import("Pets", POLICIES["Pets"])
    [chunk_id] = await kb.vectors.all_ids(CHUNKS)
    titled = (await kb.vectors.embed([chunk_text(POLICIES["Pets"], "Pets")]))[0]
    stored = await kb.vectors.vectors(CHUNKS, [chunk_id])
    assert float(stored[chunk_id] @ titled) == pytest.approx(1.0, abs=1e-4)

    # A collection built by an earlier version: the text alone, under the model's name.
    collection = await kb.vectors._collection(CHUNKS)
    bare = (await kb.vectors.embed([POLICIES["Pets"]]))[0]
    collection.upsert(ids=[chunk_id], embeddings=[bare.tolist()])
    collection.modify(metadata={"embedding_model": kb.vectors.model_name})
    await kb.vectors.close()

    restarted = Container(kb.settings, clock=clock, database=sqlite_database)
    report = await restarted.index.reconcile()
    assert report["chunks_indexed"] == 1
    stored = await restarted.vectors.vectors(CHUNKS, [chunk_id])
    assert float(stored[chunk_id] @ titled) == pytest.approx(1.0, abs=1e-4)
    found = await restarted.documents.knowledge_query("can my dog run free?", top_k=1)
    assert found["results"][0]["document"]["id"] == result.document_id
