"""How the gold sets compare a reply with a question's phrases (tests/support/ask_gold.py):
typography aside, so a reply is graded on what it says."""

from __future__ import annotations

from tests.support.ask_gold import grade, misses, plain, summarise


def test_a_phrase_is_found_whatever_dashes_quotes_or_case_the_page_uses() -> None:
    reply = "Early on, the workload is around 2–4 hours per week — “mostly” *meetings*."
    for phrase in ("2-4 hours per week", "mostly meetings", "Workload is around"):
        assert plain(phrase) in plain(reply)
    assert plain("2-5 hours") not in plain(reply)  # the numbers still count
    assert plain("a — b ‐ c − d") == "a - b - c - d"


def _graded(answer: str) -> dict[str, object]:
    item = {"question": "where's the first aid kit?", "intent": "query_facts",
            "fact": "Wellington office kitchen", "no_answer": False}  # fmt: skip
    out = {"intent": "query_facts", "answer": answer, "documents": [],
           "filters": {"status": None, "proposal_type": None, "date_field": None,
                       "start": None, "end": None}}  # fmt: skip
    return grade(item, out, {})


def test_a_fact_named_only_under_a_wrong_lead_is_found_but_not_led_with() -> None:
    wrong = _graded(
        "First aid kit checked by Tomasz.\n\n"
        "Facts: First aid kit checked by Tomasz; First aid kit kept in Wellington office kitchen."
    )
    assert wrong["fact_ok"] is True and wrong["fact_lead"] is False
    assert wrong in misses([wrong])
    right = _graded("First aid kit kept in Wellington office kitchen.\n\nFacts: ...")
    assert right["fact_ok"] is True and right["fact_lead"] is True
    assert summarise([wrong, right])["fact_lead"] == 0.5
    assert summarise([wrong, right])["facts"] == 1.0
