"""How results read in Telegram: announcement, proposer DM, /view_results."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from app.domain.models import Proposal, ProposalResults, ProposalStatus, ProposalType
from app.telegram_handlers.formatting import format_when, h


def _votes(n: int) -> str:
    return f"{n} vote{'s' if n != 1 else ''}"


def render_tally(proposal: Proposal) -> str:
    raw = proposal.raw_results or {}
    if proposal.proposal_type is ProposalType.MULTIPLE_CHOICE:
        total = int(raw.get("total_votes", 0))
        lines = [
            f"• {h(row['option'])}: {_votes(int(row['votes']))} ({row['percent']:.1f}%)"
            for row in raw.get("options", [])
        ]
        winners = raw.get("winners", [])
        if total == 0:
            verdict = "No votes were cast."
        elif len(winners) > 1:
            verdict = "It's a tie between " + " and ".join(f"“{h(w)}”" for w in winners) + "."
        else:
            verdict = f"Winner: <b>{h(winners[0])}</b>"
        return "\n".join([*lines, "", f"Total: {_votes(total)}. {verdict}"])
    count = int(raw.get("total_submissions", 0))
    if count == 0:
        return "No ideas were submitted."
    lines = [f"{count} idea{'s' if count != 1 else ''} submitted. Main themes:"]
    lines += [f"• {h(t['theme'])} ({t['count']})" for t in raw.get("themes", [])] or [
        "• (no common themes)"
    ]
    return "\n".join(lines)


def render_announcement(proposal: Proposal) -> str:
    return (
        f"🏁 <b>Results: {h(proposal.title)}</b> (#{proposal.id})\n\n"
        f"{render_tally(proposal)}\n\nVoting is closed. Details: /view_results {proposal.id} "
        "in a private chat with me."
    )


def render_proposer_dm(proposal: Proposal) -> str:
    return (
        f"Your proposal <b>#{proposal.id} {h(proposal.title)}</b> has closed.\n\n"
        f"{render_tally(proposal)}\n\nSee /view_results {proposal.id} any time."
    )


def render_reminder(proposal: Proposal, tz: ZoneInfo) -> str:
    action = "vote" if proposal.is_multiple_choice else "send your idea"
    return (
        f"⏰ <b>Last call:</b> #{proposal.id} {h(proposal.title)}\n"
        f"Voting ends {h(format_when(proposal.deadline_at, tz))}. There is still time to {action}."
    )


def render_view_results(results: ProposalResults, tz: ZoneInfo) -> str:
    p = results.proposal
    head = f"<b>#{p.id} {h(p.title)}</b>"
    if p.status is ProposalStatus.OPEN:
        return (
            f"{head}\nVoting is still open until {h(format_when(p.deadline_at, tz))}. "
            "Results are announced at the deadline; no counts are shown before then."
        )
    if p.status is ProposalStatus.CANCELLED:
        return f"{head}\nThis proposal was cancelled, so it has no results."
    lines = [f"🏁 {head} (closed)", "", render_tally(p)]
    if results.submissions:
        lines += ["", "<b>All ideas</b> (anonymous, in no particular order):"]
        lines += [f"{i}. {h(text)}" for i, text in enumerate(results.submissions, start=1)]
    return "\n".join(lines)
