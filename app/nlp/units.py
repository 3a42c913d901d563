"""A document read as units: sentences, list items and table rows, each with its heading.

/ask quotes units, not chunks: a chunk is cut every few hundred characters wherever the
words fall, a unit is what the document itself marks off. Markdown and plain text are
read alike: headings (#, underlined, or a bold line of their own) head the units below
them, list items and table rows are units of their own, and paragraphs are cut into
sentences.

Pages kept by static-site generators carry markup a reader never sees: a front matter
block of fields (YAML between ``---`` lines, TOML between ``+++``), HTML tags, template
tags and comments (``<!-- -->``, ``{# #}``: text the authors hid, often stale). A field
with words in it is a unit headed by its key ("location: City Hall" is the unit "City
Hall" under "location"); a field that is a file name, a switch or a style is not. Tags
are blanked where they stand (so every offset still points into the page) and a
line of tags alone ends a paragraph, as a blank line does.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache

READING = 3  # how pages are cut into units; stored unit vectors are kept per reading
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_UNDERLINE = re.compile(r"^\s*(?:=+|-+)\s*$")
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)]|[a-z][.)]|\([a-z0-9]{1,3}\))\s+")
_ROW = re.compile(r"^\s*\|")
_RULE = re.compile(r"^\s*(?:\|?\s*:?-{3,}:?\s*)+\|?\s*$|^\s*(?:[-*_]\s*){3,}$")
_BOLD_LINE = re.compile(r"^\s*(?:\*\*|__)([^*_]{2,80})(?:\*\*|__)\s*:?\s*$")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(\*\*|__|\*|`)")
_FRONT = re.compile(r"\A\ufeff?(---|\+\+\+)[ \t]*\n(.*?)\n\1[ \t]*(?:\n|\Z)", re.S)
_FIELD = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*[:=][ \t]*(.*)$")
_VALUE_ITEM = re.compile(r"^[ \t]*(?:-[ \t]+)?")
_TAG = re.compile(r"<!--.*?-->|</?[A-Za-z][^<>]*>|\{%.*?%\}|\{#.*?#\}", re.S)
# A sentence ends at . ! ? before a capital, a digit or an opening mark; not after a
# one-letter initial or the usual abbreviations.
_END = re.compile(r"(?<=[.!?])[\"”’)\]]*\s+(?=[\"“(\[]?[A-Z0-9À-ÖØ-Þ])")
_ABBREVIATION = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|vs|cf|no|nos|mr|mrs|ms|dr|st|art|sec|approx)\.|\b[A-Z]\.)$", re.I
)


@dataclass(frozen=True, slots=True)
class Unit:
    """One quotable piece of a document, where it is, and what stands before it."""

    start: int  # offset in the document
    end: int
    text: str  # as quoted: whitespace collapsed, Markdown links and emphasis read as text
    heading: str  # the nearest heading above it
    before: str  # the unit before it in the document


def clean(text: str) -> str:
    text = _LINK.sub(r"\1", _TAG.sub(" ", text))
    return " ".join(html.unescape(_EMPHASIS.sub("", text)).split())


def _blank(match: re.Match[str]) -> str:
    """A tag as spaces, its line breaks kept: the page's offsets stay as they are."""
    return re.sub(r"[^\n]", " ", match.group(0))


def _fields(content: str) -> tuple[list[Unit], int]:
    """The units of a page's front matter, and where the page's own text starts."""
    front = _FRONT.match(content)
    if not front:
        return [], 0
    units: list[Unit] = []
    key, offset = "", front.start(2)
    for line in front.group(2).split("\n"):
        here, offset = offset, offset + len(line) + 1
        field = _FIELD.match(line) if not line[:1].isspace() else None
        if field:
            key = field.group(1).replace("_", " ").replace("-", " ")
            value, at = field.group(2), here + field.start(2)
        else:
            value = _VALUE_ITEM.sub("", line, count=1)  # a list item's or a line's words
            at = here + len(line) - len(value)
        text = clean(value.strip().strip("\"'|>"))
        if " " in text or text[:1].isdigit():  # words or a date, not a file name or a switch
            units.append(Unit(at, at + len(value), text, key, units[-1].text if units else ""))
    return units, front.end()


def _sentences(text: str, offset: int) -> list[tuple[int, int, str]]:
    """A paragraph's sentences with their offsets."""
    pieces, start = [], 0
    for match in _END.finditer(text):
        if _ABBREVIATION.search(text[: match.start()]):
            continue
        pieces.append((start, match.start()))
        start = match.end()
    pieces.append((start, len(text)))
    return [(offset + a, offset + b, text[a:b]) for a, b in pieces if text[a:b].strip()]


@lru_cache(maxsize=256)
def segment(content: str) -> tuple[Unit, ...]:
    """A document's units in order, each with its heading and the unit before it."""
    units, skip = _fields(content)
    content = re.sub(r"[^\n]", " ", content[:skip]) + _TAG.sub(_blank, content[skip:])
    heading, before = "", units[-1].text if units else ""
    block: list[tuple[int, str]] = []  # lines of the paragraph or list item being read

    def flush() -> None:
        nonlocal before
        if not block:
            return
        first = block[0][0]
        joined = "\n".join(line for _, line in block)
        item = _ITEM.match(joined)
        body_offset = first + (item.end() if item else 0)
        body = joined[item.end() :] if item else joined
        parts = [(first, first + len(joined), body)] if item else _sentences(body, body_offset)
        for start, end, text in parts:
            quoted = clean(text)
            if len(quoted) > 1:
                units.append(Unit(start, end, quoted, heading, before))
                before = quoted
        block.clear()

    lines = content.split("\n")
    offset = 0
    for i, line in enumerate(lines):
        here, offset = offset, offset + len(line) + 1
        following = lines[i + 1] if i + 1 < len(lines) else ""
        titled = _HEADING.match(line) or _BOLD_LINE.match(line)
        if titled or (line.strip() and _UNDERLINE.match(following) and not _ITEM.match(line)):
            flush()
            heading = clean(titled.group(1) if titled else line)
            continue
        if not line.strip() or _UNDERLINE.match(line) or _RULE.match(line):
            flush()
            continue
        if _ROW.match(line):
            flush()
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            block.append((here, " | ".join(c for c in cells if c)))
            flush()
            continue
        if _ITEM.match(line):
            flush()
        block.append((here, line))
    flush()
    return tuple(units)
