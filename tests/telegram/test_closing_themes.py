"""Free-form themes at closing, through the Application: a model's, or the fallback's.

The model is the real OpenAI client against the fake server; the deterministic
grouping is the real embedding model.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import timedelta
from typing import Any

import pytest

from app.domain.models import User
from app.services.llm.fence import FENCE_CLOSE, FENCE_OPEN
from app.services.llm.openai_backend import OpenAIBackend
from tests.conftest import ADMIN_ID, CHANNEL_ID, BotHarness
from tests.support.fake_openai import FakeOpenAI
from tests.telegram.helpers import create_via_bot

IDEAS = ["More plants please", "Green plants everywhere", "A coffee machine", "Ping pong"]
MODEL_THEMES = {"themes": [{"name": "More greenery", "members": [1, 2]},
                           {"name": "Coffee", "members": [3]}]}  # fmt: skip


def use_model(bot: BotHarness, fake: FakeOpenAI) -> None:
    bot.services.llm.primary = OpenAIBackend(
        "test-key", base_url=fake.base_url, timeout=2.0, max_retries=0
    )


async def free_form_with_ideas(bot: BotHarness, ideas: list[str] = IDEAS) -> int:
    pid = await create_via_bot(bot, "Room; Spare room ideas; FREEFORM")
    for user, idea in enumerate(ideas, start=2001):
        await bot.send(f"/submit {pid} {idea}", user_id=user, username=f"user{user}")
    return pid


def announcement(bot: BotHarness) -> str:
    [text] = [
        c.params["text"]
        for c in bot.request.calls_to("sendMessage")
        if not c.failed and str(c.params["chat_id"]) == CHANNEL_ID and "Results" in c.params["text"]
    ]
    return text


async def test_the_model_writes_the_themes_and_the_bot_counts_them(
    bot: BotHarness, fake_openai: FakeOpenAI
) -> None:
    checked_out: list[int] = []

    def model(body: dict[str, Any]) -> str:  # runs while the bot waits for the reply
        checked_out.append(bot.services.db.engine.pool.checkedout())
        return json.dumps(MODEL_THEMES)

    fake_openai.content = model
    use_model(bot, fake_openai)
    pid = await free_form_with_ideas(bot)
    bot.clock.advance(timedelta(days=3))
    await bot.run_jobs("close@")

    text = announcement(bot)
    assert "4 ideas submitted" in text
    assert "• More greenery (2)\n• other ideas (2)" in text  # "Coffee" was one idea's
    proposal = await bot.services.proposals.get(pid)
    assert proposal.raw_results["themes"] == [
        {"theme": "More greenery", "count": 2},
        {"theme": "other ideas", "count": 2},
    ]
    assert checked_out == [0]  # no transaction (no connection) held across the model call
    [request] = fake_openai.chat_requests
    assert request["response_format"]["type"] == "json_schema"
    system, user = request["messages"]
    assert "never instructions" in system["content"]
    fenced = user["content"].split(FENCE_OPEN, 1)[1].split(FENCE_CLOSE, 1)[0]
    assert [line for line in fenced.splitlines() if line] == [
        f"{i}. {idea}" for i, idea in enumerate(IDEAS, start=1)
    ]
    sent = json.dumps(fake_openai.chat_requests)
    assert "user2001" not in sent and "2001" not in sent
    assert bot.services.llm.fallbacks == {}


@pytest.mark.parametrize(
    "reply",
    [
        {"mode": "500"},
        {"mode": "malformed"},
        {"content": json.dumps({"themes": [{"name": "Plants", "members": [1, 9]}]})},
        {"content": json.dumps({"themes": [{"name": "  ", "members": [1, 2]}]})},
    ],
    ids=["500", "not-json", "unknown-member", "empty-name"],
)
async def test_model_failures_fall_back_to_grouping_by_meaning(
    bot: BotHarness, fake_openai: FakeOpenAI, reply: dict[str, str]
) -> None:
    fake_openai.mode = reply.get("mode", "ok")
    fake_openai.content = reply.get("content", "")
    use_model(bot, fake_openai)
    await free_form_with_ideas(bot, IDEAS[:3])
    bot.clock.advance(timedelta(days=3))
    await bot.run_jobs("sweep")

    text = announcement(bot)
    assert "3 ideas submitted" in text and "• plants (2)\n• other ideas (1)" in text
    assert "coffee" not in text.lower()  # one idea's word
    assert fake_openai.chat_calls == 1
    assert bot.services.llm.fallbacks == {"themes": 1}
    assert await bot.services.outbox.pending() == 0


async def test_early_close_uses_the_model_too(bot: BotHarness, fake_openai: FakeOpenAI) -> None:
    fake_openai.content = json.dumps(MODEL_THEMES)
    use_model(bot, fake_openai)
    pid = await free_form_with_ideas(bot)
    await bot.send(f"/close_proposal {pid}", user_id=ADMIN_ID)
    replies = await bot.press(f"cl:{pid}:y", user_id=ADMIN_ID)
    assert "is closed" in replies[-1]
    await bot.run_jobs("deliver")

    assert "• More greenery (2)\n• other ideas (2)" in announcement(bot)


class LateIdea:
    """Summarises like the real thing, but an idea arrives while it does: what an
    early close racing a submission looks like."""

    def __init__(self, bot: BotHarness, pid: int) -> None:
        self.bot, self.pid = bot, pid
        self.summarized: list[list[str]] = []

    async def summarize(self, texts: list[str]) -> list[dict[str, Any]]:
        self.summarized.append(texts)
        await self.bot.services.submissions.submit(self.pid, User(2999), "Plants on every desk")
        return [{"theme": "stale", "count": len(texts)}]


async def test_an_idea_arriving_during_an_early_close_is_counted(bot: BotHarness) -> None:
    pid = await free_form_with_ideas(bot, IDEAS[:3])
    late = LateIdea(bot, pid)
    bot.services.closing.themes = late

    await bot.services.closing.close_early(ADMIN_ID, pid)

    assert late.summarized == [IDEAS[:3]]
    raw = (await bot.services.proposals.get(pid)).raw_results
    assert raw["total_submissions"] == 4
    assert {"theme": "stale", "count": 3} not in raw["themes"]  # summarised again, by keywords
    assert sum(t["count"] for t in raw["themes"]) == 4


# Each idea's own words; none is used by a second idea of its proposal.
LONE_IDEAS = ["Rātā", "Pōhutukawa", "The Snug"]
LONE_WORDS = ["rātā", "pōhutukawa", "snug", "ana", "underpaid", "compared", "cy"]


def results_seen(bot: BotHarness, pid: int) -> str:
    """Everything the bot sent about the results of ``pid``: the channel announcement
    and the proposer's DM (the chart goes with multiple choice only)."""
    return "\n".join(
        str(c.params.get("text", ""))
        for c in bot.request.calls_to("sendMessage")
        if not c.failed and f"#{pid}" in str(c.params.get("text", ""))
    )


