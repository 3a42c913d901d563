"""MCP replies point an agent at MCP tools, never at the bot's commands or buttons:
the same answers the bot gives its members, ending with what an agent can do instead
(or nothing), and errors in the server's own words. The bot's members keep theirs
(tests/telegram/test_i18n_ask.py)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.mcp.support import Recording, error_text, stdio_client, structured, wire

TELEGRAM = re.compile(r"(?<![\w/])/[a-z_]+\b|\btap(ping)?\b|\bbuttons?\b", re.I)


async def test_answers_and_errors_name_tools_not_commands(
    sqlite_community: dict[str, str], tmp_path: Path
) -> None:
    async with stdio_client(sqlite_community, tmp_path, "--allow-writes") as client:
        call = Recording(client)
        seen = call.seen
        closed = structured(await call("ask", {"question": "which proposals are closed?"}))
        assert closed["answer"].endswith(
            "For the results of a closed one, call get_proposal with its id (e.g. proposal_id 1)."
        )
        mine = structured(await call("ask", {"question": "what did I vote on the pizza party?"}))
        assert mine["answer"].startswith(
            "Votes are private: each vote is shown only to the member who cast it, in the "
            "bot's chat, and no tool here reads votes."
        )
        about = structured(await call("ask", {"question": "what is ordered?", "proposal_id": 1}))
        assert "call get_proposal" in about["answer"]
        nothing = structured(await call("ask", {"question": "what is the airspeed of a swallow?"}))
        assert nothing["answer"].endswith("or search the documents with knowledge_query.")
        spanish = structured(await call("ask", {"question": "¿qué propuestas están cerradas?"}))
        assert spanish["answer"].endswith(
            "llama a get_proposal con su número (p. ej. proposal_id 1)."
        )

        assert error_text(await call("get_proposal", {"proposal_id": 99})) == (
            "Proposal #99 does not exist. Call search_proposals to see the list, or ask to "
            "search for one."
        )
        assert error_text(await call("ask", {"question": "what?", "proposal_id": 99})).startswith(
            "Proposal #99 does not exist. Call search_proposals"
        )
        assert error_text(await call("ask", {"question": "#99 what?"})) == (
            "There is no proposal #99. Call search_proposals to see them all."
        )
        empty = error_text(await call("ask", {"question": "  "}))
        assert empty.startswith("question cannot be empty: ask about this community's")
        assert empty.endswith("Questions can be up to 500 characters.")
        blank = await call("add_fact", {"subject": " ", "predicate": "likes", "object": "tea"})
        assert error_text(blank) == "subject cannot be empty: give the entity the fact is about."

    received = wire(seen)
    assert TELEGRAM.findall(received) == [], received
