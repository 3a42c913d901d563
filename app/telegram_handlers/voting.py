"""Vote buttons, /submit and the deep-link submission flow.

Confirmations are private (an alert only the presser sees, or a DM); nothing
public ever shows who voted or what they chose.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import (
    CallbackQueryHandler,
    CommandHandler,
    ConversationHandler,
    MessageHandler,
    filters,
)

from app.core.ask.context_service import HOW_TO_ASK, MAX_QUESTION
from app.core.proposals.validation import MAX_SUBMISSION
from app.domain.errors import CoordBotError, ValidationError
from app.i18n import Translator
from app.telegram_handlers.common import parse_proposal_id, reply, user_of
from app.telegram_handlers.context import BotContext
from app.telegram_handlers.formatting import h
from app.telegram_handlers.keyboards import VOTE
from app.telegram_handlers.start import start

WAITING_TEXT = 0


async def vote_button(update: Update, context: BotContext) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    _, proposal_id, option_index = query.data.split(":")
    receipt = await context.services.submissions.vote(
        int(proposal_id), user_of(update), int(option_index)
    )
    tr = context.tr
    if receipt.previous == receipt.choice:
        text = tr("Your vote is already “{choice}”.", choice=receipt.choice)
    elif receipt.changed:
        text = tr(
            "🔁 Vote changed to “{choice}”. You can change it until the deadline.",
            choice=receipt.choice,
        )
    else:
        text = tr("✅ Vote recorded: “{choice}”. Only you can see this.", choice=receipt.choice)
    await query.answer(text[:200], show_alert=True)


def _confirmation(tr: Translator, proposal_id: int, title: str, replaced: bool) -> str:
    if replaced:
        return tr(
            "✅ Your idea for “{title}” (#{id}) has replaced your earlier idea. It stays "
            "anonymous.\nSee it with /my_vote {id}; send a new one any time before the "
            "deadline to replace it.",
            id=proposal_id,
            title=h(title),
        )
    return tr(
        "✅ Your idea for “{title}” (#{id}) is recorded. It stays anonymous.\n"
        "See it with /my_vote {id}; send a new one any time before the deadline "
        "to replace it.",
        id=proposal_id,
        title=h(title),
    )


async def submit_command(update: Update, context: BotContext) -> int:
    args = context.args or []
    proposal_id = parse_proposal_id(args, "submit", "<your idea>")
    text = _text(update).split(maxsplit=2)
    if len(text) < 3:
        return await _ask_for_text(update, context, proposal_id)
    receipt = await context.services.submissions.submit(proposal_id, user_of(update), text[2])
    await reply(
        update, _confirmation(context.tr, proposal_id, receipt.proposal.title, receipt.changed)
    )
    return ConversationHandler.END


async def start_deep_link(update: Update, context: BotContext) -> int:
    payload = (context.args or [""])[0]
    if payload == "ask":  # from the button under /ask in a group
        await reply(update, h(context.tr(HOW_TO_ASK, limit=MAX_QUESTION)))
        return ConversationHandler.END
    if not payload.startswith("submit_"):
        await start(update, context)
        return ConversationHandler.END
    if context.state.draft is not None:
        await reply(
            update,
            context.tr(
                "You are in the middle of creating a proposal. Finish it or send /cancel, "
                "then tap the link again."
            ),
        )
        return ConversationHandler.END
    await context.services.proposals.register_user(user_of(update))
    return await _ask_for_text(update, context, parse_proposal_id([payload[7:]], "submit"))


async def _ask_for_text(update: Update, context: BotContext, proposal_id: int) -> int:
    proposal = await context.services.submissions.check_accepting(proposal_id)
    context.state.submitting_to = proposal_id
    await reply(
        update,
        context.tr(
            "💡 <b>{title}</b> (#{id})\n{description}\n\n"
            "Send your idea as your next message (up to {limit} characters), "
            "or /cancel. It will be anonymous.",
            title=h(proposal.title),
            id=proposal.id,
            description=h(proposal.description),
            limit=MAX_SUBMISSION,
        ),
    )
    return WAITING_TEXT


def _text(update: Update) -> str:
    message = update.effective_message
    return (message.text or "") if message else ""


async def got_submission(update: Update, context: BotContext) -> int | None:
    proposal_id = context.state.submitting_to
    if proposal_id is None:
        await reply(
            update, context.tr("There is no idea to send right now. /help lists what I can do.")
        )
        return ConversationHandler.END
    try:
        receipt = await context.services.submissions.submit(
            proposal_id, user_of(update), _text(update)
        )
    except ValidationError as exc:  # too long or empty: keep waiting for a better one
        await reply(update, h(context.tr.text(exc.text)))
        return None
    except CoordBotError as exc:  # closed or gone meanwhile: nothing left to wait for
        context.state.submitting_to = None
        await reply(update, h(context.tr.text(exc.text)))
        return ConversationHandler.END
    context.state.submitting_to = None
    await reply(
        update, _confirmation(context.tr, proposal_id, receipt.proposal.title, receipt.changed)
    )
    return ConversationHandler.END


async def not_text(update: Update, context: BotContext) -> None:
    await reply(update, context.tr("Please send your idea as a text message, or /cancel."))


async def cancel(update: Update, context: BotContext) -> int:
    context.state.submitting_to = None
    await reply(update, context.tr("Cancelled. Nothing was sent."))
    return ConversationHandler.END


def vote_handler() -> CallbackQueryHandler[BotContext, None]:
    return CallbackQueryHandler(vote_button, pattern=VOTE)


def submission_conversation() -> ConversationHandler[BotContext]:
    private = filters.ChatType.PRIVATE
    return ConversationHandler(
        entry_points=[
            CommandHandler("start", start_deep_link, filters=private),
            CommandHandler("submit", submit_command, filters=private),
        ],
        states={
            WAITING_TEXT: [
                MessageHandler(filters.TEXT & ~filters.COMMAND & private, got_submission),
                MessageHandler(~filters.COMMAND & private, not_text),
            ]
        },
        fallbacks=[CommandHandler("cancel", cancel, filters=private)],
        name="submit",
        allow_reentry=True,
    )
