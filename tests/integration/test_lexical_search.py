"""The lexical index on SQLite (FTS5) and PostgreSQL (full-text search): filled by every
write path of the real services, searched by LexicalSearch, kept in step by edits and
deletes, rebuilt by `reindex`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, text

from app.container import Container
from app.core.proposals.proposal_service import EditableField
from app.core.proposals.seed_service import SeedService
from app.domain.clock import FrozenClock
from app.domain.models import ProposalDraft, ProposalType, User
from app.nlp.lexical import lexical_terms
from app.persistence.database import Database
from app.persistence.knowledge_models import ChunkRow
from app.persistence.models import FactRow, ProposalRow
from app.persistence.repositories.facts import FactRepository
from app.persistence.repositories.lexical import LexicalSearch
from tests.conftest import ADMIN_ID, NOW, make_settings

ALICE = User(1001, "alice")
DOCUMENTS = {
    "Guest network": "Visitors connect to the Wi-Fi network “Guests”; the password is on "
    "the fridge.",
    "Repair Café": "The Repair Café meets every Saturday in the basement workshop.",
    "Bike shed": "Members may keep two bikes in the shed. The shed rules are on the door.",
    "Garden": "Compost goes in the green bins behind the garden shed.",
}


@pytest.fixture
async def kb(database: Database, clock: FrozenClock, tmp_path: Path) -> Container:
    return Container(make_settings(data_dir=tmp_path / "data"), clock=clock, database=database)


async def _import(kb: Container, category: str = "policy", **docs: str) -> dict[str, str]:
    ids = {}
    for title, content in (docs or DOCUMENTS).items():
        ids[title] = (
            await kb.documents.knowledge_import(title, content, category=category)
        ).document_id
    return ids


async def _chunks(db: Database, question: str, limit: int = 10, **filters: object) -> list[str]:
    """The titles of the documents whose chunks match, best first."""
    async with db.transaction() as session:
        found = await LexicalSearch(session).chunks(lexical_terms(question), limit, **filters)  # type: ignore[arg-type]
        titles = []
        for chunk_id, score in found:
            assert score > 0
            titles.append(
                await session.scalar(
                    text(
                        "SELECT d.title FROM documents d JOIN document_chunks c "
                        "ON c.document_id = d.id WHERE c.id = :id"
                    ),
                    {"id": chunk_id},
                )
            )
    return titles


async def _proposals(db: Database, question: str, where: object = None) -> list[int]:
    async with db.transaction() as session:
        found = await LexicalSearch(session).proposals(lexical_terms(question), 10, where)  # type: ignore[arg-type]
    return [pid for pid, _ in found]


async def _facts(db: Database, question: str) -> list[tuple[str, str, str]]:
    async with db.transaction() as session:
        found = await LexicalSearch(session).facts(lexical_terms(question), 10)
        out = []
        for fact_id, _ in found:
            row = (
                await session.execute(
                    select(FactRow.subject, FactRow.predicate, FactRow.object).where(
                        FactRow.id == fact_id
                    )
                )
            ).one()
            out.append(tuple(row))
    return out  # type: ignore[return-value]


async def _propose(kb: Container, title: str, description: str, options: Sequence[str] = ()) -> int:
    kind = ProposalType.MULTIPLE_CHOICE if options else ProposalType.FREE_FORM
    draft = ProposalDraft(title, description, kind, list(options), NOW + timedelta(days=3))
    return (await kb.proposals.create_proposal(ALICE, draft)).proposal.id


async def test_a_passage_is_found_by_any_spelling_of_its_words(kb: Container) -> None:
    await _import(kb)
    for question in ("wifi", "wi-fi", "WIFI password?", "how do visitors connect to the wi-fi"):
        assert (await _chunks(kb.db, question))[0] == "Guest network", question
    assert await _chunks(kb.db, "repair cafe") == ["Repair Café"]
    assert await _chunks(kb.db, "RÉPAIR CAFÉ") == ["Repair Café"]
    assert await _chunks(kb.db, "member's bike rule") == ["Bike shed"]  # plurals, possessive
    assert await _chunks(kb.db, "ruled") == ["Bike shed"]
    assert await _chunks(kb.db, "time travel") == []


async def test_rankings_agree_on_both_databases(kb: Container) -> None:
    """Where BM25 and ts_rank agree: more of the question's words first, then the shorter
    row of two that hold the same words, then (same length) the one repeating them."""
    fillers = ["budget", "meeting", "rota", "boiler", "parking", "laundry", "choir"]
    await _import(kb, **{w: f"Notes on the {w} for this year." for w in fillers})
    await _import(
        kb,
        all3="The garden shed holds tools.",
        two="The shed holds tools.",
        two_long="Tools are lent from the shed to any member who asks on a weekday evening.",
        one="The shed is locked at night.",
        again="The shed, the shed: locked.",
    )
    assert await _chunks(kb.db, "garden shed tools") == ["all3", "two", "two_long", "again", "one"]
    assert await _chunks(kb.db, "garden shed tools", limit=2) == ["all3", "two"]
    assert (await _chunks(kb.db, "shed"))[0] == "again"


async def test_chunks_are_filtered_by_document_category_and_proposal(kb: Container) -> None:
    ids = await _import(kb)
    await _import(kb, category="events", Workshop="Bring bikes to the repair workshop.")
    pid = await _propose(kb, "New bike racks", "Racks by the door")
    attached = await kb.documents.add_document(
        ALICE.telegram_id, pid, "Rack quote", "Six bike racks cost 300 euros."
    )
    assert await _chunks(kb.db, "bikes") == ["Workshop", "Rack quote", "Bike shed"]  # shortest
    assert await _chunks(kb.db, "bikes", category="events") == ["Workshop"]
    assert await _chunks(kb.db, "bikes", category="policy") == ["Bike shed"]
    assert await _chunks(kb.db, "bikes", document_id=ids["Bike shed"]) == ["Bike shed"]
    assert await _chunks(kb.db, "bikes", proposal_id=pid) == ["Rack quote"]
    assert await _chunks(kb.db, "bikes", proposal_id=pid, category="policy") == []
    assert await _chunks(kb.db, "bikes", document_id=attached.document_id) == ["Rack quote"]


async def test_an_edited_or_deleted_document_is_searched_as_it_is_now(kb: Container) -> None:
    ids = await _import(kb)
    await kb.documents.edit_document(
        ADMIN_ID, ids["Guest network"], content="The guest router is in the hallway cupboard."
    )
    assert await _chunks(kb.db, "wifi") == []
    assert await _chunks(kb.db, "router cupboard") == ["Guest network"]
    await kb.documents.edit_document(ADMIN_ID, ids["Guest network"], title="Router")
    assert await _chunks(kb.db, "router") == ["Router"]
    await kb.documents.delete_document(ADMIN_ID, ids["Guest network"])
    assert await _chunks(kb.db, "router cupboard") == []
    assert await _chunks(kb.db, "compost") == ["Garden"]


async def test_proposals_inside_the_filters_and_after_edits(kb: Container) -> None:
    wifi = await _propose(kb, "Faster Wi-Fi", "Upgrade the router in the hall", ["Yes", "No"])
    party = await _propose(kb, "Summer party", "A party in the garden with a wifi jukebox")
    plants = await _propose(kb, "Room plants", "Plants for the reading room")
    assert await _proposals(kb.db, "wifi") == [party, wifi]  # as long: the newest first
    assert await _proposals(kb.db, "wifi", ProposalRow.proposal_type == "free_form") == [party]
    await kb.proposals.cancel_proposal(ALICE.telegram_id, party)
    assert await _proposals(kb.db, "wifi", ProposalRow.status == "open") == [wifi]
    assert await _proposals(kb.db, "party wifi", ProposalRow.status == "cancelled") == [party]
    assert await _proposals(kb.db, "wifi", ProposalRow.proposer_id == 2) == []

    await kb.proposals.edit_proposal_details(
        ALICE.telegram_id, plants, EditableField.TITLE, "Hanging baskets"
    )
    assert await _proposals(kb.db, "room plants") == [plants]  # the description still says so
    assert await _proposals(kb.db, "basket") == [plants]
    await kb.proposals.edit_proposal_details(
        ALICE.telegram_id, wifi, EditableField.OPTIONS, "Mesh network, New router"
    )
    assert await _proposals(kb.db, "mesh") == [wifi]
    assert await _proposals(kb.db, "yes") == []


async def test_seeded_proposals_are_searchable(kb: Container) -> None:
    fixture = {
        "users": [{"telegram_id": 7, "username": "zoe"}],
        "proposals": [
            {"id": 12, "title": "Co-op bylaws", "description": "Amend the membership rules",
             "type": "multiple_choice", "options": ["Yes", "No"], "proposer": 7,
             "deadline": "2026-12-01T00:00:00Z"},
            {"id": 13, "title": "Film night", "description": "Which films?",
             "type": "free_form", "proposer": 7, "deadline": "2026-12-01T00:00:00Z",
             "status": "closed", "submissions": [{"user": 8, "text": "Coop documentaries"}]},
        ],
    }  # fmt: skip
    await SeedService(kb.db, kb.clock, language="en").seed(fixture)
    assert await _proposals(kb.db, "coop rule") == [12]
    assert await _proposals(kb.db, "films") == [13]
    assert await _proposals(kb.db, "documentaries") == []  # submissions are not indexed
    await SeedService(kb.db, kb.clock, language="en").seed(  # seeding again replaces
        {"proposals": [{**fixture["proposals"][0], "title": "Housing bylaws"}]}  # type: ignore[dict-item]
    )
    assert await _proposals(kb.db, "co-op") == []
    assert await _proposals(kb.db, "housing") == [12]


async def test_facts_from_every_write_path(kb: Container) -> None:
    await kb.graph.add_fact(ADMIN_ID, "Kofi", "runs", "Repair Café")
    await kb.graph.store_fact("Guest Wi-Fi", "password is", "on the fridge")
    report = await kb.graph.import_tsv(
        ["Greta\tcoordinates\tbike workshops\n", "Dmitri\tmaintains\tthe e-mail list\n"]
    )
    assert report.imported == 2
    await kb.graph.replace_sources({"document:x": [("Compost bins", "emptied on", "Fridays")]})
    assert await _facts(kb.db, "repair cafe") == [("Kofi", "runs", "Repair Café")]
    assert await _facts(kb.db, "wifi password") == [("Guest Wi-Fi", "password is", "on the fridge")]
    assert await _facts(kb.db, "bike workshop") == [("Greta", "coordinates", "bike workshops")]
    assert await _facts(kb.db, "email") == [("Dmitri", "maintains", "the e-mail list")]
    assert await _facts(kb.db, "compost") == [("Compost bins", "emptied on", "Fridays")]

    await kb.graph.delete_fact(ADMIN_ID, "kofi", "runs", "repair cafe")
    assert await _facts(kb.db, "repair cafe") == []
    await kb.graph.replace_sources({"document:x": []})
    assert await _facts(kb.db, "compost") == []
    # The same triple again (another spelling) keeps its row and its terms.
    await kb.graph.store_fact("GRETA", "coordinates", "Bike Workshops", 0.5)
    assert await _facts(kb.db, "greta") == [("Greta", "coordinates", "bike workshops")]


async def test_a_bulk_upsert_indexes_new_facts_and_keeps_the_trigger(kb: Container) -> None:
    await kb.graph.store_fact("Kofi", "runs", "Repair Café")
    rows = [
        ("Greta", "likes", "Wi-Fi", "greta", "likes", "wi-fi", 1.0, "manual", "greta like wifi"),
        ("Kofi", "runs", "Repair Café", "kofi", "runs", "repair cafe", 0.5, "manual",
         "kofi run repair cafe"),
    ]  # fmt: skip
    async with kb.db.transaction() as session:
        assert await FactRepository(session).bulk_upsert(rows, NOW) == 2
    assert await _facts(kb.db, "wifi") == [("Greta", "likes", "Wi-Fi")]
    assert await _facts(kb.db, "repair cafe") == [("Kofi", "runs", "Repair Café")]  # once
    await kb.graph.store_fact("Ana", "likes", "Wi-Fi routers")  # one at a time again
    assert await _facts(kb.db, "wifi") == [
        ("Greta", "likes", "Wi-Fi"),
        ("Ana", "likes", "Wi-Fi routers"),
    ]


@pytest.mark.parametrize(
    "term",
    ['"', '""', "'", "OR", "AND", "NOT", "NEAR", "*", "a:b", "lexical:x", "|", "&", "!", "(",
     ")", "x) OR (shed", "a & b | !c", "x' OR '1'='1", "'; DROP TABLE document_chunks; --",
     "\\", "%", "_", "", "NEAR(shed wifi)", "{lexical}: shed", "shed AND NOT"],
)  # fmt: skip
async def test_a_term_is_never_query_syntax(kb: Container, term: str) -> None:
    await _import(kb)
    async with kb.db.transaction() as session:
        search = LexicalSearch(session)
        assert await search.chunks([term], 5) == []
        assert len(await search.chunks([term, "wifi"], 5)) == 1
        assert await search.proposals([term], 5) == []
        assert await search.facts([term], 5) == []
    assert len(await _chunks(kb.db, "shed")) == 2  # nothing was dropped


@pytest.mark.parametrize(
    "term", ["wifi*", "^wifi", "!wifi", "-wifi", "wifi:", '"wifi"', "(wifi)", "wifi'"]
)
async def test_a_term_with_marks_matches_its_word(kb: Container, term: str) -> None:
    await _import(kb)
    async with kb.db.transaction() as session:
        assert len(await LexicalSearch(session).chunks([term], 5)) == 1


async def test_the_terms_that_are_words_still_match(kb: Container) -> None:
    await _import(kb)
    async with kb.db.transaction() as session:
        search = LexicalSearch(session)
        # A "term" holding several words matches as its words do on each database.
        assert len(await search.chunks(["or", "shed"], 5)) == 2
        assert await search.chunks([], 5) == []
        assert await search.chunks(["shed"], 0) == []


async def test_reindex_recomputes_stale_terms_and_repairs_the_index(kb: Container) -> None:
    await _import(kb)
    await _propose(kb, "Faster Wi-Fi", "A new router")
    await kb.graph.store_fact("Kofi", "runs", "Repair Café")
    rows = 0
    async with kb.db.transaction() as session:  # as an older normaliser would have left them
        for table in ("document_chunks", "proposals", "facts"):
            rows += (await session.execute(text(f"UPDATE {table} SET lexical = NULL"))).rowcount  # type: ignore[attr-defined]
    assert await _chunks(kb.db, "wifi") == []
    assert await _proposals(kb.db, "wifi") == []
    async with kb.db.transaction() as session:  # what a later migration might lose
        if kb.db.dialect == "sqlite":  # a table recreated on SQLite loses its triggers
            await session.execute(text("DROP TRIGGER document_chunks_lexical_insert"))
        else:
            await session.execute(text("DROP INDEX ix_facts_lexical"))

    changed = await kb.lexical.recompute()
    assert changed == rows
    assert await _chunks(kb.db, "wifi") == ["Guest network"]
    assert await _proposals(kb.db, "wifi") == [1]
    assert await _facts(kb.db, "cafe") == [("Kofi", "runs", "Repair Café")]
    await _import(kb, Hallway="Bikes are not allowed in the hallway.")
    assert await _chunks(kb.db, "hallway") == ["Hallway"]  # the trigger is back
    if kb.db.dialect == "postgresql":
        async with kb.db.transaction() as session:
            assert await session.scalar(text("SELECT to_regclass('ix_facts_lexical')::text"))
    assert await kb.lexical.recompute() == 0  # current: nothing to write


async def test_the_community_language_is_the_index_language(
    database: Database, clock: FrozenClock, tmp_path: Path
) -> None:
    kb = Container(
        make_settings(data_dir=tmp_path / "data", bot_language="pt_BR"),
        clock=clock,
        database=database,
    )
    await kb.documents.knowledge_import("Regras", "As reuniões da associação são às terças.")
    async with database.transaction() as session:
        stored = await session.scalar(select(ChunkRow.lexical))
    assert stored == "reunia associaca terc"
    found = await _chunks(database, "")  # nothing asked, nothing found
    assert found == []
    async with database.transaction() as session:
        hits = await LexicalSearch(session).chunks(lexical_terms("reuniao associacoes", "pt"), 5)
    assert len(hits) == 1
    # Read as English, the same text is other terms: reindex catches a changed language up.
    english = Container(make_settings(data_dir=tmp_path / "data"), clock=clock, database=database)
    assert await english.lexical.recompute() == 1
    async with database.transaction() as session:
        assert await session.scalar(select(ChunkRow.lexical)) == "reunio da associacao sao terca"
