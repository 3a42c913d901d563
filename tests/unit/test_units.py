"""Documents read as units: sentences, list items and table rows under their headings."""

from __future__ import annotations

from app.nlp.units import clean, segment

DOC = """# Membership

Members must be aged 18 or over. They sign the [tenancy](https://example.org) agreement,
e.g. the one from 2020. Mr. Smith keeps the copies.

## Storage
- Each box is **35 litres**.
- Boxes are labelled
  with your name.

| Item | Price |
|------|-------|
| Box  | 5 EUR |

Fees
----
The annual fee is 20 EUR! Pay by bank transfer.
"""


def test_units_keep_their_heading_and_order() -> None:
    units = segment(DOC)
    assert [(u.heading, u.text) for u in units] == [
        ("Membership", "Members must be aged 18 or over."),
        ("Membership", "They sign the tenancy agreement, e.g. the one from 2020."),
        ("Membership", "Mr. Smith keeps the copies."),
        ("Storage", "Each box is 35 litres."),
        ("Storage", "Boxes are labelled with your name."),
        ("Storage", "Item | Price"),
        ("Storage", "Box | 5 EUR"),
        ("Fees", "The annual fee is 20 EUR!"),
        ("Fees", "Pay by bank transfer."),
    ]
    assert units[1].before == "Members must be aged 18 or over."
    assert [u.start for u in units] == sorted(u.start for u in units)
    assert DOC[units[0].start : units[0].end] == "Members must be aged 18 or over."


def test_plain_text_without_markup_is_read_as_sentences() -> None:
    units = segment("Quiet hours start at 22:00. Parties need a notice.\n\nBikes go in the cellar.")
    assert [u.text for u in units] == [
        "Quiet hours start at 22:00.",
        "Parties need a notice.",
        "Bikes go in the cellar.",
    ]
    assert all(u.heading == "" for u in units)


def test_clean_reads_links_and_emphasis_as_text() -> None:
    assert (
        clean("**Bold** and `code` and [a link](http://x.y)  here")
        == "Bold and code and a link here"
    )