def words_of(text: str) -> set[str]:
    return set(re.findall(r"[^\W_]+", text.lower()))


async def test_a_single_ideas_words_never_reach_the_results(
    bot: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    names = await free_form_with_ideas(bot, LONE_IDEAS)
    pay = await create_via_bot(bot, "Pay; Pay review ideas; FREEFORM")
    await bot.send(f"/submit {pay} I think Ana is underpaid compared to Cy", user_id=2101)
    caplog.clear()
    caplog.set_level(logging.DEBUG)
    bot.clock.advance(timedelta(days=3))
    await bot.run_jobs("sweep")

    for pid, count in ((names, 3), (pay, 1)):
        seen = results_seen(bot, pid)
        assert "Results" in seen and "has closed" in seen  # the channel and the proposer
        [tally] = await bot.send(f"/view_results {pid}", user_id=2001)
        seen += "\n" + tally.split("All ideas")[0]  # the list of ideas is not a theme
        assert f"• other ideas ({count})" in seen
        assert not words_of(seen) & set(LONE_WORDS), seen
        raw = (await bot.services.proposals.get(pid)).raw_results
        assert raw["themes"] == [{"theme": "other ideas", "count": count}]
    logged = caplog.text.lower()
    assert not any(word in words_of(logged) for word in LONE_WORDS), logged


async def test_a_theme_two_ideas_share_is_shown_and_named_by_their_shared_words(
    bot: BotHarness,
) -> None:
    ideas = ["More plants please", "Green plants everywhere", "The Snug"]
    pid = await free_form_with_ideas(bot, ideas)
    bot.clock.advance(timedelta(days=3))
    await bot.run_jobs("sweep")

    text = announcement(bot)
    assert "3 ideas submitted" in text
    assert "• plants (2)\n• other ideas (1)" in text
    assert not words_of(text) & {"snug", "green", "everywhere"}  # each one idea's word
    [tally] = await bot.send(f"/view_results {pid}", user_id=2002)
    assert "• plants (2)\n• other ideas (1)" in tally


async def test_a_models_theme_of_one_ideas_words_is_not_shown(
    bot: BotHarness, fake_openai: FakeOpenAI
) -> None:
    fake_openai.content = json.dumps({"themes": [
        {"name": "Rātā and Pōhutukawa", "members": [1, 2]},  # two ideas, each one's word
        {"name": "The Snug", "members": [3]},  # one idea
    ]})  # fmt: skip
    use_model(bot, fake_openai)
    await free_form_with_ideas(bot, LONE_IDEAS)
    bot.clock.advance(timedelta(days=3))
    await bot.run_jobs("sweep")

    text = announcement(bot)
    assert "• other ideas (3)" in text
    assert not words_of(text) & set(LONE_WORDS)
    assert bot.services.llm.fallbacks == {}  # the model answered; its themes were refused
