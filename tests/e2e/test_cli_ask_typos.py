"""/ask reads a typo of a common English word as that word (`coordbot ask`), though
the community never writes the word in that form.

The housing development community (tests/fixtures/communities/housing) says its cargo
bike Lastesel is "maintained by Karim"; a member types "maintans". No word of the
community is one edit from it ("maintained" is three), so before common English words
counted the typo stayed, and the question found nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

FIXTURE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "communities" / "housing" / "fixture.json"
)


@pytest.fixture
def ask_fixture() -> Path:
    return FIXTURE


def test_a_typo_of_a_common_word_is_read_as_that_word(ask: Any) -> None:
    (who,) = ask("who maintans lastesel")
    assert who["intent"] == "query_facts"
    assert who["answer"].startswith("Cargo bike Lastesel maintained by Karim")
    assert "I read “maintans” as “maintains”" in who["answer"]
