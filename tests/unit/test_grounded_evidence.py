"""What a model reads for /ask (app/core/ask/grounded.offered): the budget shared among
the kinds of record as the offline decision believes in them, and no sentence twice."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

from app.core.ask import grounded, sentences
from app.core.ask.models import AskFilters, DocumentHit
from app.domain.models import Proposal, ProposalStatus, ProposalType
from app.i18n import translator
from app.nlp.units import segment
from app.persistence.repositories.facts import Fact

ENGLISH = translator("en", ZoneInfo("UTC"))
WHEN = datetime(2026, 11, 1, tzinfo=UTC)
LAUNDRY = (
    "The laundry room is in the basement.\n\n## Hours\n\nIt is open every day from 07:00 "
    "to 22:00.\n\n## Prices\n\nA wash costs 2 EUR and a dry 1.50 EUR. Pay at reception."
)
GARDEN = "The rooftop garden is open to members from April to October. Bring your own tools."


def _hit(n: int, content: str, title: str = "House rules") -> DocumentHit:
    return DocumentHit(f"doc{n}", title, f"chunk{n}", content, 0.6, 0.03)


def _proposal(n: int) -> Proposal:
    return Proposal(
        id=n,
        proposer_id=2001,
        title=f"Buy a new washing machine number {n}",
        description="The old machine leaks and a new one would cost about 600 EUR. " * 2,
        proposal_type=ProposalType.MULTIPLE_CHOICE,
        options=["Yes", "No"],
        created_at=WHEN,
        deadline_at=WHEN,
        status=ProposalStatus.OPEN,
    )


def _fact(n: int) -> Fact:
    return Fact(n, "Maria", "manages", f"Garden bed {n}", 1.0, "test", "maria", "manages", "x")


def _scored(hit: DocumentHit, index: int) -> sentences.Scored:
    units = segment(hit.content)
    return sentences.Scored(units[index], hit, units, 0.9, 0.6, 0.5, ())


def _gathered(
    hits: list[DocumentHit], best: list[sentences.Scored], pages: dict[str, str] | None = None
) -> Any:
    """``pages``: the documents' whole texts, each hit's own content by default."""
    contents = pages if pages is not None else {h.document_id: h.content for h in hits}
    return SimpleNamespace(
        best=best,
        filters=AskFilters(),  # no clock: every proposal reads as its status says
        found=SimpleNamespace(hits=hits, contents=contents),
        outcome=SimpleNamespace(proposals=[_proposal(n) for n in range(1, 6)]),
        facts=SimpleNamespace(relevant_facts=[SimpleNamespace(fact=_fact(n)) for n in range(5)]),
    )


def _cost(items: list[grounded.Offered], kind: str) -> int:
    return sum(len(o.item.text) + len(o.item.key) + 4 for o in items if o.item.kind == kind)


def test_each_kind_has_the_share_of_the_budget_the_decision_gives_it() -> None:
    hits = [_hit(n, f"{LAUNDRY} Passage {n}.") for n in range(3)]
    g = _gathered(hits, [_scored(hits[0], 1)])
    belief = {"documents": 0.8, "proposals": 0.05, "facts": 0.1, "nothing": 0.05}
    items = grounded.offered(g, ENGLISH, belief, budget=1000)
    total = 0.8 + 0.05 + 0.1  # "nothing" is no kind of record
    assert items[0].item.kind == "documents"
    assert 0 < _cost(items, "facts") <= 1000 * 0.1 / total
    assert _cost(items, "proposals") == 0  # a proposal's line is longer than its share
    assert sum(_cost(items, k) for k in grounded.KINDS) <= 1000
    # without a belief, each kind has a third
    even = grounded.offered(g, ENGLISH, budget=1000)
    assert {o.item.kind for o in even} == set(grounded.KINDS)
    assert all(_cost(even, k) <= 1000 / 3 for k in grounded.KINDS)


def test_the_most_believed_kind_has_its_best_item_beyond_its_share() -> None:
    hits = [_hit(0, LAUNDRY)]
    g = _gathered(hits, [])
    belief = {"documents": 0.3, "proposals": 0.35, "facts": 0.35, "nothing": 0.0}
    items = grounded.offered(g, ENGLISH, belief, budget=300)
    assert items and items[0].item.key.startswith("P")  # 200 characters, its share 105
    assert _cost(items, "proposals") > 300 * 0.35
    assert sum(_cost(items, k) for k in grounded.KINDS) <= 300


def test_a_passage_brings_only_what_the_sentences_offered_do_not_say() -> None:
    laundry, garden = _hit(0, LAUNDRY, "Laundry room"), _hit(1, GARDEN, "Rooftop garden")
    g = _gathered([laundry, garden], [_scored(laundry, 1)])
    items = grounded.offered(g, ENGLISH, {"documents": 1.0}, budget=6000)
    texts = [o.item.text for o in items if o.item.kind == "documents"]
    assert texts[0] == "“Laundry room”: It is open every day from 07:00 to 22:00."
    # the laundry passage without the sentence quoted above it: a gap reads "…"
    assert texts[1] == (
        "“Laundry room”: The laundry room is in the basement. … "
        "Prices: A wash costs 2 EUR and a dry 1.50 EUR. Pay at reception."
    )
    assert texts[2] == f"“Rooftop garden”: {GARDEN}"
    # what a cited passage shows under the answer is what the model read of it
    assert items[1].quote == texts[1].split(": ", 1)[1]
    for one in texts:  # no sentence reaches the model twice
        for unit in segment(one.split(": ", 1)[1]):
            assert unit.text == "…" or sum(unit.text in other for other in texts) == 1


def test_a_passage_the_sentences_say_whole_is_not_offered() -> None:
    short = _hit(0, "Quiet hours are from 22:00 to 07:00.")
    g = _gathered([short], [_scored(short, 0)])
    items = grounded.offered(g, ENGLISH, {"documents": 1.0}, budget=6000)
    assert [o.item.text for o in items if o.item.kind == "documents"] == [
        "“House rules”: Quiet hours are from 22:00 to 07:00."
    ]


def test_a_passage_is_read_and_quoted_from_its_first_whole_sentence() -> None:
    # a passage is a window of its page: this one starts inside the opening hours' sentence
    window = LAUNDRY[LAUNDRY.index("every day") :]
    hit = _hit(0, window, "Laundry room")
    g = _gathered([hit], [], {"doc0": LAUNDRY})
    items = grounded.offered(g, ENGLISH, {"documents": 1.0}, budget=6000)
    assert [o.item.text for o in items] == [
        "“Laundry room”: Prices: A wash costs 2 EUR and a dry 1.50 EUR. Pay at reception."
    ]
    assert items[0].quote == "Prices: A wash costs 2 EUR and a dry 1.50 EUR. Pay at reception."
    # a page the passage cannot be found in is read from the passage itself
    lost = grounded.offered(
        _gathered([hit], [], {"doc0": "another text"}), ENGLISH, {"documents": 1.0}, budget=6000
    )
    assert lost[0].item.text.startswith("“Laundry room”: every day from 07:00 to 22:00.")
