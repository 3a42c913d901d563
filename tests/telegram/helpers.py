"""Shortcuts for handler tests: create proposals the way a user would."""

from __future__ import annotations

from tests.conftest import BotHarness


async def create_via_bot(
    bot: BotHarness,
    line: str = "Pizza party; Friday pizza on floor 4; Yes, No",
    duration: str = "3 days",
    user_id: int = 1001,
    username: str | None = "alice",
) -> int:
    """Walk /propose to the end through the Application; returns the new proposal id."""
    await bot.send(f"/propose {line}", user_id=user_id, username=username)
    await bot.send(duration, user_id=user_id, username=username)
    await bot.send("/skip", user_id=user_id, username=username)
    await bot.press("pc:yes", user_id=user_id, username=username)
    page = await bot.services.proposals.my_proposals(user_id)
    return max(p.id for p in page.items)
