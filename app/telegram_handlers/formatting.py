"""How proposals look in Telegram: HTML with one escaping helper, split at 4096."""

from __future__ import annotations

import html
from datetime import datetime

from app.domain.messages import N_
from app.domain.models import Proposal, ProposalStatus, ProposalType, User
from app.i18n import Translator

MAX_MESSAGE = 4096


def h(text: object) -> str:
    """Escape anything for Telegram's HTML parse mode."""
    return html.escape(str(text), quote=False)


def proposer_name(proposal: Proposal) -> str:
    if proposal.proposer is not None:
        return proposal.proposer.display_name
    return User(telegram_id=proposal.proposer_id).display_name


STATUS_LABEL = {
    ProposalStatus.OPEN: N_("🟢 open"),
    ProposalStatus.CLOSED: N_("🔒 closed"),
    ProposalStatus.CANCELLED: N_("❌ cancelled"),
}
# A proposal's type inside a list line (ProposalType.label starts a sentence).
TYPE_WORD = {
    ProposalType.MULTIPLE_CHOICE: N_("multiple choice"),
    ProposalType.FREE_FORM: N_("free form"),
}


def render_outcome(proposal: Proposal, tr: Translator) -> str:
    """The outcome in ``tr``'s language, from raw_results (the stored sentence is English)."""
    raw = proposal.raw_results
    if not raw:
        return h(proposal.outcome or "")
    if proposal.proposal_type is ProposalType.MULTIPLE_CHOICE:
        winners = [str(w) for w in raw.get("winners") or []]
        if not winners:
            return tr("No votes")
        if len(winners) > 1:
            return tr("Tie: {options}", options=h(", ".join(winners)))
        return h(winners[0])
    count = int(raw.get("total_submissions", 0))
    if count == 0:
        return tr("No submissions")
    return tr.ngettext("{n} submission", "{n} submissions", count)


def render_channel_post(proposal: Proposal, tr: Translator) -> str:
    """The channel post; re-rendered on edit, cancel and close."""
    if proposal.status is ProposalStatus.CANCELLED:
        header = tr("❌ <b>Cancelled</b> · proposal #{id}", id=proposal.id)
    elif proposal.status is ProposalStatus.CLOSED:
        header = tr("🔒 <b>Voting closed</b> · proposal #{id}", id=proposal.id)
    else:
        header = tr("📢 <b>New proposal #{id}</b>", id=proposal.id)
    lines = [
        header,
        "",
        f"<b>{h(proposal.title)}</b>",
        tr("Proposed by {name}", name=h(proposer_name(proposal))),
        "",
        h(proposal.description),
        "",
    ]
    if proposal.proposal_type is ProposalType.MULTIPLE_CHOICE:
        lines.append(tr("<b>Options</b>"))
        lines.extend(f"• {h(option)}" for option in proposal.options)
        lines.append("")
        how = tr("🗳 Multiple choice · anonymous vote, changeable until the deadline")
    else:
        how = tr("💡 Free form · send your idea privately to the bot")
    lines.append(how)
    when = h(tr.when(proposal.deadline_at))
    if proposal.status is ProposalStatus.OPEN:
        lines.append(tr("⏰ Voting ends: {when}", when=when))
    else:
        lines.append(tr("⏰ Deadline: {when}", when=when))
    if proposal.status is ProposalStatus.CLOSED and proposal.outcome:
        lines.append(tr("🏁 Outcome: {outcome}", outcome=render_outcome(proposal, tr)))
    return "\n".join(lines)


def render_proposal_detail(proposal: Proposal, tr: Translator, now: datetime) -> str:
    lines = [
        f"<b>#{proposal.id} {h(proposal.title)}</b>",
        tr("Status: {status}", status=tr(STATUS_LABEL[proposal.status])),
        tr("Type: {type}", type=tr(proposal.proposal_type.label)),
        tr(
            "Proposed by {name} on {when}",
            name=h(proposer_name(proposal)),
            when=h(tr.when(proposal.created_at)),
        ),
    ]
    deadline = h(tr.when(proposal.deadline_at))
    if proposal.status is ProposalStatus.OPEN:
        remaining = tr.remaining(proposal.deadline_at, now)
        lines.append(tr("Voting ends: {when} ({remaining})", when=deadline, remaining=remaining))
    else:
        lines.append(tr("Deadline: {when}", when=deadline))
    lines += ["", h(proposal.description)]
    if proposal.options:
        lines += ["", tr("<b>Options</b>"), *(f"• {h(o)}" for o in proposal.options)]
    if proposal.status is ProposalStatus.CLOSED and proposal.outcome:
        lines += ["", tr("🏁 Outcome: {outcome}", outcome=render_outcome(proposal, tr))]
    return "\n".join(lines)


def render_list_line(proposal: Proposal, tr: Translator) -> str:
    values = {
        "status": tr(STATUS_LABEL[proposal.status]),
        "type": tr(TYPE_WORD[proposal.proposal_type]),
        "when": h(tr.when(proposal.deadline_at)),
    }
    if proposal.status is ProposalStatus.OPEN:
        detail = tr("{status} · {type} · ends {when}", **values)
    else:
        detail = tr("{status} · {type} · deadline {when}", **values)
    return f"#{proposal.id} <b>{h(proposal.title)}</b>\n    {detail}"


def split_message(text: str, limit: int = MAX_MESSAGE) -> list[str]:
    """Split on line boundaries so every part fits in one Telegram message."""
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            parts.append(current)
            current = line
        else:
            current = candidate
    if current or not parts:
        parts.append(current)
    return parts
