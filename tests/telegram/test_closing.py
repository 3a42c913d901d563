"""Deadlines, results and announcements through the Application and its JobQueue."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from app.domain.models import ProposalStatus
from app.persistence.repositories.proposals import ProposalRepository
from app.telegram_handlers.bot import build_application
from tests.conftest import ADMIN_ID, CHANNEL_ID, NOW, BotHarness, make_settings
from tests.support.telegram import RecordingRequest
from tests.telegram.helpers import create_via_bot


def channel_calls(bot: BotHarness, method: str) -> list[dict]:  # type: ignore[type-arg]
    return [
        c.params
        for c in bot.request.calls_to(method)
        if not c.failed and str(c.params.get("chat_id")) == CHANNEL_ID
    ]


async def test_closes_at_the_deadline_and_announces_everywhere(bot: BotHarness) -> None:
    pid = await create_via_bot(bot, "Pizza party; Friday pizza; Yes, No, Later")
    for user, option in ((2001, 0), (2002, 0), (2003, 1)):
        await bot.press(f"v:{pid}:{option}", user_id=user)
    names = [j.name for j in bot.app.job_queue.jobs()]
    timers = [j.name for j in bot.services.scheduler.timers_of(pid)]  # type: ignore[attr-defined]
    assert [t.split("@")[0] for t in timers] == ["close", "remind"] and "sweep" in names
    assert set(timers) <= set(names)

    bot.clock.set(NOW + timedelta(days=3))
    await bot.run_jobs("close@")
    proposal = await bot.services.proposals.get(pid)
    assert proposal.status is ProposalStatus.CLOSED
    assert proposal.closed_at == NOW + timedelta(days=3)
    assert proposal.outcome == "Yes"
    options = proposal.raw_results["options"]
    assert [(o["option"], o["votes"], o["percent"]) for o in options] == [
        ("Yes", 2, 66.7), ("No", 1, 33.3), ("Later", 0, 0.0),
    ]  # fmt: skip

    [text] = [m for m in channel_calls(bot, "sendMessage") if "Results" in m["text"]]
    assert text["reply_parameters"]["message_id"] == proposal.channel_message_id
    assert "Results: Pizza party" in text["text"] and "Yes: 2 votes (66.7%)" in text["text"]
    assert "Later: 0 votes (0.0%)" in text["text"] and "Winner: <b>Yes</b>" in text["text"]
    [photo] = channel_calls(bot, "sendPhoto")  # the chart follows the text
    assert photo["reply_parameters"]["message_id"] == proposal.channel_message_id
    assert photo["caption"] == f"📊 Results of #{pid} Pizza party"
    png = bot.request.calls_to("sendPhoto")[-1].files["photo"][1]
    assert png.startswith(b"\x89PNG")
    accepted = [c.method for c in bot.request.calls if not c.failed]
    assert accepted.index("sendPhoto") > max(
        i for i, c in enumerate(bot.request.calls) if "Results:" in str(c.params.get("text"))
    )
    [edit] = [e for e in channel_calls(bot, "editMessageText") if "Voting closed" in e["text"]]
    assert "reply_markup" not in edit
    dm = [
        c.params for c in bot.request.calls_to("sendMessage") if str(c.params["chat_id"]) == "1001"
    ]
    assert "has closed" in dm[-1]["text"] and "Winner" in dm[-1]["text"]
    assert await bot.services.outbox.pending() == 0


async def test_deadline_close_refreshes_facts_and_search_index(bot: BotHarness) -> None:
    pid = await create_via_bot(bot, "Pizza party; Friday pizza; Yes, No")
    await bot.press(f"v:{pid}:0", user_id=2001)
    assert await bot.send("/facts open") == ["Found 1 fact:\n1. Pizza party has status open"]

    bot.clock.set(NOW + timedelta(days=3))
    await bot.run_jobs("close@")
    assert await bot.services.outbox.pending() == 0
    assert await bot.send("/facts closed") == ["Found 1 fact:\n1. Pizza party has status closed"]
    outcome = await bot.services.graph.find_facts(
        {"subject": "Pizza party", "predicate": "has outcome"}
    )
    assert [f["object"] for f in outcome.as_dict()["facts"]] == ["Yes"]
    async with bot.services.db.transaction() as session:
        assert await ProposalRepository(session).stale_for_index(10) == []


async def test_votes_after_close_rejected_and_results_view(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    replies = await bot.send(f"/view_results {pid}", user_id=2002)
    assert "Results are announced at the deadline" in replies[-1] and "votes" not in replies[-1]
    await bot.press(f"v:{pid}:1", user_id=2002)
    bot.clock.advance(timedelta(days=4))
    await bot.run_jobs("sweep")
    replies = await bot.press(f"v:{pid}:0", user_id=2003)
    assert "has ended" in replies[-1]
    replies = await bot.send(f"/view_results {pid}", user_id=2002)
    assert "No: 1 vote (100.0%)" in replies[-1] and "Winner: <b>No</b>" in replies[-1]


async def test_free_form_results_are_anonymous_themes(bot: BotHarness) -> None:
    pid = await create_via_bot(bot, "Room; Spare room ideas; FREEFORM")
    ideas = ["More plants please", "Green plants everywhere", "A coffee machine"]
    for user, idea in zip((2001, 2002, 2003), ideas, strict=True):
        await bot.send(f"/submit {pid} {idea}", user_id=user, username=f"user{user}")
    bot.clock.advance(timedelta(days=3))
    await bot.run_jobs("sweep")
    [announcement] = [m for m in channel_calls(bot, "sendMessage") if "Results" in m["text"]]
    assert "3 ideas submitted" in announcement["text"]
    assert "plant" in announcement["text"].lower()
    for name in ("user2001", "2001", "More plants please"):
        assert name not in announcement["text"]
    replies = await bot.send(f"/view_results {pid}", user_id=2002)
    assert all(idea in replies[-1] for idea in ideas) and "user200" not in replies[-1]


async def test_restart_closes_overdue_and_never_sends_twice(bot: BotHarness) -> None:
    first = await create_via_bot(bot, "A; a; Yes, No", "1 day")
    second = await create_via_bot(bot, "B; b; FREEFORM", "2 days")
    bot.clock.advance(timedelta(days=5))  # the bot was down through both deadlines
    database = bot.services.db

    for restart in range(2):
        request = RecordingRequest()
        app = build_application(
            make_settings(data_dir=bot.services.settings.data_dir),
            request=request,
            clock=bot.clock,
            database=database,
            rate_limit=False,
        )
        await app.initialize()
        await app.post_init(app)  # type: ignore[misc]
        for job in app.job_queue.jobs():  # type: ignore[union-attr]
            await job.run(app)
        results = [
            c for c in request.calls
            if c.method in ("sendPhoto", "sendMessage") and c.params["chat_id"] == CHANNEL_ID
        ]  # fmt: skip
        await app.shutdown()
        if restart == 0:
            assert len(results) == 2  # one announcement each (no votes: no charts)
        else:
            assert results == []  # the second restart finds nothing owed
    for pid in (first, second):
        assert (await bot.services.proposals.get(pid)).status is ProposalStatus.CLOSED


async def test_announcements_survive_telegram_faults(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    await bot.press(f"v:{pid}:0", user_id=2002)
    bot.request.fail_next("sendPhoto", [("retry_after", 3), ("status", 500), ("timeout",)])
    bot.request.fail_next("editMessageText", [("status", 502)])
    bot.clock.set(NOW + timedelta(days=3))
    await bot.run_jobs("sweep")
    outbox = bot.services.outbox
    assert await outbox.pending() == 2  # photo and post edit wait; the DM went through
    delivered_at = {}
    for second in range(1, 31):
        bot.clock.set(NOW + timedelta(days=3, seconds=second))
        before = {m: len(channel_calls(bot, m)) for m in ("sendPhoto", "editMessageText")}
        await outbox.deliver_due()
        for method, count in before.items():
            if len(channel_calls(bot, method)) > count:
                delivered_at[method] = second
    assert await outbox.pending() == 0
    # RetryAfter said 3 s; then backoff 4 s after the 2nd failure and 8 s after the 3rd.
    # The post's edit (due after 2 s) waits out the channel's RetryAfter: it pauses the
    # chat it was about, not only the message.
    assert delivered_at == {"editMessageText": 3, "sendPhoto": 3 + 4 + 8}
    assert len([c for c in bot.request.calls_to("sendPhoto") if c.failed]) == 3
    for _ in range(3):
        bot.clock.advance(timedelta(minutes=10))
        await bot.run_jobs("sweep")
    assert len(channel_calls(bot, "sendPhoto")) == 1
    assert len([e for e in channel_calls(bot, "editMessageText") if "closed" in e["text"]]) == 1


async def test_reminder_once_and_not_for_short_proposals(bot: BotHarness) -> None:
    long = await create_via_bot(bot, "Long; l; Yes, No", "3 days")
    await create_via_bot(bot, "Short; s; Yes, No", "12 hours")
    bot.clock.set(NOW + timedelta(days=2, hours=1))  # 23 h before the long one closes
    await bot.run_jobs("sweep")
    await bot.run_jobs("sweep")
    reminders = [m for m in channel_calls(bot, "sendMessage") if "Last call" in m["text"]]
    assert len(reminders) == 1 and f"#{long} Long" in reminders[0]["text"]
    keyboard = reminders[0]["reply_markup"]["inline_keyboard"]
    assert keyboard[0][0]["callback_data"] == f"v:{long}:0"


async def test_admin_early_close_with_confirmation(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    replies = await bot.send(f"/close_proposal {pid}", user_id=2002)
    assert "Only admins" in replies[-1]
    replies = await bot.press(f"cl:{pid}:y", user_id=2002)
    assert "Only admins" in replies[-1]
    replies = await bot.send(f"/close_proposal {pid}", user_id=ADMIN_ID)
    assert "before its deadline" in replies[-1]
    replies = await bot.press(f"cl:{pid}:y", user_id=ADMIN_ID)
    assert "is closed. Outcome: No votes" in replies[-1]
    assert bot.services.scheduler.timers_of(pid) == []  # type: ignore[attr-defined]
    await bot.run_jobs("deliver")
    [announcement] = [m for m in channel_calls(bot, "sendMessage") if "Results" in m["text"]]
    assert "No votes were cast" in announcement["text"]
    replies = await bot.press(f"cl:{pid}:y", user_id=ADMIN_ID)
    assert "already closed" in replies[-1]


async def test_extend_deadline_by_proposer_moves_job_and_post(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    replies = await bot.send(f"/extend_deadline {pid} 2 days", user_id=2002)
    assert "Only the proposer or an admin" in replies[-1]
    replies = await bot.send(f"/extend_deadline {pid}")
    assert "Please say how long" in replies[-1]
    replies = await bot.send(f"/extend_deadline {pid} 2 days")
    assert "to <b>Mon 23 Nov 2026, 12:00 UTC</b>" in replies[-1]
    data = bot.buttons()[0]["callback_data"]
    bot.request.clear()
    replies = await bot.press(data)
    assert "now closes Mon 23 Nov 2026, 12:00 UTC" in replies[-1]
    proposal = await bot.services.proposals.get(pid)
    assert proposal.deadline_at == NOW + timedelta(days=5)
    post = [e for e in channel_calls(bot, "editMessageText")]
    assert "Voting ends: Mon 23 Nov 2026, 12:00 UTC" in post[-1]["text"]
    timers = bot.services.scheduler.timers_of(pid)  # type: ignore[attr-defined]
    closes = [t for t in timers if t.name.startswith("close@")]
    assert len(closes) == 1, "the old deadline's timer is gone"
    assert closes[0].name == f"close@{(NOW + timedelta(days=5, milliseconds=20)).isoformat()}"
    bot.clock.set(NOW + timedelta(days=3))
    await bot.run_jobs("sweep")  # the old deadline passes: still open
    assert (await bot.services.proposals.get(pid)).status is ProposalStatus.OPEN
    replies = await bot.send(f"/extend_deadline {pid} 2026-11-19 10:00", user_id=ADMIN_ID)
    assert "in the past" in replies[-1]


async def test_proposals_due_at_the_same_instant_share_one_timer(bot: BotHarness) -> None:
    first = await bot.services.proposals.get(await create_via_bot(bot, "A; a; Yes, No"))
    second = await bot.services.proposals.get(await create_via_bot(bot, "B; b; Yes, No"))
    scheduler = bot.services.scheduler
    deadline = NOW + timedelta(days=4)
    for p in (first, second):
        scheduler.schedule(replace(p, deadline_at=deadline))  # type: ignore[attr-defined]
    [one] = {j.name for j in scheduler.timers_of(first.id) if j.name.startswith("close@")}  # type: ignore[attr-defined]
    assert one in {j.name for j in scheduler.timers_of(second.id)}  # type: ignore[attr-defined]
    assert sum(1 for j in bot.app.job_queue.jobs() if j.name == one) == 1

    scheduler.unschedule(first.id)
    assert one in {j.name for j in scheduler.timers_of(second.id)}, "still due for the other"  # type: ignore[attr-defined]
    scheduler.unschedule(second.id)
    assert not [j for j in bot.app.job_queue.jobs() if j.name == one and not j.removed]
