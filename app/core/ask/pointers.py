"""Where an /ask answer points its reader next, in the words of the door it is read at.

An answer ends with what to do next: send /my_vote, tap another option, browse with
/proposals. That is right for a member in the bot's chat and wrong for an AI agent
reading the same answer over MCP, who can send no command and tap no button. So the
answer's pointers are a value the front door passes in: MEMBERS (the bot's commands,
also what the CLI prints) by default, or the front door's own (the MCP server names
its tools, app.mcp.wording). A pointer left None is left out of the answer.

Each pointer is a message id, translated into the answer's language where it is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.domain.messages import N_
from app.domain.models import Proposal, ProposalStatus
from app.i18n import Translator


@dataclass(frozen=True, slots=True)
class Pointers:
    own_vote: str  # the answer to "what did I vote?": votes are read by their voter only
    elsewhere: str  # nothing answers: what else the reader can try
    browse: str | None  # no proposal matched: where to see them all
    own_vote_on: str | None  # how to see one's own vote on a listed proposal ({example})
    results_of: str | None  # how to read a closed proposal's results ({example})

    def after(self, found: Sequence[Proposal], tr: Translator) -> str | None:
        """The last line of an answer that lists ``found`` (or found nothing)."""
        if not found:
            return tr(self.browse) if self.browse else None
        hints = []
        if self.own_vote_on:
            hints.append(tr(self.own_vote_on, example=found[0].id))
        closed = [p.id for p in found if p.status is ProposalStatus.CLOSED]
        if closed and self.results_of:
            hints.append(tr(self.results_of, example=closed[0]))
        return " ".join(hints) or None


MEMBERS = Pointers(
    own_vote=N_(
        "Your vote is shown to you alone, and I never read votes to answer: send /my_votes "
        "to see all of yours, or /my_vote <id> for one proposal. Until a proposal's deadline "
        "you can change your vote by tapping another option."
    ),
    elsewhere=N_(
        "I searched the documents and the knowledge graph. Try other words, ask about "
        "proposals (/ask which proposals are open?), or browse documents with /view_global_docs."
    ),
    browse=N_("Try /proposals to browse everything, or ask about a topic, a status or a date."),
    own_vote_on=N_(
        "To see your own vote on one of these, send /my_vote <id> (e.g. /my_vote {example})."
    ),
    results_of=N_(
        "For the results of a closed one, send /view_results <id> (e.g. /view_results {example})."
    ),
)
