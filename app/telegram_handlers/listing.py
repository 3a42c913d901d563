"""Read-only views: /proposals, /view_proposal, /my_proposals, /my_votes, /my_vote."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ParseMode

from app.domain.messages import N_
from app.domain.models import Page, Proposal, ProposalStatus, Submission
from app.i18n import Translator
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
LIST_TITLE = {
    ProposalStatus.OPEN: N_("Open proposals"),
    ProposalStatus.CLOSED: N_("Closed proposals"),
    ProposalStatus.CANCELLED: N_("Cancelled proposals"),
    None: N_("All proposals"),
}
LIST_EMPTY = {
    ProposalStatus.OPEN: N_("There are no open proposals. Create one with /propose."),
    ProposalStatus.CLOSED: N_("There are no closed proposals. Create one with /propose."),
    ProposalStatus.CANCELLED: N_("There are no cancelled proposals. Create one with /propose."),
    None: N_("There are no proposals yet. Create one with /propose."),
}
STATUS_WORD = {
    ProposalStatus.OPEN: N_("open"),
    ProposalStatus.CLOSED: N_("closed"),
    ProposalStatus.CANCELLED: N_("cancelled"),
}


def _page_text(title: str, page: Page[Proposal], empty: str, context: BotContext) -> str:
    """``title`` and ``empty`` are message ids."""
    tr = context.tr
    if not page.items:
        return tr(empty)
    first = page.page * page.page_size + 1
    last = first + len(page.items) - 1
    head = tr(
        "<b>{title}</b> ({first}–{last} of {total})",
        title=tr(title),
        first=first,
        last=last,
        total=page.total,
    )
    lines = [head, ""]
    lines += [render_list_line(p, tr) for p in page.items]
    lines += ["", tr("Tap a proposal to open it.")]
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
        tr = context.tr
        await reply(update, tr("Which proposals would you like to see?"), status_chooser(tr))
        return
    status = STATUS_WORDS.get(args[0].lower())
    if status is None and args[0].lower() != "all":
        await reply(
            update,
            context.tr(
                "I don't know the status '{status}'. Use /proposals open, /proposals closed, "
                "/proposals cancelled or /proposals all.",
                status=h(args[0][:30]),
            ),
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
    text = _page_text(LIST_TITLE[status], page, LIST_EMPTY[status], context)
    code = STATUS_TO_CODE.get(status, "a") if status else "a"
    await _show(update, text, list_keyboard(page, f"pl:{code}:", context.tr))


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
    tr = context.tr
    text = render_proposal_detail(proposal, tr, services.clock.now())
    hints = [tr("/my_vote {id} shows your own answer.", id=proposal.id)]
    if proposal.status is ProposalStatus.CLOSED:
        hints.append(tr("/view_results {id} shows the results.", id=proposal.id))
    await reply(
        update,
        text + "\n\n" + "\n".join(hints),
        detail_keyboard(proposal, context.bot.username, tr),
    )


async def my_proposals(update: Update, context: BotContext) -> None:
    await _my_proposals(update, context, 0)


async def my_proposals_page(update: Update, context: BotContext) -> None:
    assert update.callback_query and update.callback_query.data
    await _my_proposals(update, context, int(update.callback_query.data.split(":")[1]))


async def _my_proposals(update: Update, context: BotContext, page_no: int) -> None:
    assert update.effective_user is not None
    page = await context.services.proposals.my_proposals(update.effective_user.id, page_no)
    empty = N_("You haven't created any proposals yet. Start one with /propose.")
    text = _page_text(N_("Your proposals"), page, empty, context)
    await _show(update, text, list_keyboard(page, "mp:", context.tr))


async def my_votes(update: Update, context: BotContext) -> None:
    await _my_votes(update, context, 0)


async def my_votes_page(update: Update, context: BotContext) -> None:
    assert update.callback_query and update.callback_query.data
    await _my_votes(update, context, int(update.callback_query.data.split(":")[1]))


def _vote_line(submission: Submission, proposal: Proposal, tr: Translator) -> str:
    answer = submission.response_content
    if len(answer) > 120:
        answer = answer[:117] + "..."
    status = tr(STATUS_WORD[proposal.status])
    header = f"#{proposal.id} <b>{h(proposal.title)}</b> ({status})"
    return f"{header}\n    " + tr("you: “{answer}”", answer=h(answer))


async def _my_votes(update: Update, context: BotContext, page_no: int) -> None:
    assert update.effective_user is not None
    page = await context.services.submissions.my_votes(update.effective_user.id, page_no)
    tr = context.tr
    if not page.items:
        text = tr("You haven't voted or sent ideas yet. See what's open with /proposals open.")
    else:
        first = page.page * page.page_size + 1
        lines = [
            tr(
                "<b>Your votes and ideas</b> ({first}–{last} of {total})",
                first=first,
                last=first + len(page.items) - 1,
                total=page.total,
            ),
            tr("Only you can see this list."),
            "",
        ]
        lines += [_vote_line(s, p, tr) for s, p in page.items]
        text = "\n".join(lines)
    proposals_page = Page(
        items=[p for _, p in page.items], page=page.page, page_size=page.page_size, total=page.total
    )
    await _show(update, text, list_keyboard(proposals_page, "mv:", tr))


async def my_vote(update: Update, context: BotContext) -> None:
    assert update.effective_user is not None
    proposal_id = parse_proposal_id(context.args, "my_vote")
    result = await context.services.submissions.get_user_submission_for_proposal(
        update.effective_user.id, proposal_id
    )
    p, tr = result.proposal, context.tr
    if result.submission is None:
        text = tr(
            "You did not make a submission for proposal '{title}' (#{id}).",
            title=h(p.title),
            id=p.id,
        )
    else:
        text = tr(
            "For proposal '{title}' (#{id}), your submission was: '{answer}'",
            title=h(p.title),
            id=p.id,
            answer=h(result.submission.response_content),
        )
    await reply(update, text)
