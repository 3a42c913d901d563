"""How the gold sets compare a reply with a question's phrases (tests/support/ask_gold.py):
typography aside, so a reply is graded on what it says."""

from __future__ import annotations

from tests.support.ask_gold import plain


def test_a_phrase_is_found_whatever_dashes_quotes_or_case_the_page_uses() -> None:
    reply = "Early on, the workload is around 2–4 hours per week — “mostly” *meetings*."
    for phrase in ("2-4 hours per week", "mostly meetings", "Workload is around"):
        assert plain(phrase) in plain(reply)
    assert plain("2-5 hours") not in plain(reply)  # the numbers still count
    assert plain("a — b ‐ c − d") == "a - b - c - d"
