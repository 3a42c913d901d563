"""Small pieces every handler uses: who is asking, parsing ids, replying."""

from __future__ import annotations

import re
from collections.abc import Sequence

from telegram import InlineKeyboardMarkup, Message, Update
from telegram.constants import ParseMode

from app.core.proposals.proposal_service import not_found
from app.domain.errors import ValidationError
from app.domain.models import User
from app.telegram_handlers.formatting import split_message

_ID = re.compile(r"^#?(\d{1,10})$")
MAX_ID = 2**31 - 1  # the database's ids are 32-bit integers


def user_of(update: Update) -> User:
    tg = update.effective_user
    if tg is None:  # pragma: no cover - channel posts have no user; never routed here
        raise ValidationError("I can only help a person, not a channel.")
    return User(
        telegram_id=tg.id,
        username=tg.username,
        first_name=tg.first_name,
        last_name=tg.last_name,
        language_code=tg.language_code,
    )


def parse_proposal_id(args: Sequence[str] | None, command: str, usage: str = "") -> int:
    """The proposal id given to ``/command``; a missing or bad id says how to find one."""
    if not args:
        example = f"/{command} <proposal_id>{(' ' + usage) if usage else ''}"
        raise ValidationError(
            "Please tell me which proposal: {example}\nYou can find ids with /proposals, "
            "/my_proposals or /my_votes, or search with /ask <question>.",
            example=example,
        )
    match = _ID.match(args[0])
    if match and int(match.group(1)) > MAX_ID:  # no row has it (ids are 32-bit integers)
        raise not_found(int(match.group(1)))
    if not match:
        raise ValidationError(
            "'{given}' is not a proposal id. Ids are numbers, like /{command} 12.\nYou can "
            "find ids with /proposals, /my_proposals or /my_votes, or search with /ask "
            "<question>.",
            given=args[0][:40],
            command=command,
        )
    return int(match.group(1))


async def reply(
    update: Update, text: str, markup: InlineKeyboardMarkup | None = None
) -> Message | None:
    """Reply in HTML, splitting long text; the keyboard goes on the last part."""
    message = update.effective_message
    if message is None:
        return None
    parts = split_message(text)
    sent = None
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        sent = await message.reply_text(
            part,
            parse_mode=ParseMode.HTML,
            reply_markup=markup if last else None,
            disable_web_page_preview=True,
        )
    return sent
