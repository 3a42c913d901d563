"""/ask reads words in any alphabet whole: members' names with accents or macrons
("Chloé", "Sofía", "Hēmi") and places ("Paekākāriki") are one word each, as proposer
names, as topics and for the spelling check.

The community is the worker co-op of tests/fixtures/communities/coop, whose members
and proposals carry such names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

COOP = Path(__file__).resolve().parents[1] / "fixtures" / "communities" / "coop" / "fixture.json"


@pytest.fixture
def ask_fixture() -> Path:
    return COOP


def test_a_proposer_named_with_accents_is_found(ask: Any) -> None:
    chloe, sofia, hemi = ask(
        "proposals by Chloé", "what did Sofía propose?", "what has Hēmi proposed"
    )
    assert sorted(chloe["proposals"]) == [6, 21, 37]
    assert chloe["answer"].startswith("I found 3 proposals by @chloe_d.")
    assert sorted(sofia["proposals"]) == [17, 19, 28, 40, 45, 48]
    assert sorted(hemi["proposals"]) == [24]
    for out in (chloe, sofia, hemi):  # the name is the filter, not a word left to search
        assert "then searched those for" not in out["answer"]


def test_a_word_with_macrons_is_neither_split_nor_corrected(ask: Any) -> None:
    (venue,) = ask("anything about Paekākāriki")
    assert 19 in venue["proposals"]  # "Paekākāriki Surf Club" is one of its options
    assert "I read" not in venue["answer"]  # no part of the word was taken for a typo
    assert "“paekākāriki”" in venue["answer"]
