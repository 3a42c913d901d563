"""How proposals look in Telegram: HTML with one escaping helper, split at 4096."""

from __future__ import annotations

import html
from datetime import datetime
from zoneinfo import ZoneInfo

from app.domain.models import Proposal, ProposalStatus, ProposalType, User

MAX_MESSAGE = 4096


def h(text: object) -> str:
    """Escape anything for Telegram's HTML parse mode."""
    return html.escape(str(text), quote=False)


def format_when(moment: datetime, tz: ZoneInfo) -> str:
    local = moment.astimezone(tz)
    return f"{local:%a %d %b %Y, %H:%M} {local.tzname()}"


def format_remaining(deadline: datetime, now: datetime) -> str:
    seconds = int((deadline - now).total_seconds())
    if seconds <= 0:
        return "ended"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if not days and minutes:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    return "in " + " ".join(parts[:2]) if parts else "in less than a minute"


def proposer_name(proposal: Proposal) -> str:
    if proposal.proposer is not None:
        return proposal.proposer.display_name
    return User(telegram_id=proposal.proposer_id).display_name


STATUS_LABEL = {
    ProposalStatus.OPEN: "🟢 open",
    ProposalStatus.CLOSED: "🔒 closed",
    ProposalStatus.CANCELLED: "❌ cancelled",
}


def render_channel_post(proposal: Proposal, tz: ZoneInfo) -> str:
    """The channel post; re-rendered on edit, cancel and close."""
    if proposal.status is ProposalStatus.CANCELLED:
        header = f"❌ <b>Cancelled</b> · proposal #{proposal.id}"
    elif proposal.status is ProposalStatus.CLOSED:
        header = f"🔒 <b>Voting closed</b> · proposal #{proposal.id}"
    else:
        header = f"📢 <b>New proposal #{proposal.id}</b>"
    lines = [
        header,
        "",
        f"<b>{h(proposal.title)}</b>",
        f"Proposed by {h(proposer_name(proposal))}",
        "",
        h(proposal.description),
        "",
    ]
    if proposal.proposal_type is ProposalType.MULTIPLE_CHOICE:
        lines.append("<b>Options</b>")
        lines.extend(f"• {h(option)}" for option in proposal.options)
        lines.append("")
        how = "🗳 Multiple choice · anonymous vote, changeable until the deadline"
    else:
        how = "💡 Free form · send your idea privately to the bot"
    lines.append(how)
    verb = "Voting ends" if proposal.status is ProposalStatus.OPEN else "Deadline"
    lines.append(f"⏰ {verb}: {h(format_when(proposal.deadline_at, tz))}")
    if proposal.status is ProposalStatus.CLOSED and proposal.outcome:
        lines.append(f"🏁 Outcome: {h(proposal.outcome)}")
    return "\n".join(lines)


def render_proposal_detail(proposal: Proposal, tz: ZoneInfo, now: datetime) -> str:
    lines = [
        f"<b>#{proposal.id} {h(proposal.title)}</b>",
        f"Status: {STATUS_LABEL[proposal.status]}",
        f"Type: {proposal.proposal_type.label}",
        f"Proposed by {h(proposer_name(proposal))} on {h(format_when(proposal.created_at, tz))}",
    ]
    if proposal.status is ProposalStatus.OPEN:
        remaining = format_remaining(proposal.deadline_at, now)
        lines.append(f"Voting ends: {h(format_when(proposal.deadline_at, tz))} ({remaining})")
    else:
        lines.append(f"Deadline: {h(format_when(proposal.deadline_at, tz))}")
    lines += ["", h(proposal.description)]
    if proposal.options:
        lines += ["", "<b>Options</b>", *(f"• {h(o)}" for o in proposal.options)]
    if proposal.status is ProposalStatus.CLOSED and proposal.outcome:
        lines += ["", f"🏁 Outcome: {h(proposal.outcome)}"]
    return "\n".join(lines)


def render_list_line(proposal: Proposal, tz: ZoneInfo) -> str:
    when = format_when(proposal.deadline_at, tz)
    verb = "ends" if proposal.status is ProposalStatus.OPEN else "deadline"
    return (
        f"#{proposal.id} <b>{h(proposal.title)}</b>\n"
        f"    {STATUS_LABEL[proposal.status]} · {proposal.proposal_type.label.lower()} · "
        f"{verb} {h(when)}"
    )


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
