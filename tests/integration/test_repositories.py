"""Repositories on SQLite and PostgreSQL: time zones, upserts, dynamic filters."""

from __future__ import annotations

from datetime import UTC, timedelta

from app.domain.models import ProposalStatus, ProposalType, User
from app.persistence.database import Database
from app.persistence.repositories.proposals import ProposalRepository
from app.persistence.repositories.submissions import SubmissionRepository
from app.persistence.repositories.users import UserRepository
from tests.conftest import NOW


async def _proposal(db: Database, **overrides: object) -> int:
    fields: dict[str, object] = dict(
        proposer_id=1,
        title="Pizza party",
        description="Friday pizza",
        proposal_type="multiple_choice",
        options=["Yes", "No"],
        created_at=NOW,
        deadline_at=NOW + timedelta(days=3),
        status="open",
    )
    fields.update(overrides)
    async with db.transaction() as session:
        await UserRepository(session).ensure_exists(int(fields["proposer_id"]), NOW)  # type: ignore[arg-type]
        return (await ProposalRepository(session).add(language="en", **fields)).id


async def test_datetimes_come_back_aware_utc(database: Database) -> None:
    pid = await _proposal(database)
    async with database.transaction() as session:
        proposal = await ProposalRepository(session).get_proposal_by_id(pid)
    assert proposal is not None
    assert proposal.created_at == NOW and proposal.created_at.tzinfo is not None
    assert proposal.deadline_at.utcoffset() == timedelta(0)
    assert proposal.proposal_type is ProposalType.MULTIPLE_CHOICE


async def test_big_telegram_ids_and_user_refresh(database: Database) -> None:
    big = 7_000_000_000_123
    async with database.transaction() as session:
        users = UserRepository(session)
        await users.upsert(User(big, "alice", "Alice"), NOW)
        await users.upsert(User(big, "alice_new", "Alice"), NOW + timedelta(hours=1))
    async with database.transaction() as session:
        user = await UserRepository(session).get(big)
        by_name = await UserRepository(session).find_by_username("@ALICE_new")
    assert user == User(big, "alice_new", "Alice")
    assert by_name == user


async def test_a_name_typed_plainly_finds_the_member(database: Database) -> None:
    async with database.transaction() as session:
        users = UserRepository(session)
        await users.upsert(User(7, "sofia_r", "Sofía"), NOW)
        await users.upsert(User(8, "jonas", "Jonas"), NOW)
        await users.upsert(User(9, "sofia_b", "Sofiane"), NOW)
    async with database.transaction() as session:
        users = UserRepository(session)
        assert [u.telegram_id for u in await users.find_by_name("sofía")] == [7]
        assert [u.telegram_id for u in await users.find_by_name("sofia")] == [7]  # accents
        assert [u.telegram_id for u in await users.find_by_name("JONAS")] == [8]
        assert await users.find_by_name("sofi") == []  # a part of a name is no name
        assert await users.find_by_name("%") == [] and await users.find_by_name("") == []


async def test_submission_upsert_keeps_one_row(database: Database) -> None:
    pid = await _proposal(database)
    async with database.transaction() as session:
        await UserRepository(session).ensure_exists(2, NOW)
        subs = SubmissionRepository(session)
        await subs.upsert(pid, 2, "Yes", NOW)
        await subs.upsert(pid, 2, "No", NOW + timedelta(minutes=1))
    async with database.transaction() as session:
        subs = SubmissionRepository(session)
        assert await subs.count_for_proposal(pid) == 1
        mine = await subs.get_submission_by_proposal_and_user(pid, 2)
        assert mine is not None and mine.response_content == "No"
        assert mine.updated_at == NOW + timedelta(minutes=1)
        assert await subs.counts_by_content(pid) == {"No": 1}


async def test_dynamic_criteria_filters_combine(database: Database) -> None:
    a = await _proposal(database, title="Budget", created_at=NOW - timedelta(days=10))
    b = await _proposal(
        database, title="Ideas", proposal_type="free_form", options=[], status="closed"
    )
    c = await _proposal(database, title="Old", created_at=NOW - timedelta(days=40), status="closed")
    async with database.transaction() as session:
        repo = ProposalRepository(session)
        closed = await repo.find_proposals_by_dynamic_criteria(status=ProposalStatus.CLOSED)
        free = await repo.find_proposals_by_dynamic_criteria(proposal_type=ProposalType.FREE_FORM)
        recent = await repo.find_proposals_by_dynamic_criteria(
            creation_date_range=(NOW - timedelta(days=14), None)
        )
        window = await repo.find_proposals_by_dynamic_criteria(
            creation_date_range=(NOW - timedelta(days=41), NOW - timedelta(days=10))
        )
        due = await repo.find_proposals_by_dynamic_criteria(
            date_range=(None, NOW.astimezone(UTC) + timedelta(days=3, seconds=1)),
            status=ProposalStatus.OPEN,
        )
    assert {p.id for p in closed} == {b, c}
    assert [p.id for p in free] == [b]
    assert {p.id for p in recent} == {a, b}
    assert [p.id for p in window] == [c]  # half-open: the end bound (a's creation) is excluded
    assert [p.id for p in due] == [a]


async def test_status_compare_and_set_happens_once(database: Database) -> None:
    pid = await _proposal(database)
    results = []
    for _ in range(2):
        async with database.transaction() as session:
            results.append(
                await ProposalRepository(session).transition_status(
                    pid, ProposalStatus.OPEN, status="closed", closed_at=NOW
                )
            )
    assert results == [True, False]
