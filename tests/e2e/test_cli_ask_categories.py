"""/ask finds the proposals of a category that none of them names (`coordbot ask`): the
topic's words are matched word for word by meaning with the proposals' own words
(app/core/ask/word_meaning.py), and the fitted cut reads that cover beside the others.

The community is the gold set's (tests/fixtures/ask/fixture.json), whose proposals never
say "safety" or "funding".
"""

from __future__ import annotations

from typing import Any


def test_a_category_is_found_by_the_words_that_mean_it(ask: Any) -> None:
    safety, funding = ask("which proposals are about safety", "any funding proposals")
    assert safety["intent"] == funding["intent"] == "query_proposals"
    assert {21, 29} <= set(safety["proposals"])  # security cameras, motion-sensor lights
    assert "Security cameras at the main entrance" in safety["answer"]
    # a city grant, fundraising, the annual budget, the leftover money
    assert {9, 22, 41, 48} <= set(funding["proposals"])
