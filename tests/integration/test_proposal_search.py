"""ProposalSearch on SQLite and PostgreSQL with the real embedding model: words and
meaning fused inside the SQL filters, and the fitted cut over them."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from app.container import Container
from app.core.ask.models import AskFilters
from app.core.ask.proposal_cut import FEATURES
from app.domain.clock import FrozenClock
from app.domain.models import ProposalDraft, ProposalStatus, ProposalType, User
from app.nlp.lexical import lexical_terms
from app.persistence.database import Database
from app.persistence.models import ProposalRow
from app.persistence.repositories.lexical import LexicalSearch
from app.persistence.repositories.proposals import criteria_condition
from tests.conftest import NOW, make_settings

ALICE, BRUNO = User(1001, "alice"), User(1002, "bruno")


@pytest.fixture
async def kb(database: Database, clock: FrozenClock, tmp_path: Path) -> Container:
    container = Container(make_settings(data_dir=tmp_path / "data"), clock=clock, database=database)
    await container.start()
    yield container  # type: ignore[misc]
    await container.stop()


async def _propose(kb: Container, who: User, title: str, description: str) -> int:
    draft = ProposalDraft(
        title, description, ProposalType.MULTIPLE_CHOICE, ["Yes", "No"], NOW + timedelta(days=3)
    )
    return (await kb.proposals.create_proposal(who, draft)).proposal.id


async def test_the_filters_are_one_condition_for_the_lexical_index(kb: Container) -> None:
    mine = await _propose(kb, ALICE, "Bike shed lights", "Lights for the bike shed")
    theirs = await _propose(kb, BRUNO, "Bike repair day", "A repair day for bikes")
    await kb.proposals.cancel_proposal(BRUNO.telegram_id, theirs)
    terms = lexical_terms("bikes")

    async def found(filters: AskFilters) -> list[int]:
        where = criteria_condition(**filters.sql())
        async with kb.db.transaction() as session:
            return [i for i, _ in await LexicalSearch(session).proposals(terms, 10, where)]

    assert sorted(await found(AskFilters())) == sorted([mine, theirs])
    assert await found(AskFilters(proposer_id=ALICE.telegram_id)) == [mine]
    assert await found(AskFilters(status=ProposalStatus.CANCELLED)) == [theirs]
    assert criteria_condition(**AskFilters().sql()) is None


async def test_meaning_is_searched_inside_the_set_sql_filters(kb: Container) -> None:
    leave = await _propose(kb, ALICE, "Parental leave", "Twelve weeks of paid parental leave")
    await _propose(kb, ALICE, "New laptops", "Replace the five oldest laptops")
    await kb.index.catch_up()
    # cancelled in SQL, the source of truth, before its index entry has caught up
    async with kb.db.transaction() as session:
        await session.execute(
            update(ProposalRow).where(ProposalRow.id == leave).values(status="cancelled")
        )
    search = kb.context.search
    embedding = (await kb.vectors.embed(["time off"]))[0]
    cancelled = await search.search(
        AskFilters(status=ProposalStatus.CANCELLED), "time off", embedding
    )
    # no word of "time off" is in it: meaning found it inside what SQL filtered
    assert [c.proposal.id for c in cancelled.candidates] == [leave]
    assert cancelled.filtered_total == 1
    closed = await search.search(AskFilters(status=ProposalStatus.CLOSED), "time off", embedding)
    assert not closed.candidates and not closed.proposals and closed.filtered_total == 0


async def test_a_topic_in_other_words_inside_the_filters(kb: Container) -> None:
    leave = await _propose(kb, ALICE, "Parental leave", "Twelve weeks of paid parental leave")
    holidays = await _propose(kb, ALICE, "Extra holiday days", "Two more days of paid holiday")
    laptops = await _propose(kb, ALICE, "New laptops", "Replace the five oldest laptops")
    other = await _propose(kb, BRUNO, "Sabbatical", "A paid sabbatical after five years")
    await kb.index.catch_up()  # indexed after commit; wait for it here
    search = kb.context.search
    embedding = (await kb.vectors.embed(["time off"]))[0]
    everyone = await search.search(AskFilters(), "time off", embedding)
    order = [c.proposal.id for c in everyone.candidates]
    # no proposal says "time off": meaning ranks the ones about it above the laptops
    assert set(order[:2]) == {leave, holidays} and order[-1] == laptops
    assert all(0.0 <= r.score <= 1.0 for r in everyone.candidates)
    words = await search.search(AskFilters(), "holiday", (await kb.vectors.embed(["holiday"]))[0])
    assert words.proposals[0].id == holidays and laptops not in {p.id for p in words.proposals}
    alice = await search.search(AskFilters(proposer_id=ALICE.telegram_id), "time off", embedding)
    assert other not in {p.id for p in alice.proposals}
    assert {c.proposal.id for c in alice.candidates} <= {leave, holidays, laptops}
    assert alice.filtered_total == 3
    # the cut reads meaning from the topic and the whole question together
    question = (await kb.vectors.embed(["any proposals about time off?"]))[0]
    both = await search.search(AskFilters(), "time off", embedding, question=question)
    cosine = FEATURES.index("cosine")
    for alone, read in zip(everyone.candidates, both.candidates, strict=True):
        assert read.similarity == alone.similarity  # what the decision reads stays the topic's
        assert read.features[cosine] != alone.features[cosine]
