"""How results read in Telegram: announcement, proposer DM, /view_results."""

from __future__ import annotations

from app.core.closing.themes import fold_small_themes
from app.domain.models import Proposal, ProposalResults, ProposalStatus, ProposalType
from app.i18n import Translator
from app.telegram_handlers.formatting import h


def _verdict(winners: list[str], total: int, tr: Translator) -> str:
    if total == 0:
        return tr("No votes were cast.")
    if len(winners) > 1:
        quoted = [f"“{h(w)}”" for w in winners]
        return tr(
            "It's a tie between {options} and {last}.",
            options=", ".join(quoted[:-1]),
            last=quoted[-1],
        )
    return tr("Winner: <b>{option}</b>", option=h(winners[0]))


def render_tally(proposal: Proposal, tr: Translator) -> str:
    raw = proposal.raw_results or {}
    if proposal.proposal_type is ProposalType.MULTIPLE_CHOICE:
        total = int(raw.get("total_votes", 0))
        lines = [
            tr.ngettext(
                "• {option}: {n} vote ({percent})",
                "• {option}: {n} votes ({percent})",
                int(row["votes"]),
                option=h(row["option"]),
                percent=tr.percent(float(row["percent"])),
            )
            for row in raw.get("options", [])
        ]
        total_line = tr.ngettext("Total: {n} vote.", "Total: {n} votes.", total)
        verdict = _verdict([str(w) for w in raw.get("winners", [])], total, tr)
        return "\n".join([*lines, "", f"{total_line} {verdict}"])
    count = int(raw.get("total_submissions", 0))
    if count == 0:
        return tr("No ideas were submitted.")
    lines = [
        tr.ngettext("{n} idea submitted. Main themes:", "{n} ideas submitted. Main themes:", count)
    ]
    themes = fold_small_themes(raw.get("themes", []))  # results stored before the rule
    lines += [f"• {h(t['theme'])} ({t['count']})" for t in themes] or [tr("• (no common themes)")]
    return "\n".join(lines)


def render_announcement(proposal: Proposal, tr: Translator) -> str:
    """Posted in the channel: ``tr`` is the community's language."""
    head = tr("🏁 <b>Results: {title}</b> (#{id})", title=h(proposal.title), id=proposal.id)
    tail = tr(
        "Voting is closed. Details: /view_results {id} in a private chat with me.",
        id=proposal.id,
    )
    return f"{head}\n\n{render_tally(proposal, tr)}\n\n{tail}"


def render_proposer_dm(proposal: Proposal, tr: Translator) -> str:
    """Sent to the proposer: ``tr`` is the proposer's language."""
    head = tr(
        "Your proposal <b>#{id} {title}</b> has closed.", id=proposal.id, title=h(proposal.title)
    )
    tail = tr("See /view_results {id} any time.", id=proposal.id)
    return f"{head}\n\n{render_tally(proposal, tr)}\n\n{tail}"


def render_reminder(proposal: Proposal, tr: Translator) -> str:
    values = {
        "id": proposal.id,
        "title": h(proposal.title),
        "when": h(tr.when(proposal.deadline_at)),
    }
    if proposal.is_multiple_choice:
        return tr(
            "⏰ <b>Last call:</b> #{id} {title}\nVoting ends {when}. There is still time to vote.",
            **values,
        )
    return tr(
        "⏰ <b>Last call:</b> #{id} {title}\n"
        "Voting ends {when}. There is still time to send your idea.",
        **values,
    )


def render_view_results(results: ProposalResults, tr: Translator) -> str:
    p = results.proposal
    head = f"<b>#{p.id} {h(p.title)}</b>"
    if p.status is ProposalStatus.OPEN:
        return (
            head
            + "\n"
            + tr(
                "Voting is still open until {when}. Results are announced at the deadline; "
                "no counts are shown before then.",
                when=h(tr.when(p.deadline_at)),
            )
        )
    if p.status is ProposalStatus.CANCELLED:
        return head + "\n" + tr("This proposal was cancelled, so it has no results.")
    lines = [
        tr("🏁 <b>#{id} {title}</b> (closed)", id=p.id, title=h(p.title)),
        "",
        render_tally(p, tr),
    ]
    if results.submissions:
        lines += ["", tr("<b>All ideas</b> (anonymous, in no particular order):")]
        lines += [f"{i}. {h(text)}" for i, text in enumerate(results.submissions, start=1)]
    return "\n".join(lines)
