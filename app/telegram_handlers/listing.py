"""Read-only views: /proposals, /view_proposal, /my_proposals, /my_votes, /my_vote."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ParseMode

from app.domain.models import Page, Proposal, ProposalStatus, Submission
from app.telegram_handlers.common import parse_proposal_id, reply
from app.telegram_handlers.context import BotContext
from app.telegram_handlers.formatting import h, render_list_line, render_proposal_detail
from app.telegram_handlers.keyboards import (
    STATUS_CODES,
    STATUS_TO_CODE,
    detail_keyboard,
    list_keyboard,
    status_chooser,
)

STATUS_WORDS = {
    "open": ProposalStatus.OPEN,
    "closed": ProposalStatus.CLOSED,
    "cancelled": ProposalStatus.CANCELLED,
    "canceled": ProposalStatus.CANCELLED,
}


def _page_text(title: str, page: Page[Proposal], empty: str, context: BotContext) -> str:
    if not page.items:
        return empty
    tz = context.services.settings.timezone
    first = page.page * page.page_size + 1
    last = first + len(page.items) - 1
    lines = [f"<b>{title}</b> ({first}–{last} of {page.total})", ""]
    lines += [render_list_line(p, tz) for p in page.items]
    lines += ["", "Tap a proposal to open it."]
    return "\n".join(lines)


async def _show(update: Update, text: str, markup: object) -> None:
    """Edit the message a button was pressed on, or reply to a command."""
    query = update.callback_query
    if query is not None:
        await query.answer()
        await query.edit_message_text(
            text,
            parse_mode=ParseMode.HTML,
            reply_markup=markup,  # type: ignore[arg-type]
        )
    else:
        await reply(update, text, markup)  # type: ignore[arg-type]


async def proposals_command(update: Update, context: BotContext) -> None:
    args = context.args or []
    if not args:
        await reply(update, "Which proposals would you like to see?", status_chooser())
        return
    status = STATUS_WORDS.get(args[0].lower())
    if status is None and args[0].lower() != "all":
        await reply(
            update,
            f"I don't know the status '{h(args[0][:30])}'. "
            "Use /proposals open, /proposals closed, /proposals cancelled or /proposals all.",
        )
        return
    await _list(update, context, status, 0)


async def proposals_page(update: Update, context: BotContext) -> None:
    assert update.callback_query and update.callback_query.data
    _, code, page = update.callback_query.data.split(":")
    await _list(update, context, STATUS_CODES.get(code), int(page))


async def _list(
    update: Update, context: BotContext, status: ProposalStatus | None, page_no: int
) -> None:
    page = await context.services.proposals.list_proposals(status, page_no)
    label = f"{status.value.capitalize()} proposals" if status else "All proposals"
    empty = f"There are no {status.value} proposals." if status else "There are no proposals yet."
    empty += " Create one with /propose."
    code = STATUS_TO_CODE.get(status, "a") if status else "a"
    await _show(update, _page_text(label, page, empty, context), list_keyboard(page, f"pl:{code}:"))


async def view_proposal(update: Update, context: BotContext) -> None:
    proposal_id = parse_proposal_id(context.args, "view_proposal")
    await _detail(update, context, proposal_id)


async def view_proposal_button(update: Update, context: BotContext) -> None:
    assert update.callback_query and update.callback_query.data
    await update.callback_query.answer()
    await _detail(update, context, int(update.callback_query.data.split(":")[1]))


async def _detail(update: Update, context: BotContext, proposal_id: int) -> None:
    services = context.services
    proposal = await services.proposals.get(proposal_id)
    text = render_proposal_detail(proposal, services.settings.timezone, services.clock.now())
    hints = [f"/my_vote {proposal.id} shows your own answer."]
    if proposal.status is ProposalStatus.CLOSED:
        hints.append(f"/view_results {proposal.id} shows the results.")
    await reply(
        update,
        text + "\n\n" + "\n".join(hints),
        detail_keyboard(proposal, context.bot.username),
    )


async def my_proposals(update: Update, context: BotContext) -> None:
    await _my_proposals(update, context, 0)


async def my_proposals_page(update: Update, context: BotContext) -> None:
    assert update.callback_query and update.callback_query.data
    await _my_proposals(update, context, int(update.callback_query.data.split(":")[1]))


async def _my_proposals(update: Update, context: BotContext, page_no: int) -> None:
    assert update.effective_user is not None
    page = await context.services.proposals.my_proposals(update.effective_user.id, page_no)
    empty = "You haven't created any proposals yet. Start one with /propose."
    text = _page_text("Your proposals", page, empty, context)
    await _show(update, text, list_keyboard(page, "mp:"))


async def my_votes(update: Update, context: BotContext) -> None:
    await _my_votes(update, context, 0)


async def my_votes_page(update: Update, context: BotContext) -> None:
    assert update.callback_query and update.callback_query.data
    await _my_votes(update, context, int(update.callback_query.data.split(":")[1]))


def _vote_line(submission: Submission, proposal: Proposal) -> str:
    answer = submission.response_content
    if len(answer) > 120:
        answer = answer[:117] + "..."
    header = f"#{proposal.id} <b>{h(proposal.title)}</b> ({proposal.status.value})"
    return f"{header}\n    you: “{h(answer)}”"


async def _my_votes(update: Update, context: BotContext, page_no: int) -> None:
    assert update.effective_user is not None
    page = await context.services.submissions.my_votes(update.effective_user.id, page_no)
    if not page.items:
        text = "You haven't voted or sent ideas yet. See what's open with /proposals open."
    else:
        first = page.page * page.page_size + 1
        lines = [
            f"<b>Your votes and ideas</b> ({first}–{first + len(page.items) - 1} of {page.total})",
            "Only you can see this list.",
            "",
        ]
        lines += [_vote_line(s, p) for s, p in page.items]
        text = "\n".join(lines)
    proposals_page = Page(
        items=[p for _, p in page.items], page=page.page, page_size=page.page_size, total=page.total
    )
    await _show(update, text, list_keyboard(proposals_page, "mv:"))


async def my_vote(update: Update, context: BotContext) -> None:
    assert update.effective_user is not None
    proposal_id = parse_proposal_id(context.args, "my_vote")
    result = await context.services.submissions.get_user_submission_for_proposal(
        update.effective_user.id, proposal_id
    )
    await reply(update, h(result.message))
