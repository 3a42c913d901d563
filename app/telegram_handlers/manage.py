"""Proposer actions: /edit_proposal (a short conversation) and /cancel_proposal."""

from __future__ import annotations

from telegram import Update
from telegram.ext import (
    CallbackQueryHandler,
    CommandHandler,
    ConversationHandler,
    MessageHandler,
    filters,
)

from app.core.proposals.proposal_service import EditableField
from app.domain.errors import ValidationError
from app.domain.messages import N_
from app.telegram_handlers.common import parse_proposal_id, reply, user_of
from app.telegram_handlers.context import BotContext
from app.telegram_handlers.formatting import h, render_proposal_detail
from app.telegram_handlers.keyboards import (
    CANCEL_CONFIRM,
    EDIT_FIELD,
    cancel_confirm_keyboard,
    edit_field_keyboard,
)

CHOOSE_FIELD, NEW_VALUE = range(2)

PROMPTS = {
    EditableField.TITLE: N_("Send the new <b>title</b> (up to 200 characters). Or /cancel."),
    EditableField.DESCRIPTION: N_(
        "Send the new <b>description</b> (up to 3000 characters). Or /cancel."
    ),
    EditableField.OPTIONS: N_(
        "Send the new <b>options</b>, separated by commas (2 to 10). Or /cancel."
    ),
}


async def edit_start(update: Update, context: BotContext) -> int:
    proposal_id = parse_proposal_id(context.args, "edit_proposal")
    proposal = await context.services.proposals.check_editable(
        user_of(update).telegram_id, proposal_id
    )
    context.state.editing_proposal = proposal.id
    await reply(
        update,
        context.tr(
            "Editing <b>#{id} {title}</b>. What would you like to change?",
            id=proposal.id,
            title=h(proposal.title),
        ),
        edit_field_keyboard(proposal, context.tr),
    )
    return CHOOSE_FIELD


async def edit_choose(update: Update, context: BotContext) -> int:
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    choice = query.data.split(":")[1]
    if choice == "stop":
        context.state.editing_proposal = None
        await query.edit_message_text(context.tr("Done editing."))
        return ConversationHandler.END
    field = EditableField(choice)
    context.state.editing_field = field.value
    await query.edit_message_reply_markup(None)
    await reply(update, context.tr(PROMPTS[field]))
    return NEW_VALUE


async def edit_value(update: Update, context: BotContext) -> int | None:
    proposal_id = context.state.editing_proposal
    field = context.state.editing_field
    message = update.effective_message
    if proposal_id is None or field is None or message is None:  # pragma: no cover
        return ConversationHandler.END
    services = context.services
    try:
        proposal = await services.proposals.edit_proposal_details(
            user_of(update).telegram_id, proposal_id, EditableField(field), message.text or ""
        )
    except ValidationError as exc:
        await reply(update, h(context.tr.text(exc.text)))
        return None
    text = render_proposal_detail(proposal, context.tr, services.clock.now())
    tr = context.tr
    updated = tr("✅ Updated. The channel post shows the change.")
    more = tr("Anything else?")
    await reply(
        update,
        f"{updated}\n\n{text}\n\n{more}",
        edit_field_keyboard(proposal, tr),
    )
    return CHOOSE_FIELD


async def edit_cancel(update: Update, context: BotContext) -> int:
    context.state.editing_proposal = None
    context.state.editing_field = None
    await reply(update, context.tr("Editing stopped. Changes already confirmed are kept."))
    return ConversationHandler.END


def edit_conversation() -> ConversationHandler[BotContext]:
    private = filters.ChatType.PRIVATE
    return ConversationHandler(
        entry_points=[CommandHandler("edit_proposal", edit_start, filters=private)],
        states={
            CHOOSE_FIELD: [CallbackQueryHandler(edit_choose, pattern=EDIT_FIELD)],
            NEW_VALUE: [MessageHandler(filters.TEXT & ~filters.COMMAND & private, edit_value)],
        },
        fallbacks=[CommandHandler("cancel", edit_cancel, filters=private)],
        name="edit_proposal",
        allow_reentry=True,
    )


async def cancel_proposal(update: Update, context: BotContext) -> None:
    proposal_id = parse_proposal_id(context.args, "cancel_proposal")
    proposal = await context.services.proposals.check_cancellable(
        user_of(update).telegram_id, proposal_id
    )
    await reply(
        update,
        context.tr(
            "Cancel proposal <b>#{id} {title}</b>? Voting stops and the "
            "channel post is marked cancelled. This can't be undone.",
            id=proposal.id,
            title=h(proposal.title),
        ),
        cancel_confirm_keyboard(proposal.id, context.tr),
    )


async def cancel_proposal_button(update: Update, context: BotContext) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    _, proposal_id, answer = query.data.split(":")
    if answer == "n":
        await query.answer()
        await query.edit_message_text(context.tr("Kept. Nothing changed."))
        return
    proposal = await context.services.proposals.cancel_proposal(
        user_of(update).telegram_id, int(proposal_id)
    )
    tr = context.tr
    await query.answer(tr("Cancelled."))
    await query.edit_message_text(
        tr(
            "❌ Proposal #{id} “{title}” is cancelled; its channel post is marked cancelled.",
            id=proposal.id,
            title=h(proposal.title),
        ),
        parse_mode="HTML",
    )


def cancel_button_handler() -> CallbackQueryHandler[BotContext, None]:
    return CallbackQueryHandler(cancel_proposal_button, pattern=CANCEL_CONFIRM)
