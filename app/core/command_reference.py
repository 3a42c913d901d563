"""The bot's own manual: what /help <question> answers from.

One entry per task a member or an admin may want to do, written the way people
ask about it. The /help list and the command menu stay short; this is the long form.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import numpy as np

from app.nlp.key_terms import STOP_WORDS, word_forms


@dataclass(frozen=True, slots=True)
class HelpEntry:
    command: str
    usage: str
    text: str

    @property
    def searchable(self) -> str:
        return f"{self.command.replace('_', ' ')} {self.usage} {self.text}"


REFERENCE: tuple[HelpEntry, ...] = (
    HelpEntry("propose", "/propose Title; Description; Option 1, Option 2",
              "Create a new proposal or poll for the community to vote on. Send it on one line, "
              "or just /propose and I ask for the title, description, options and deadline step "
              "by step. Use FREEFORM instead of options to collect ideas."),
    HelpEntry("propose", "/propose Title; Description; FREEFORM",
              "Start a free-form proposal that collects ideas or suggestions in members' own "
              "words instead of votes on fixed options."),
    HelpEntry("vote", "tap a button under the proposal in the channel",
              "Vote on a multiple-choice proposal with the buttons under its post in the channel. "
              "Votes are anonymous, and you can change your vote any time until the deadline by "
              "tapping another option."),
    HelpEntry("submit", "/submit <proposal_id> <your idea>",
              "Send or change your idea for a free-form proposal, or tap the link under its post. "
              "Ideas are anonymous; results show them without names."),
    HelpEntry("proposals", "/proposals",
              "Browse all proposals: open ones, closed ones and cancelled ones, page by page."),
    HelpEntry("view_proposal", "/view_proposal <proposal_id>",
              "Show one proposal in full: description, options, deadline and status."),
    HelpEntry("my_vote", "/my_vote <proposal_id>",
              "See how you voted, or the idea you sent, on one proposal. Only you can see it."),
    HelpEntry("my_votes", "/my_votes",
              "List every vote and idea you have given, with the proposals they belong to."),
    HelpEntry("my_proposals", "/my_proposals", "List the proposals you created."),
    HelpEntry("edit_proposal", "/edit_proposal <proposal_id>",
              "Change the title, description or options of your own proposal, as long as nobody "
              "has voted on it yet."),
    HelpEntry("cancel_proposal", "/cancel_proposal <proposal_id>",
              "Cancel or withdraw your own open proposal; voting stops and the post says so."),
    HelpEntry("view_results", "/view_results <proposal_id>",
              "See the results of a closed proposal: votes per option with percentages and the "
              "winner, or the anonymous ideas. Results are announced in the channel with a chart "
              "when the deadline passes."),
    HelpEntry("extend_deadline", "/extend_deadline <proposal_id> 2 days",
              "Give a proposal more time: move its deadline later. The proposer or an admin can."),
    HelpEntry("close_proposal", "/close_proposal <proposal_id>",
              "Admins only: close a proposal early, before its deadline, and announce the "
              "results."),
    HelpEntry("ask", "/ask <question>",
              "Ask a question in plain words about proposals, decisions, documents or facts, e.g. "
              "which open proposals are about funding, or how parking works. /ask #12 <question> "
              "asks about one proposal."),
    HelpEntry("add_doc", "/add_doc <proposal_id>",
              "Attach a document (text, .md or .pdf file) to your proposal so people can read "
              "the details and /ask can answer from it."),
    HelpEntry("view_docs", "/view_docs <proposal_id>",
              "List the documents attached to a proposal; without an id, the global documents."),
    HelpEntry("view_doc", "/view_doc <document_id>", "Read one document."),
    HelpEntry("my_docs", "/my_docs", "List the documents you added."),
    HelpEntry("edit_doc", "/edit_doc <document_id>", "Change a document's title or text."),
    HelpEntry("delete_doc", "/delete_doc <document_id>", "Delete or remove a document you added."),
    HelpEntry("add_global_doc", "/add_global_doc",
              "Admins only: add a policy or rules document that applies to the whole community."),
    HelpEntry("view_global_docs", "/view_global_docs",
              "List the community-wide documents: policies, rules, guides."),
    HelpEntry("facts", "/facts <name>",
              "See what the knowledge graph knows about a person, place or thing."),
    HelpEntry("add_fact", "/add_fact Subject | predicate | Object",
              "Admins only: add a fact to the knowledge graph, like Alice | manages | the garden."),
    HelpEntry("delete_fact", "/delete_fact Subject | predicate | Object",
              "Admins only: remove a fact from the knowledge graph."),
    HelpEntry("privacy", "/privacy",
              "What the bot stores about you and who can see it. Votes are anonymous: nobody, "
              "not even admins or the proposer, can see how you voted."),
    HelpEntry("cancel", "/cancel", "Stop the step you are in, like creating a proposal."),
    HelpEntry("deadline", "/propose ... then answer the deadline question",
              "Every proposal has a deadline, like 'in 3 days' or 'next Friday 5pm'. At the "
              "deadline voting closes by itself, the results are posted in the channel with a "
              "chart, and a reminder goes out before it ends."),
)  # fmt: skip


HELP_FLOOR = 0.30  # combined score below which an entry does not answer the question


def _forms(text: str) -> set[str]:
    words = re.findall(r"[^\W_]+", text.casefold())
    out: set[str] = set()
    for word in words:
        if word not in STOP_WORDS and len(word) > 2:
            out |= word_forms(word)
    return out


class HelpIndex:
    """Ranks the reference for a question: shared words plus closeness in meaning.
    The entries are embedded once, on first use."""

    def __init__(self, embed: Callable[[Sequence[str]], Awaitable[np.ndarray]]) -> None:
        self._embed = embed
        self._vectors: np.ndarray | None = None
        self._forms = [_forms(e.searchable) for e in REFERENCE]

    async def best(self, question: str, embedding: np.ndarray, limit: int = 3) -> list[HelpEntry]:
        return [entry for _, entry in await self.scored(question, embedding, limit)]

    async def scored(
        self, question: str, embedding: np.ndarray, limit: int = 3
    ) -> list[tuple[float, HelpEntry]]:
        """The best entries with their scores, best first."""
        if self._vectors is None:
            self._vectors = await self._embed([e.searchable for e in REFERENCE])
        asked = _forms(question)
        similarity = self._vectors @ embedding
        scored = []
        for index, entry in enumerate(REFERENCE):
            shared = len(asked & self._forms[index])
            named = 0.3 if re.search(rf"/?\b{entry.command}\b", question.casefold()) else 0.0
            scored.append((float(similarity[index]) + 0.12 * min(shared, 3) + named, index))
        scored.sort(reverse=True)
        top = scored[0][0] if scored else 0.0
        bar = max(HELP_FLOOR, top - 0.15)
        return [(score, REFERENCE[i]) for score, i in scored[:limit] if score >= bar]
