"""A proposal whose deadline has passed while no bot process ran (so its deadline job
never closed it) is shown as it is: voting ended, results not yet published. It is not
listed as open, no reply calls it open, and the MCP server does not close it (closing
is the bot's job: it announces the result)."""

from __future__ import annotations

from pathlib import Path

from tests.mcp.support import Recording, stdio_client, structured, wire

ENDED = 5  # tests/mcp/conftest.py: ended_community


async def test_a_passed_deadline_is_never_shown_as_open(
    ended_community: dict[str, str], tmp_path: Path
) -> None:
    async with stdio_client(ended_community, tmp_path) as client:
        call = Recording(client)
        seen = call.seen
        every = structured(await call("search_proposals", {}))
        laundry = next(p for p in every["proposals"] if p["id"] == ENDED)
        assert laundry["status"] == "voting_ended"
        assert laundry["outcome"] is None and laundry["closed_at"] is None
        assert "“Laundry room hours” (multiple_choice, voting ended " in seen[-1].content[0].text
        assert ", results not yet published)" in seen[-1].content[0].text

        opened = structured(await call("search_proposals", {"status": "open"}))
        assert [p["id"] for p in opened["proposals"]] == [2] and opened["total"] == 1
        by_text = structured(await call("search_proposals", {"text": "laundry", "status": "open"}))
        assert by_text["proposals"] == []
        closed = structured(await call("search_proposals", {"status": "closed"}))
        assert ENDED not in [p["id"] for p in closed["proposals"]]  # not closed either

        one = structured(await call("get_proposal", {"proposal_id": ENDED}))
        assert one["status"] == "voting_ended" and one["result"] is None
        assert "voting ended" in seen[-1].content[0].text
        page = await client.read_resource(f"proposal://{ENDED}")
        seen.append(page.model_dump())
        assert '"status": "voting_ended"' in page.contents[0].text  # type: ignore[union-attr]

        asked = structured(await call("ask", {"question": "which proposals are open?"}))
        assert asked["proposals"] == [2] and asked["proposals_total"] == 1
        about = structured(await call("ask", {"question": "what is it?", "proposal_id": ENDED}))
        assert f"#{ENDED} Laundry room hours (voting ended " in about["answer"]
        listed = structured(await call("ask", {"question": "any proposals about laundry?"}))
        assert ENDED in listed["proposals"]
        assert "results not yet published" in listed["answer"]

        # Still open in the database: a reader closes nothing (closing is the bot's).
        again = structured(await call("get_proposal", {"proposal_id": ENDED}))
        assert again["status"] == "voting_ended" and again["closed_at"] is None

    received = wire(seen)
    assert "Laundry room hours (open" not in received  # the answers' line
    assert "Laundry room hours” (multiple_choice, open" not in received  # the tools' line
    assert "total_votes" not in received and "7100002" not in received  # no vote, no voter
