"""Concurrent votes on PostgreSQL through the whole Application.

Every press goes Update -> CallbackQueryHandler -> SubmissionService -> PostgreSQL, many at
once on one event loop, the way PTB runs them with concurrent updates. Nothing here sleeps:
ordering is forced with row locks, events and the server's own view of who is waiting.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine
from sqlalchemy.pool import NullPool

from app.domain.models import ProposalStatus
from app.persistence.repositories.proposals import ProposalRepository
from app.persistence.repositories.submissions import SubmissionRepository
from tests.conftest import CHANNEL_ID, BotHarness
from tests.telegram.helpers import create_via_bot

pytestmark = pytest.mark.postgres

OPTIONS = ["A", "B", "C", "D"]
RECORDED = "Vote recorded"
CHANGED = "Vote changed to"
ENDED = "has ended"


async def _press(bot: BotHarness, pid: int, user_id: int, option: int) -> str:
    """Dispatch one vote press; returns its callback query id (to find its answer)."""
    update = bot.updates.callback(
        f"v:{pid}:{option}", user_id=user_id, chat_id=int(CHANNEL_ID), chat_type="channel"
    )
    assert update.callback_query is not None
    await bot.app.process_update(update)  # type: ignore[attr-defined]
    return update.callback_query.id


def _answers(bot: BotHarness) -> dict[str, list[dict[str, object]]]:
    """answerCallbackQuery params, grouped by callback query id."""
    out: dict[str, list[dict[str, object]]] = {}
    for call in bot.request.calls_to("answerCallbackQuery"):
        out.setdefault(str(call.params["callback_query_id"]), []).append(call.params)
    return out


def _the_answer(answers: dict[str, list[dict[str, object]]], query_id: str) -> str:
    """The single alert a press got (exactly one, shown as an alert)."""
    got = answers.get(query_id, [])
    assert len(got) == 1, f"press {query_id} got {len(got)} answers: {got!r}"
    assert got[0]["show_alert"] is True
    return str(got[0]["text"])


async def _stored(bot: BotHarness, pid: int, user_ids: range) -> tuple[int, dict[int, str]]:
    """Row count for the proposal, and each listed user's stored choice."""
    async with bot.services.db.transaction() as session:
        subs = SubmissionRepository(session)
        total = await subs.count_for_proposal(pid)
        choices: dict[int, str] = {}
        for uid in user_ids:
            row = await subs.get_submission_by_proposal_and_user(pid, uid)
            if row is not None:
                choices[uid] = row.response_content
    return total, choices


@asynccontextmanager
async def _observer(url: str) -> AsyncIterator[AsyncConnection]:
    """A connection outside the bot's pool, to watch the server without taking a slot."""
    engine = create_async_engine(url, poolclass=NullPool)
    try:
        async with engine.connect() as conn:
            yield conn
    finally:
        await engine.dispose()


async def _wait_for_lock_waiters(conn: AsyncConnection, at_least: int) -> None:
    """Return once ``at_least`` other backends of this database wait on a heavyweight lock."""
    query = text(
        "SELECT count(*) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND wait_event_type = 'Lock'"
    )
    async with asyncio.timeout(60):
        while int((await conn.execute(query)).scalar_one()) < at_least:
            await conn.rollback()  # a fresh snapshot of pg_stat_activity each time


