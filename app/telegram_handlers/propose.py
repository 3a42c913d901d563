"""/propose: one line, or a guided conversation for whatever is missing.

Each step validates with the same rules the service enforces, so a bad answer
gets its reason and the same question again, and nothing typed so far is lost.
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

from app.core.proposals import validation
from app.domain.errors import ValidationError
from app.domain.messages import Text
from app.domain.models import ProposalDraft, ProposalType
from app.nlp.dates import parse_deadline
from app.telegram_handlers.common import reply, user_of
from app.telegram_handlers.context import BotContext, DraftState
from app.telegram_handlers.formatting import h
from app.telegram_handlers.keyboards import (
    PROPOSE_CONFIRM,
    PROPOSE_TYPE,
    confirm_keyboard,
    proposal_type_keyboard,
)

TITLE, DESCRIPTION, TYPE, OPTIONS, DURATION, CONTEXT, CONFIRM = range(7)
FREEFORM_WORDS = {"freeform", "free form", "free-form", "free_form"}


def _draft(context: BotContext) -> DraftState:
    if context.state.draft is None:
        context.state.draft = DraftState()
    return context.state.draft


def _fill_from_line(draft: DraftState, line: str) -> list[Text]:
    """Take what the one-line form gives; returns the problems found (those parts are re-asked)."""
    problems: list[Text] = []
    parts = [p.strip() for p in line.split(";", 2)]
    steps = [
        ("title", validation.clean_title),
        ("description", validation.clean_description),
    ]
    for (name, clean), part in zip(steps, parts, strict=False):
        if not part:
            continue
        try:
            setattr(draft, name, clean(part))
        except ValidationError as exc:
            problems.append(exc.text)
    if len(parts) == 3 and parts[2]:
        if parts[2].casefold() in FREEFORM_WORDS:
            draft.proposal_type = ProposalType.FREE_FORM
        else:
            draft.proposal_type = ProposalType.MULTIPLE_CHOICE
            try:
                draft.options = validation.clean_options(validation.split_options(parts[2]))
            except ValidationError as exc:
                problems.append(exc.text)
    return problems


async def start_propose(update: Update, context: BotContext) -> int:
    context.state.draft = DraftState()
    tr = context.tr
    text = update.effective_message.text if update.effective_message else ""
    line = text.split(maxsplit=1)[1] if text and len(text.split(maxsplit=1)) > 1 else ""
    problems = _fill_from_line(context.state.draft, line) if line else []
    if problems:
        await reply(update, h("\n".join(tr.text(problem) for problem in problems)))
    elif not line:
        await reply(update, tr("Let's create a proposal. You can /cancel at any step."))
    return await ask_next(update, context)


async def ask_next(update: Update, context: BotContext) -> int:
    draft = _draft(context)
    tr = context.tr
    if draft.title is None:
        await reply(update, tr("What is the <b>title</b> of your proposal? (up to 200 characters)"))
        return TITLE
    if draft.description is None:
        await reply(update, tr("Now a <b>description</b>: what is proposed, and why? (up to 3000)"))
        return DESCRIPTION
    if draft.proposal_type is None:
        await reply(update, tr("What kind of proposal is it?"), proposal_type_keyboard(tr))
        return TYPE
    if draft.proposal_type is ProposalType.MULTIPLE_CHOICE and not draft.options:
        await reply(
            update,
            tr(
                "Send the <b>options</b>, separated by commas or one per line "
                "(2 to 10, e.g. <code>Yes, No, Abstain</code>)."
            ),
        )
        return OPTIONS
    if draft.deadline_at is None:
        await reply(
            update,
            tr(
                "How long should voting run? Send a duration or a deadline, e.g. "
                "<code>3 days</code>, <code>next Friday 5pm</code> or "
                "<code>2026-12-01 18:00</code>."
            ),
        )
        return DURATION
    if not draft.context_asked:
        await reply(
            update,
            tr(
                "Optionally, send background <b>context</b> for voters (a few paragraphs), "
                "or /skip."
            ),
        )
        return CONTEXT
    return await show_summary(update, context)


async def show_summary(update: Update, context: BotContext) -> int:
    draft = _draft(context)
    tr = context.tr
    now = context.services.clock.now()
    lines = [
        tr("<b>Please check your proposal</b>"),
        tr("Title: {title}", title=h(draft.title)),
        tr("Description: {description}", description=h(draft.description)),
        tr("Type: {type}", type=tr(draft.proposal_type.label) if draft.proposal_type else ""),
    ]
    if draft.options:
        lines.append(tr("Options: {options}", options=h(", ".join(draft.options))))
    lines.append(
        tr(
            "Voting ends: <b>{when}</b> ({remaining})",
            when=h(tr.when(draft.deadline_at)),
            remaining=tr.remaining(draft.deadline_at, now),
        )
    )
    if draft.context_text:
        lines.append(
            tr.ngettext(
                "Context: {n} character", "Context: {n} characters", len(draft.context_text)
            )
        )
    await reply(update, "\n".join(lines), confirm_keyboard(tr))
    return CONFIRM


def _text(update: Update) -> str:
    message = update.effective_message
    return message.text or "" if message else ""


async def got_title(update: Update, context: BotContext) -> int:
    _draft(context).title = validation.clean_title(_text(update))
    return await ask_next(update, context)


async def got_description(update: Update, context: BotContext) -> int:
    _draft(context).description = validation.clean_description(_text(update))
    return await ask_next(update, context)


async def got_type_button(update: Update, context: BotContext) -> int:
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    chosen = ProposalType.FREE_FORM if query.data.endswith("ff") else ProposalType.MULTIPLE_CHOICE
    _draft(context).proposal_type = chosen
    tr = context.tr
    await query.edit_message_text(tr("Type: {type}", type=tr(chosen.label)))
    return await ask_next(update, context)


async def got_type_text(update: Update, context: BotContext) -> int:
    text = _text(update).casefold()
    if "free" in text or "idea" in text:
        _draft(context).proposal_type = ProposalType.FREE_FORM
    elif "multi" in text or "choice" in text or "vote" in text:
        _draft(context).proposal_type = ProposalType.MULTIPLE_CHOICE
    else:
        await reply(
            update,
            context.tr("Please choose the type with one of the buttons."),
            proposal_type_keyboard(context.tr),
        )
        return TYPE
    return await ask_next(update, context)


async def got_options(update: Update, context: BotContext) -> int:
    options = validation.clean_options(validation.split_options(_text(update)))
    _draft(context).options = options
    return await ask_next(update, context)


async def got_duration(update: Update, context: BotContext) -> int:
    services = context.services
    now = services.clock.now()
    settings = services.settings
    deadline = parse_deadline(_text(update), now, settings.bot_timezone, context.tr.language)
    _draft(context).deadline_at = validation.check_deadline(deadline, now)
    return await ask_next(update, context)


async def got_context(update: Update, context: BotContext) -> int:
    draft = _draft(context)
    draft.context_text = validation.clean_context(_text(update)) or None
    draft.context_asked = True
    return await ask_next(update, context)


async def skip_context(update: Update, context: BotContext) -> int:
    _draft(context).context_asked = True
    return await ask_next(update, context)


async def confirm(update: Update, context: BotContext) -> int:
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    choice = query.data.split(":")[1]
    draft = _draft(context)
    if choice == "no":
        context.state.draft = None
        await query.edit_message_text(context.tr("Discarded. Nothing was saved."))
        return ConversationHandler.END
    if choice == "redo":
        draft.deadline_at = None
        await query.edit_message_reply_markup(None)
        return await ask_next(update, context)
    assert draft.title and draft.description and draft.proposal_type
    created = await context.services.proposals.create_proposal(
        user_of(update),
        ProposalDraft(
            title=draft.title,
            description=draft.description,
            proposal_type=draft.proposal_type,
            options=draft.options or [],
            deadline_at=draft.deadline_at,
            context_text=draft.context_text,
        ),
        origin=getattr(draft, "key", None),  # drafts saved before keys existed have none
    )
    context.state.draft = None
    await query.edit_message_reply_markup(None)
    p = created.proposal
    tr = context.tr
    if created.posted:
        text = tr(
            "✅ Proposal <b>#{id}</b> “{title}” is created. It is posted in the channel.\n\n"
            "What next:\n/view_proposal {id} to see it\n"
            "/edit_proposal {id} to change it (until the first response)\n"
            "/cancel_proposal {id} to cancel it\n/my_proposals for all yours",
            id=p.id,
            title=h(p.title),
        )
    else:
        text = tr(
            "✅ Proposal <b>#{id}</b> “{title}” is created. It could not be posted to the "
            "channel yet; members can still find it with /proposals.\n\n"
            "What next:\n/view_proposal {id} to see it\n"
            "/edit_proposal {id} to change it (until the first response)\n"
            "/cancel_proposal {id} to cancel it\n/my_proposals for all yours",
            id=p.id,
            title=h(p.title),
        )
    await reply(update, text)
    return ConversationHandler.END


async def waiting_for_button(update: Update, context: BotContext) -> int | None:
    await reply(update, context.tr("Please use the buttons above, or /cancel."))
    return None


async def cancel(update: Update, context: BotContext) -> int:
    context.state.draft = None
    await reply(update, context.tr("Cancelled. Nothing was saved."))
    return ConversationHandler.END


def conversation() -> ConversationHandler[BotContext]:
    private = filters.ChatType.PRIVATE
    text = filters.TEXT & ~filters.COMMAND & private
    return ConversationHandler(
        entry_points=[CommandHandler("propose", start_propose, filters=private)],
        states={
            TITLE: [MessageHandler(text, got_title)],
            DESCRIPTION: [MessageHandler(text, got_description)],
            TYPE: [
                CallbackQueryHandler(got_type_button, pattern=PROPOSE_TYPE),
                MessageHandler(text, got_type_text),
            ],
            OPTIONS: [MessageHandler(text, got_options)],
            DURATION: [MessageHandler(text, got_duration)],
            CONTEXT: [
                CommandHandler("skip", skip_context, filters=private),
                MessageHandler(text, got_context),
            ],
            CONFIRM: [
                CallbackQueryHandler(confirm, pattern=PROPOSE_CONFIRM),
                MessageHandler(text, waiting_for_button),
            ],
        },
        fallbacks=[CommandHandler("cancel", cancel, filters=private)],
        name="propose",
        allow_reentry=True,
    )
