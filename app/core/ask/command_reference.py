"""The bot's own manual: what /help <question> answers from.

One entry per task a member or an admin may want to do, written the way people
ask about it. The /help list and the command menu stay short; this is the long form.
Usages and texts are message ids: each language's catalog has the manual in its words.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.messages import N_


@dataclass(frozen=True, slots=True)
class HelpEntry:
    command: str
    usage: str
    text: str

    def searchable(self, usage: str, text: str) -> str:
        """What a question is matched against: the command's words, usage and text."""
        return f"{self.command.replace('_', ' ')} {usage} {text}"


REFERENCE: tuple[HelpEntry, ...] = (
    HelpEntry("propose", N_("/propose Title; Description; Option 1, Option 2"), N_(
        "Create a new proposal or poll for the community to vote on. Send it on one "
        "line, or just /propose and I ask for the title, description, options and "
        "deadline step by step. Use FREEFORM instead of options to collect ideas."
    )),
    HelpEntry("propose", N_("/propose Title; Description; FREEFORM"), N_(
        "Start a free-form proposal that collects ideas or suggestions in members' own "
        "words instead of votes on fixed options."
    )),
    HelpEntry("vote", N_("tap a button under the proposal in the channel"), N_(
        "Vote on a multiple-choice proposal with the buttons under its post in the "
        "channel. Votes are anonymous, and you can change your vote any time until the "
        "deadline by tapping another option."
    )),
    HelpEntry("submit", N_("/submit <proposal_id> <your idea>"), N_(
        "Send or change your idea for a free-form proposal, or tap the link under its "
        "post. Ideas are anonymous; results show them without names."
    )),
    HelpEntry("proposals", "/proposals", N_(
        "Browse all proposals: open ones, closed ones and cancelled ones, page by page."
    )),
    HelpEntry("view_proposal", N_("/view_proposal <proposal_id>"), N_(
        "Show one proposal in full: description, options, deadline and status."
    )),
    HelpEntry("my_vote", N_("/my_vote <proposal_id>"), N_(
        "See how you voted, or the idea you sent, on one proposal. Only you can see it."
    )),
    HelpEntry("my_votes", "/my_votes", N_(
        "List every vote and idea you have given, with the proposals they belong to."
    )),
    HelpEntry("my_proposals", "/my_proposals", N_(
        "List the proposals you created."
    )),
    HelpEntry("edit_proposal", N_("/edit_proposal <proposal_id>"), N_(
        "Change the title, description or options of your own proposal, as long as "
        "nobody has voted on it yet."
    )),
    HelpEntry("cancel_proposal", N_("/cancel_proposal <proposal_id>"), N_(
        "Cancel or withdraw your own open proposal; voting stops and the post says so."
    )),
    HelpEntry("view_results", N_("/view_results <proposal_id>"), N_(
        "See the results of a closed proposal: votes per option with percentages and "
        "the winner, or the anonymous ideas. Results are announced in the channel with "
        "a chart when the deadline passes."
    )),
    HelpEntry("extend_deadline", N_("/extend_deadline <proposal_id> 2 days"), N_(
        "Give a proposal more time: move its deadline later. The proposer or an admin "
        "can."
    )),
    HelpEntry("close_proposal", N_("/close_proposal <proposal_id>"), N_(
        "Admins only: close a proposal early, before its deadline, and announce the "
        "results."
    )),
    HelpEntry("ask", N_("/ask <question>"), N_(
        "Ask a question in plain words about proposals, decisions, documents or facts, "
        "e.g. which open proposals are about funding, or how parking works. /ask #12 "
        "<question> asks about one proposal."
    )),
    HelpEntry("add_doc", N_("/add_doc <proposal_id>"), N_(
        "Attach a document (text, .md or .pdf file) to your proposal so people can read "
        "the details and /ask can answer from it."
    )),
    HelpEntry("view_docs", N_("/view_docs <proposal_id>"), N_(
        "List the documents attached to a proposal; without an id, the global "
        "documents."
    )),
    HelpEntry("view_doc", N_("/view_doc <document_id>"), N_(
        "Read one document."
    )),
    HelpEntry("my_docs", "/my_docs", N_(
        "List the documents you added."
    )),
    HelpEntry("edit_doc", N_("/edit_doc <document_id>"), N_(
        "Change a document's title or text."
    )),
    HelpEntry("delete_doc", N_("/delete_doc <document_id>"), N_(
        "Delete or remove a document you added."
    )),
    HelpEntry("add_global_doc", "/add_global_doc", N_(
        "Admins only: add a policy or rules document that applies to the whole "
        "community."
    )),
    HelpEntry("view_global_docs", "/view_global_docs", N_(
        "List the community-wide documents: policies, rules, guides."
    )),
    HelpEntry("facts", N_("/facts <name>"), N_(
        "See what the knowledge graph knows about a person, place or thing."
    )),
    HelpEntry("add_fact", N_("/add_fact Subject | predicate | Object"), N_(
        "Admins only: add a fact to the knowledge graph, like Alice | manages | the "
        "garden."
    )),
    HelpEntry("delete_fact", N_("/delete_fact Subject | predicate | Object"), N_(
        "Admins only: remove a fact from the knowledge graph."
    )),
    HelpEntry("privacy", "/privacy", N_(
        "What the bot stores about you and who can see it. Votes are anonymous: nobody, "
        "not even admins or the proposer, can see how you voted."
    )),
    HelpEntry("cancel", "/cancel", N_(
        "Stop the step you are in, like creating a proposal."
    )),
    HelpEntry("deadline", N_("/propose ... then answer the deadline question"), N_(
        "Every proposal has a deadline, like 'in 3 days' or 'next Friday 5pm'. At the "
        "deadline voting closes by itself, the results are posted in the channel with a "
        "chart, and a reminder goes out before it ends."
    )),
)  # fmt: skip