async def test_200_users_changing_votes_concurrently(pg_bot: BotHarness) -> None:
    pid = await create_via_bot(pg_bot, "T; D; " + ", ".join(OPTIONS))
    pg_bot.request.clear()
    users = range(10_000, 10_200)

    def choice(uid: int, k: int) -> int:
        return (uid + k) % len(OPTIONS)

    async def voter(uid: int) -> list[str]:
        # One user's presses arrive one after another; all users at once.
        return [await _press(pg_bot, pid, uid, choice(uid, k)) for k in range(3)]

    query_ids = dict(zip(users, await asyncio.gather(*(voter(uid) for uid in users)), strict=True))

    answers = _answers(pg_bot)
    assert sum(len(a) for a in answers.values()) == 600
    assert [c.method for c in pg_bot.request.calls] == ["answerCallbackQuery"] * 600
    for uid in users:
        texts = [_the_answer(answers, qid) for qid in query_ids[uid]]
        first, second, third = (OPTIONS[choice(uid, k)] for k in range(3))
        assert RECORDED in texts[0] and f"“{first}”" in texts[0], (uid, texts)
        assert f"{CHANGED} “{second}”" in texts[1], (uid, texts)
        assert f"{CHANGED} “{third}”" in texts[2], (uid, texts)

    total, stored = await _stored(pg_bot, pid, users)
    assert total == 200
    assert stored == {uid: OPTIONS[choice(uid, 2)] for uid in users}
    # The service reads back the same last choice each user was told about.
    for uid in (users[0], users[77], users[-1]):
        mine = await pg_bot.services.submissions.get_user_submission_for_proposal(uid, pid)
        assert mine.submission is not None
        assert mine.submission.response_content == OPTIONS[choice(uid, 2)]


async def test_votes_racing_a_close_are_recorded_or_refused_never_lost(
    pg_bot: BotHarness, pg_url: str
) -> None:
    """50 voters against a close in its own transaction.

    The first 25 voters race the close freely: each is either stored and told "recorded", or
    refused with "has ended" -- never told "recorded" and then lost. The close starts once a
    first vote is recorded, while the rest of that wave is usually still in flight. The other
    25 start only after the close has updated (and locked) the row but before it commits: they
    must queue behind it and all be refused.
    """
    pid = await create_via_bot(pg_bot, "T; D; " + ", ".join(OPTIONS))
    pg_bot.request.clear()
    db = pg_bot.services.db
    racing, late = range(20_000, 20_025), range(20_025, 20_050)
    users = range(racing.start, late.stop)
    one_recorded = asyncio.Event()

    def answer(params: dict[str, object]) -> bool:
        if RECORDED in str(params.get("text", "")):
            one_recorded.set()
        return True

    pg_bot.request.respond("answerCallbackQuery", answer)
    first_wave = [
        asyncio.ensure_future(_press(pg_bot, pid, uid, uid % len(OPTIONS))) for uid in racing
    ]
    late_wave: list[asyncio.Future[str]] = []

    async def close() -> bool:
        await one_recorded.wait()
        async with _observer(pg_url) as observer, db.transaction() as session:
            closed = await ProposalRepository(session).transition_status(
                pid,
                ProposalStatus.OPEN,
                status=ProposalStatus.CLOSED.value,
                closed_at=pg_bot.clock.now(),
            )
            # The row is now locked by this uncommitted close: later voters must wait for it.
            late_wave.extend(
                asyncio.ensure_future(_press(pg_bot, pid, uid, uid % len(OPTIONS))) for uid in late
            )
            await _wait_for_lock_waiters(observer, at_least=len(late))
        return closed

    closed, *racing_ids = await asyncio.gather(close(), *first_wave)
    late_ids = await asyncio.gather(*late_wave)
    assert closed is True

    answers = _answers(pg_bot)
    assert sum(len(a) for a in answers.values()) == len(users)
    texts = {
        uid: _the_answer(answers, qid)
        for uid, qid in zip(users, [*racing_ids, *late_ids], strict=True)
    }
    for uid, said in texts.items():
        assert (RECORDED in said) != (ENDED in said), (uid, said)
    recorded = {uid for uid, said in texts.items() if RECORDED in said}
    assert recorded and recorded <= set(racing)  # the close really raced some votes
    assert all(ENDED in texts[uid] for uid in late)

    total, stored = await _stored(pg_bot, pid, users)
    assert total == len(recorded)
    assert stored == {uid: OPTIONS[uid % len(OPTIONS)] for uid in recorded}

    # After the close nothing more is accepted.
    replies = await pg_bot.press(
        f"v:{pid}:0", user_id=29_999, chat_id=int(CHANNEL_ID), chat_type="channel"
    )
    assert ENDED in replies[-1]
    assert (await _stored(pg_bot, pid, users))[0] == len(recorded)
