"""Counting a closed proposal: pure functions, so every closer computes the same result."""

from __future__ import annotations

from typing import Any


def tally_multiple_choice(options: list[str], counts: dict[str, int]) -> tuple[dict[str, Any], str]:
    """Count and percentage for every option (zeros included), and the outcome sentence."""
    total = sum(counts.get(option, 0) for option in options)
    rows: list[dict[str, Any]] = []
    for option in options:
        votes = counts.get(option, 0)
        share = round(100.0 * votes / total, 1) if total else 0.0
        rows.append({"option": option, "votes": votes, "percent": share})
    raw: dict[str, Any] = {"type": "multiple_choice", "total_votes": total, "options": rows}
    if total == 0:
        raw["winners"] = []
        return raw, "No votes"
    best = max(int(row["votes"]) for row in rows)
    winners = [str(row["option"]) for row in rows if row["votes"] == best]
    raw["winners"] = winners
    if len(winners) > 1:
        return raw, "Tie: " + ", ".join(winners)
    return raw, winners[0]


def tally_free_form(submission_count: int) -> tuple[dict[str, Any], str]:
    raw: dict[str, Any] = {"type": "free_form", "total_submissions": submission_count}
    if submission_count == 0:
        return raw, "No submissions"
    noun = "submission" if submission_count == 1 else "submissions"
    return raw, f"{submission_count} {noun}"
