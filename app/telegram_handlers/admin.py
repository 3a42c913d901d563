"""Early close (admins), deadline extension (admins and proposers), /view_results."""

from __future__ import annotations

from datetime import UTC, datetime

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.ext import CallbackQueryHandler

from app.domain.errors import ValidationError
from app.i18n import Translator
from app.nlp.dates import parse_deadline
from app.telegram_handlers.common import parse_proposal_id, reply, user_of
from app.telegram_handlers.context import BotContext
from app.telegram_handlers.formatting import h, render_outcome
from app.telegram_handlers.results_view import render_view_results

CLOSE_CONFIRM = r"^cl:(\d{1,9}):(y|n)$"
EXTEND_CONFIRM = r"^ex:(\d{1,9}):(\d{1,10}):(y|n)$"  # the new deadline, in Unix seconds


def _confirm(tr: Translator, yes: str, yes_data: str, no_data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(yes, callback_data=yes_data),
          InlineKeyboardButton(tr("No"), callback_data=no_data)]]
    )  # fmt: skip


async def close_proposal(update: Update, context: BotContext) -> None:
    proposal_id = parse_proposal_id(context.args, "close_proposal")
    user = user_of(update)
    if not context.services.proposals.is_admin(user.telegram_id):
        raise ValidationError("Only admins can close a proposal early.")
    proposal = await context.services.proposals.get(proposal_id)
    tr = context.tr
    await reply(
        update,
        tr(
            "Close <b>#{id} {title}</b> now, before its deadline? "
            "The results are announced right away.",
            id=proposal.id,
            title=h(proposal.title),
        ),
        _confirm(tr, tr("Yes, close it"), f"cl:{proposal.id}:y", f"cl:{proposal.id}:n"),
    )


async def close_button(update: Update, context: BotContext) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    _, proposal_id, answer = query.data.split(":")
    if answer == "n":
        await query.answer()
        await query.edit_message_text(context.tr("Not closed. Nothing changed."))
        return
    proposal = await context.services.closing.close_early(
        user_of(update).telegram_id, int(proposal_id)
    )
    tr = context.tr
    await query.answer(tr("Closed."))
    await query.edit_message_text(
        tr(
            "🔒 Proposal #{id} “{title}” is closed. Outcome: {outcome}. "
            "The results are being announced.",
            id=proposal.id,
            title=h(proposal.title),
            outcome=render_outcome(proposal, tr),
        ),
        parse_mode=ParseMode.HTML,
    )


async def extend_deadline(update: Update, context: BotContext) -> None:
    args = context.args or []
    proposal_id = parse_proposal_id(args, "extend_deadline", "<duration>")
    if len(args) < 2:
        raise ValidationError(
            "Please say how long: /extend_deadline {id} 2 days "
            "(or a new deadline like 'next Friday 5pm').",
            id=proposal_id,
        )
    services = context.services
    proposal = await services.proposals.check_extendable(user_of(update).telegram_id, proposal_id)
    now = services.clock.now()
    phrase = " ".join(args[1:])
    tr = context.tr
    deadline = _extended(phrase, proposal.deadline_at, now, tr)
    services.proposals.check_new_deadline(proposal, deadline)
    stamp = int(deadline.timestamp())
    await reply(
        update,
        tr(
            "Move the deadline of <b>#{id} {title}</b>\nfrom {old}\nto <b>{new}</b> ({remaining})?",
            id=proposal.id,
            title=h(proposal.title),
            old=h(tr.when(proposal.deadline_at)),
            new=h(tr.when(deadline)),
            remaining=tr.remaining(deadline, now),
        ),
        _confirm(
            tr, tr("Yes, extend"), f"ex:{proposal.id}:{stamp}:y", f"ex:{proposal.id}:{stamp}:n"
        ),
    )


def _extended(phrase: str, current: datetime, now: datetime, tr: Translator) -> datetime:
    """A duration extends the current deadline ("2 days" more); a moment replaces it.
    The phrase is read in the member's language ("2 días", "через 2 дня")."""
    tz = tr.tz.key
    from_now = parse_deadline(phrase, now, tz, tr.language)
    from_deadline = parse_deadline(phrase, current, tz, tr.language)
    is_duration = abs((from_deadline - current) - (from_now - now)).total_seconds() < 1
    return from_deadline if is_duration else from_now


async def extend_button(update: Update, context: BotContext) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    _, proposal_id, stamp, answer = query.data.split(":")
    if answer == "n":
        await query.answer()
        await query.edit_message_text(context.tr("Deadline unchanged."))
        return
    proposal = await context.services.proposals.extend_deadline(
        user_of(update).telegram_id, int(proposal_id), datetime.fromtimestamp(int(stamp), UTC)
    )
    tr = context.tr
    await query.answer(tr("Extended."))
    await query.edit_message_text(
        tr(
            "⏰ Proposal #{id} now closes {when}. The channel post shows the new deadline.",
            id=proposal.id,
            when=h(tr.when(proposal.deadline_at)),
        ),
        parse_mode=ParseMode.HTML,
    )


async def view_results(update: Update, context: BotContext) -> None:
    proposal_id = parse_proposal_id(context.args, "view_results")
    results = await context.services.results.view_results(proposal_id)
    await reply(update, render_view_results(results, context.tr))


def button_handlers() -> list[CallbackQueryHandler[BotContext, None]]:
    return [
        CallbackQueryHandler(close_button, pattern=CLOSE_CONFIRM),
        CallbackQueryHandler(extend_button, pattern=EXTEND_CONFIRM),
    ]
