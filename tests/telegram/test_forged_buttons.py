"""Every button press is answered: callback data the bot does not recognise (a button
from an older version, or data a modified client forged) gets "This button is no
longer valid", never a spinner left spinning; the known buttons keep refusing what
they refuse. On PostgreSQL, where an id past 32 bits is no integer the database takes."""

from __future__ import annotations

import pytest

from tests.conftest import ADMIN_ID, BotHarness
from tests.telegram.helpers import create_via_bot

NO_LONGER_VALID = "This button is no longer valid"
HUGE = "9999999999"  # ten digits: past a 32-bit id

FORGED = [
    "v:1:-1", "v:-1:0", "v:abc:0", "v:1:999", "v:1:1:1", "v:99999999999:0",
    "vp:x", "vp:-3", "pl:z:0", "pl:o:-1", "mp:", "mv:a",
    "cx:1:maybe", "cl:one:y", "ex:1:x:y", "fd:-5", "fd:1:q", "dl:q:0", "dx:nope:y",
    "vd:../../etc/passwd", "lang:", "lang:x" * 20,
    "pt:mc", "pc:yes", "ef:title",  # steps of a conversation that is not going on
    "", "garbage", "x" * 64, "v:" + "9" * 60,
    f"v:{HUGE}:0", f"vp:{HUGE}", f"cx:{HUGE}:y", f"cl:{HUGE}:y", f"ex:{HUGE}:86400:y",
    f"ex:1:{HUGE}00:y", f"fd:{HUGE}", f"fd:{HUGE}:y", f"dl:p{HUGE}:0",
]  # fmt: skip
# Recognised by their pattern, but naming nothing that exists: each known button's own
# answer (a refusal, an empty page), never an error.
UNKNOWN_IDS = [
    "v:999999999:0", "vp:999999999", "cx:999999999:y", "cl:999999999:y",
    "ex:999999999:9999999999:y", "fd:999999999", "fd:999999999:y", "dl:p999999999:0",
    "dl:g:999999", "pl:o:999999", "mp:999999", "mv:999999", "lang:xx",
    "vd:00000000-0000-0000-0000-000000000000", "dx:00000000-0000-0000-0000-000000000000:y",
]  # fmt: skip


def _answers(bot: BotHarness, since: int) -> list[str]:
    return [
        str(c.params.get("text", ""))
        for c in bot.request.calls[since:]
        if c.method == "answerCallbackQuery"
    ]


async def _press(bot: BotHarness, data: str, user_id: int = 2002, **kwargs: object) -> str:
    """Press a button with ``data``; what it was answered (never nothing). A handler may
    stop the spinner first and refuse after: the refusal is the last answer."""
    before = len(bot.request.calls)
    await bot.press(data, user_id=user_id, **kwargs)
    answers = _answers(bot, before)
    assert answers, f"{data!r} was not answered"
    return answers[-1]


@pytest.mark.parametrize("chat_type", ["private", "channel"])
async def test_forged_callback_data_is_answered(pg_bot: BotHarness, chat_type: str) -> None:
    await create_via_bot(pg_bot)
    kwargs: dict[str, object] = {"chat_type": chat_type}
    if chat_type == "channel":
        kwargs["chat_id"] = -1001234567890
    for data in FORGED:
        assert await _press(pg_bot, data, **kwargs) == NO_LONGER_VALID, data
    for data in UNKNOWN_IDS:
        assert await _press(pg_bot, data, **kwargs) != NO_LONGER_VALID, data
    # Nothing was changed by any of it.
    assert (await pg_bot.services.submissions.my_votes(2002)).items == []
    proposal = await pg_bot.services.proposals.get(1)
    assert proposal.status.value == "open" and proposal.title == "Pizza party"


async def test_forged_buttons_in_the_members_language(pg_bot: BotHarness) -> None:
    pg_bot.speaks("es", user_id=2002)
    assert await _press(pg_bot, "v:1:-1") == "Este botón ya no es válido"


async def test_known_buttons_keep_refusing(pg_bot: BotHarness) -> None:
    pid = await create_via_bot(pg_bot)
    # Another member's cancel, a non-admin's close and extension.
    assert "only" in (await _press(pg_bot, f"cx:{pid}:y", user_id=2002)).lower()
    assert "admin" in (await _press(pg_bot, f"cl:{pid}:y", user_id=2002)).lower()
    # A vote for an option that is not there.
    assert "no longer exists" in await _press(pg_bot, f"v:{pid}:7")
    # A missing proposal.
    assert "#999" in await _press(pg_bot, "v:999:0")
    # A vote that counts, then the proposal closes: its buttons refuse.
    assert "Vote recorded" in await _press(pg_bot, f"v:{pid}:0")
    assert await _press(pg_bot, f"cl:{pid}:y", user_id=ADMIN_ID) == "Closed."
    assert (await pg_bot.services.proposals.get(pid)).status.value == "closed"
    assert "has ended" in await _press(pg_bot, f"v:{pid}:1")
    [(vote, _)] = (await pg_bot.services.submissions.my_votes(2002)).items
    assert vote.response_content == "Yes", "the refused vote changed nothing"
