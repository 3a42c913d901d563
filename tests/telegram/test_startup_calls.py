"""Optional start-up calls (commands, menu button): a failure is logged once, retried later."""

from __future__ import annotations

import logging

import pytest

from app.telegram_handlers.startup import JOB_NAME, optional_startup_calls
from tests.conftest import BotHarness


async def test_failed_startup_calls_are_retried_not_fatal(
    bot: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    bot.request.clear()
    bot.request.fail_next("setMyCommands", [("status", 500), ("status", 502)])
    with caplog.at_level(logging.WARNING, logger="app.telegram_handlers.startup"):
        assert await optional_startup_calls(bot.app) is False
        assert [j.name for j in bot.app.job_queue.jobs()].count(JOB_NAME) == 1
        assert await bot.run_jobs(JOB_NAME) == 1  # the retry fails too: quietly re-armed
    warnings = [r for r in caplog.records if "start-up calls" in r.getMessage()]
    assert len(warnings) == 1, "logged once"
    assert [j.name for j in bot.app.job_queue.jobs()].count(JOB_NAME) >= 1
    await bot.run_jobs(JOB_NAME)
    assert not bot.request.last("setMyCommands").failed
    assert bot.request.last("setChatMenuButton").params["menu_button"]["type"] == "commands"
    # The bot serves members all along.
    assert "Hello" in (await bot.send("/start"))[-1]
