"""The MCP server's words where the bot's would send an agent to Telegram.

The services name their sentences by message id (app.domain.messages), and a few of
those point the reader at a command or a button: "Use /proposals to see the list",
"send /my_vote <id>", "change your vote by tapping another option". An agent reading
over MCP can do none of that, so this front door says it its own way: the tool to call
instead, or nothing. The bot's members keep the bot's words.

``AGENTS`` are the pointers an `ask` answer ends with (translated, like the rest of
the answer, into the question's language); ``message`` renders an error for a tool
result, in English as every MCP error is.
"""

from __future__ import annotations

from app.core.ask.context_service import HOW_TO_ASK, NO_PROPOSAL
from app.core.ask.pointers import Pointers
from app.core.graph.graph_import import PART_EMPTY
from app.core.proposals.proposal_service import NOT_FOUND
from app.domain.errors import CoordBotError
from app.domain.messages import N_, fill

AGENTS = Pointers(
    own_vote=N_(
        "Votes are private: each vote is shown only to the member who cast it, in the "
        "bot's chat, and no tool here reads votes. A closed proposal's totals are in "
        "get_proposal."
    ),
    elsewhere=N_(
        "I searched the documents and the knowledge graph. Try other words, ask about "
        "proposals (“which proposals are open?”), or search the documents with "
        "knowledge_query."
    ),
    browse=N_(
        "Call search_proposals to browse every proposal, or ask about a topic, a status or a date."
    ),
    own_vote_on=None,  # no tool reads a vote: each is shown to its voter only
    results_of=N_(
        "For the results of a closed one, call get_proposal with its id (e.g. proposal_id "
        "{example})."
    ),
)

ERRORS = {
    NOT_FOUND: (
        "Proposal #{id} does not exist. Call search_proposals to see the list, or ask to "
        "search for one."
    ),
    NO_PROPOSAL: "There is no proposal #{id}. Call search_proposals to see them all.",
    HOW_TO_ASK: (
        "question cannot be empty: ask about this community's proposals, documents and "
        "facts in plain words, e.g. “which open proposals about funding were created this "
        "month?” or “how does parking work?”, and give proposal_id to ask about one "
        "proposal. Questions can be up to {limit} characters."
    ),
    PART_EMPTY["subject"]: "subject cannot be empty: give the entity the fact is about.",
    PART_EMPTY["predicate"]: "predicate cannot be empty: give the relationship, e.g. manages.",
    PART_EMPTY["object"]: "object cannot be empty: give what the subject is related to.",
}


def message(error: CoordBotError) -> str:
    """The error's sentence as an agent should read it."""
    template = ERRORS.get(error.text.msgid)
    return error.user_message if template is None else fill(template, error.text.params)
