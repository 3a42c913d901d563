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


PAGE = """---
layout: hero-image
title: "Project Nights"
hero_subtitle: Founded in 2012 as Code for DC, we meet twice a month.
hero-image: hero-image-events.jpg
date: 2025-10-24
tags:
  - civic tech
  - open data
is_active: true
---
<div class="cards">
  <div class="card"><strong>Project channels</strong> Every project has a channel.</div>
</div>
{% include calendar.html %}
Entry is free &amp; open to all. Bring a laptop.
{# 2024
The shuttle bus timetable is on the travel page. #}
<!-- Doors open at 18:00. -->
"""


def test_front_matter_fields_with_words_are_units_headed_by_their_key() -> None:
    units = segment(PAGE)
    fields = [(u.heading, u.text) for u in units if u.start < PAGE.index("<div")]
    assert fields == [
        ("title", "Project Nights"),
        ("hero subtitle", "Founded in 2012 as Code for DC, we meet twice a month."),
        ("date", "2025-10-24"),
        ("tags", "civic tech"),
        ("tags", "open data"),
    ]  # a layout, an image file and a switch are no one's words
    for unit in units[:5]:
        assert PAGE[unit.start : unit.end].strip('"') == unit.text


def test_html_and_template_tags_are_read_as_a_reader_sees_the_page() -> None:
    body = [u.text for u in segment(PAGE)][5:]
    assert body == [
        "Project channels Every project has a channel.",
        "Entry is free & open to all.",
        "Bring a laptop.",
    ]


def test_a_page_without_front_matter_keeps_its_rules_and_first_lines() -> None:
    page = "Intro line.\n\n---\n\nkey: value words here\n"
    assert [u.text for u in segment(page)] == ["Intro line.", "key: value words here"]
