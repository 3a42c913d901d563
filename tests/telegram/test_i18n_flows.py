"""The main flows in Spanish, Russian and Brazilian Portuguese, read as the member reads
them: start, a step-by-step /propose with a deadline in the member's words, a vote, my_vote,
the results, /help and /ask, and errors. The member's Telegram app reports its
``language_code`` on every update; the channel stays in the community's language
(BOT_LANGUAGE, English here).

Each reply is compared with the catalog's sentence where the test knows which one is due,
and every reply is checked for English sentences that escaped translation.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from app.core.ask.context_service import HOW_TO_ASK, MAX_QUESTION
from app.domain.messages import Weekday
from app.i18n import translator
from tests.conftest import CHANNEL_ID, NOW, BotHarness
from tests.support.i18n import assert_no_english

# (language_code as Telegram sends it, catalog, deadline phrase, a weekday that contradicts
# its date, a /help question about changing a vote, an /ask question for closed proposals)
LANGUAGES = [
    ("es", "es", "3 días", "domingo 3 de diciembre de 2026", "¿cómo cambio mi voto?",
     "¿qué propuestas están cerradas?"),
    ("ru", "ru", "через 3 дня", "воскресенье 3 декабря 2026", "как изменить свой голос?",
     "какие предложения закрыты?"),
    ("pt-br", "pt_BR", "3 dias", "domingo 3 de dezembro de 2026", "como mudo meu voto?",
     "quais propostas estão encerradas?"),
]  # fmt: skip
MEMBER = ["Office ideas", "How should we use the spare room?", "Reading corner", "Table tennis"]
MEMBER_ID, VOTER_ID = 1001, 2002


class Conversation:
    """What one member sends and reads in a DM (and the toasts of their button taps)."""

    def __init__(self, bot: BotHarness, user_id: int) -> None:
        self.bot, self.user_id, self.read = bot, user_id, []  # type: list[str]

    async def send(self, text: str, **kwargs: object) -> list[str]:
        return await self._since(self.bot.send(text, user_id=self.user_id, **kwargs))

    async def press(self, data: str, **kwargs: object) -> list[str]:
        return await self._since(self.bot.press(data, user_id=self.user_id, **kwargs))

    async def _since(self, action: object) -> list[str]:
        before = len(self.bot.request.calls)
        await action  # type: ignore[misc]
        texts = [
            call.params["text"]
            for call in self.bot.request.calls[before:]
            if not call.failed
            and call.method in ("sendMessage", "editMessageText", "answerCallbackQuery")
            and call.params.get("text")
            and str(call.params.get("chat_id")) != CHANNEL_ID
        ]
        self.read += texts
        return texts


def _channel(bot: BotHarness) -> list[str]:
    return [
        call.params.get("text") or call.params.get("caption") or ""
        for call in bot.request.calls
        if not call.failed and str(call.params.get("chat_id")) == CHANNEL_ID
    ]


@pytest.mark.parametrize(
    ("code", "catalog", "deadline", "contradiction", "how_to_vote", "which_closed"), LANGUAGES
)
async def test_a_member_goes_through_every_main_flow_in_their_language(
    bot: BotHarness,
    code: str,
    catalog: str,
    deadline: str,
    contradiction: str,
    how_to_vote: str,
    which_closed: str,
) -> None:
    tr = translator(catalog, bot.services.settings.timezone)
    bot.speaks(code, MEMBER_ID)
    bot.speaks(code, VOTER_ID)
    member, voter = Conversation(bot, MEMBER_ID), Conversation(bot, VOTER_ID)

    [hello] = await member.send("/start")
    assert hello == tr(
        "Hello {name}! I help this community decide things together.\n\n"
        "Create a proposal with /propose, vote with the buttons under proposals in the "
        "channel, and see your own answers with /my_votes.\n\nSend /help for all "
        "commands, and /language to choose the language I write in.",
        name="User",
    )

    # /propose, step by step, with a deadline written the member's way.
    welcome = await member.send("/propose")
    assert welcome[0] == tr("Let's create a proposal. You can /cancel at any step.")
    await member.send("Office ideas")
    [kind] = await member.send("How should we use the spare room?")
    assert kind == tr("What kind of proposal is it?")
    await member.press("pt:mc")
    await member.send("Reading corner, Table tennis")
    [refused] = await member.send(contradiction)  # its weekday and date disagree
    reason = tr("{date} is not a {weekday}", date=date(2026, 12, 3), weekday=Weekday(6))
    assert refused == tr(
        "'{text}' is ambiguous: {reason}. Please give the date again.",
        text=contradiction,
        reason=reason,
    )
    await member.send(deadline)
    [summary] = await member.send("/skip")
    assert tr("<b>Please check your proposal</b>") in summary
    assert tr.when(NOW + timedelta(days=3)) in summary
    [created] = await member.press("pc:yes")
    pid = max(p.id for p in (await bot.services.proposals.my_proposals(MEMBER_ID)).items)
    assert f"#{pid}" in created

    [post] = [text for text in _channel(bot) if "Office ideas" in text]
    assert "New proposal" in post  # the channel reads BOT_LANGUAGE (English)

    # A vote from the channel, then the voter's own view of it.
    channel = {"chat_id": int(CHANNEL_ID), "chat_type": "channel"}
    [toast] = await voter.press(f"v:{pid}:1", **channel)
    assert toast == tr(
        "✅ Vote recorded: “{choice}”. Only you can see this.", choice="Table tennis"
    )
    [mine] = await voter.send(f"/my_vote {pid}")
    assert mine == tr(
        "For proposal '{title}' (#{id}), your submission was: '{answer}'",
        title="Office ideas",
        id=pid,
        answer="Table tennis",
    )

    # An error: a proposal that does not exist.
    [missing] = await voter.send("/my_vote 999")
    assert missing == tr(
        "Proposal #{id} does not exist. Use /proposals to see the list, or /ask to search for one.",
        id=999,
    )

    # The deadline passes: results in the channel (English), and on request in the DM.
    bot.clock.set(NOW + timedelta(days=3, minutes=1))
    await bot.run_jobs("sweep")
    assert any(text.startswith("🏁 <b>Results: Office ideas") for text in _channel(bot))
    [results] = await voter.send(f"/view_results {pid}")
    assert tr("Winner: <b>{option}</b>", option="Table tennis") in results
    assert tr.ngettext("Total: {n} vote.", "Total: {n} votes.", 1) in results

    # The manual answers in the member's words; /ask explains itself in them.
    [manual] = await member.send(f"/help {how_to_vote}")
    usage = tr("tap a button under the proposal in the channel")
    assert manual.startswith(tr("{text} Use: {usage}", text=tr(_VOTE_HELP), usage=usage))
    assert manual.endswith(
        tr("How I found this: I looked your question up in my command reference.")
    )
    [how_to_ask] = await member.send("/ask")
    assert how_to_ask == tr(HOW_TO_ASK, limit=MAX_QUESTION)
    [answer] = await member.send(f"/ask {which_closed}")
    assert f"#{pid}" in answer and "Office ideas" in answer
    what = tr.ngettext("closed proposal", "closed proposals", 1)
    assert answer.startswith(tr("I found {count} {what}.", count=1, what=what))

    assert_no_english(member.read + voter.read, allowed=MEMBER)


_VOTE_HELP = (
    "Vote on a multiple-choice proposal with the buttons under its post in the channel. Votes "
    "are anonymous, and you can change your vote any time until the deadline by tapping "
    "another option."
)
