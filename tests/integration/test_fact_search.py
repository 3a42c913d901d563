"""Fact paths for /ask's general pipeline on a small real graph: SQLite and PostgreSQL,
the bundled embedding model, embedded Chroma. Names by initials and by words, relations
in other words, two-hop chains, and a path that is near but does not answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.container import Container
from app.core.ask.fact_paths import FEATURES
from app.core.ask.fact_search import FactsFound
from app.core.graph.proposal_facts import SOURCE_PREFIX
from app.domain.clock import FrozenClock
from app.domain.models import User
from app.nlp.lexical import lexical_terms
from app.persistence.database import Database
from app.persistence.repositories.lexical import LexicalSearch
from app.persistence.repositories.users import UserRepository
from app.services.vector_db_service import FACTS
from tests.conftest import make_settings

GRAPH = [
    ("Software Steering Council", "chaired by", "Aiko"),
    ("Software Steering Council", "meets", "every other Monday at 17:00 UTC"),
    ("Executive Council", "chaired by", "Priya"),
    ("Executive Council", "meets", "weekly on Wednesdays"),
    ("Code of Conduct Committee", "appointed by", "Executive Council"),
    ("Code of Conduct Committee", "chaired by", "Mateus"),
    ("Security Council", "led by", "Olena"),
    ("Jupyter Incubator", "managed by", "Software Steering Council"),
]


@pytest.fixture
async def kb(database: Database, clock: FrozenClock, tmp_path: Path) -> Container:
    kb = Container(make_settings(data_dir=tmp_path / "data"), clock=clock, database=database)
    for subject, predicate, obj in GRAPH:
        await kb.graph.store_fact(subject, predicate, obj)
    return kb


async def _search(kb: Container, question: str) -> FactsFound:
    embedding = (await kb.vectors.embed([question]))[0]
    found = await kb.context.fact_search.search(question, embedding)
    assert found is not None and found.best is not None
    return found


async def test_an_abbreviation_names_the_body_by_its_initials(kb: Container) -> None:
    found = await _search(kb, "hey when does the SSC usually meet?")
    best = found.best
    assert best is not None
    assert best.anchor == "Software Steering Council"
    assert best.answer == "every other Monday at 17:00 UTC"
    assert best.relation == 1.0 and best.new == 1.0
    assert "every other Monday" in found.result.answer_text


async def test_a_two_hop_chain_ends_at_the_answer(kb: Container) -> None:
    found = await _search(kb, "when does the body that appoints the conduct committee meet?")
    best = found.best
    assert best is not None and len(best.facts) == 2
    assert best.ends == (
        "Code of Conduct Committee", "Executive Council", "weekly on Wednesdays",
    )  # fmt: skip
    assert dict(zip(FEATURES, best.features, strict=True))["further"] == 1.0  # "meet" is asked
    chain = found.result.chain
    assert chain is not None and chain.complete and chain.final_result == [best.answer]
    assert "So the answer is: weekly on Wednesdays" in found.result.answer_text
    # the same chain asked the other way round
    other = await _search(kb, "who chairs the council managing the jupyter incubator")
    assert other.best is not None and other.best.answer == "Aiko"


async def test_a_detour_through_an_unasked_relation_is_no_path(kb: Container) -> None:
    # "appointed by" is not asked: going from the committee to its appointer's meetings
    # would answer a question nobody asked.
    found = await _search(kb, "when does the conduct committee meet?")
    assert all(not (len(p.facts) == 2 and p.answer == "weekly on Wednesdays") for p in found.paths)
    assert found.best is not None and found.best.relation == 0.0  # no meeting of its own


async def test_a_relation_in_another_form_still_answers(kb: Container) -> None:
    found = await _search(kb, "who leads the security council")  # the fact says "led by"
    assert found.best is not None and found.best.answer == "Olena"
    assert found.best.cover == 1.0 and found.best.relation == 1.0


async def test_the_answer_is_not_what_the_question_names(kb: Container) -> None:
    found = await _search(kb, "who chairs the executive council")
    assert found.best is not None and found.best.answer == "Priya"
    echo = [p for p in found.paths if p.answer == "Executive Council" and len(p.facts) == 1]
    assert echo and all(p.new < 1.0 and p.score < found.best.score for p in echo)


async def test_fact_vectors_follow_the_facts_table(kb: Container) -> None:
    await _search(kb, "who chairs the executive council")
    assert await kb.vectors.count(FACTS) == len(GRAPH)
    await kb.graph.store_fact("Security Council", "meets", "on Fridays")
    found = await _search(kb, "when does the security council meet")
    assert found.best is not None and found.best.answer == "on Fridays"
    assert await kb.vectors.count(FACTS) == len(GRAPH) + 1


async def test_facts_derived_from_proposals_are_left_to_the_proposals(kb: Container) -> None:
    await kb.graph.replace_sources(
        {f"{SOURCE_PREFIX}7": [("Move the security council call", "proposed by", "olena_k")]}
    )
    async with kb.db.transaction() as session:
        words = LexicalSearch(session)
        terms = lexical_terms("security council call")
        every = await words.facts(terms, 10)
        own = await words.facts(terms, 10, skip_source_prefix=SOURCE_PREFIX)
    assert len(every) == len(own) + 1
    found = await _search(kb, "who proposed moving the security council call")
    assert all("Move the security council call" not in p.ends for p in found.paths)


async def test_a_who_question_is_answered_by_a_member(kb: Container, clock: FrozenClock) -> None:
    await kb.graph.store_fact("Security Council", "meets in", "Room 4")
    async with kb.db.transaction() as session:
        await UserRepository(session).upsert(User(7, "olena_k", "Olena"), clock.now())
    found = await _search(kb, "who is in charge of the security council?")
    best = found.best
    assert best is not None and best.answer == "Olena"
    assert 0.0 < best.score < 1.0  # the fitted scorer's probability
    member = dict(zip(FEATURES, best.features, strict=True))
    assert member["member"] == member["who_member"] == 1.0
    room = next(p for p in found.paths if p.answer == "Room 4")
    assert dict(zip(FEATURES, room.features, strict=True))["member"] == 0.0


async def test_warming_up_reads_the_graphs_names_before_any_question(kb: Container) -> None:
    """The names are read at start-up (before the process freezes what it loaded), not
    by the first member's question."""
    assert kb.context.fact_search._entities is None
    await kb.context.warm("en")
    assert kb.context.fact_search._entities is not None
    index = kb.context.fact_search._entities[1]
    assert any("steering" in name.lower() for name in index.names)


async def test_a_busy_entity_is_read_from_its_own_end(kb: Container) -> None:
    """Each fact around a named entity is a path from that entity; read from its other
    end it would only answer with the name the question gave, so it is not read that
    way unless the question's words or meaning found the fact itself."""
    from app.core.ask.fact_search import RANKED

    members = [f"Grower {i}" for i in range(1, 61)]
    for member in members:
        await kb.graph.store_fact(member, "belongs to", "Allotment Club")
    found = await _search(kb, "who belongs to the allotment club?")
    assert found.best is not None and found.best.answer in members
    echo = [p for p in found.paths if p.answer == "Allotment Club" and len(p.facts) == 1]
    from_members = [p for p in found.paths if p.anchor == "Allotment Club" and len(p.facts) == 1]
    assert len(from_members) == len(members)  # every member, from the club
    assert len(echo) <= 2 * RANKED < len(members)  # only the facts found by words or meaning
