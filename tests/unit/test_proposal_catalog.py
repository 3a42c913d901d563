"""What a reader may see of a proposal: public fields, and a result only once closed,
with nothing from a stored tally beyond totals and themes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.core.proposals.proposal_catalog import public_fields, public_result
from app.domain.models import Proposal, ProposalStatus, ProposalType, User

WHEN = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)


def _proposal(status: ProposalStatus, raw: dict | None = None, **kw: object) -> Proposal:  # type: ignore[type-arg]
    values: dict = dict(  # type: ignore[type-arg]
        id=7, proposer_id=555_001, title="Garden ideas", description="What to plant?",
        proposal_type=ProposalType.FREE_FORM, options=[], created_at=WHEN, deadline_at=WHEN,
        status=status, outcome="2 submissions" if raw else None, raw_results=raw,
        proposer=User(telegram_id=555_001, username="alice"),
    )  # fmt: skip
    values.update(kw)
    return Proposal(**values)


def test_closed_result_keeps_totals_and_theme_names_only() -> None:
    raw = {
        "type": "free_form", "total_submissions": 2,
        "themes": [{"theme": "tomatoes, basil", "count": 2, "examples": ["secret text"],
                    "authors": [555_002]}],
        "submissions": [{"user": 555_002, "text": "secret text"}],
        "voters": [555_002, 555_003],
    }  # fmt: skip
    result = public_result(_proposal(ProposalStatus.CLOSED, raw))
    assert result == {
        "outcome": "2 submissions", "type": "free_form", "total_submissions": 2,
        "themes": [{"theme": "tomatoes, basil", "count": 2}],
    }  # fmt: skip


def test_no_result_while_open_or_when_cancelled() -> None:
    tally = {"type": "multiple_choice", "total_votes": 3}
    assert public_result(_proposal(ProposalStatus.OPEN, tally)) is None
    assert public_result(_proposal(ProposalStatus.CANCELLED, tally)) is None


def test_public_fields_name_the_proposer_but_never_an_id() -> None:
    fields = public_fields(_proposal(ProposalStatus.OPEN), WHEN)
    assert fields["proposer"] == "@alice"
    assert "555001" not in str(fields) and "proposer_id" not in fields
    nameless = public_fields(
        _proposal(ProposalStatus.OPEN, proposer=User(telegram_id=555_001)), WHEN
    )
    assert nameless["proposer"] is None  # "user 555001" would give the id away
    assert fields["created_at"] == "2026-05-01T10:00:00Z"


def test_an_open_proposal_past_its_deadline_is_shown_as_ended() -> None:
    before, after = WHEN - timedelta(seconds=1), WHEN  # voting stops at the deadline
    assert public_fields(_proposal(ProposalStatus.OPEN), before)["status"] == "open"
    assert public_fields(_proposal(ProposalStatus.OPEN), after)["status"] == "voting_ended"
    assert public_result(_proposal(ProposalStatus.OPEN)) is None  # nothing is published
    assert public_fields(_proposal(ProposalStatus.CLOSED), after)["status"] == "closed"
    cancelled = _proposal(ProposalStatus.CANCELLED)
    assert public_fields(cancelled, after)["status"] == "cancelled"
