"""Members named without an "@": "anything open from sofia" and "felix open proposals"
mean proposals by Sofia and by Felix.

The reading takes "from @sofia" or "proposed by Sofia" for a proposer, but a member typed
in lower case after "from" or "by", or leading a question for proposals ("felix open
proposals"), reads as a topic word, and the question then searches for the word "felix".
A name is a proposer when a member is called so: the word in one of those places (not a
stop word: each lookup is a query) is looked up among the members (username, else first
name, any case) and, when one is, marked as a mention before the question is read.
"""

from __future__ import annotations

import re

from app.core.ask.analysis import STOP_WORDS
from app.persistence.database import Database
from app.persistence.repositories.users import UserRepository

_NAME = r"([^\W\d_][\w.]{1,31})"
_AFTER = re.compile(rf"\b(?:from|by)\s+(?!@){_NAME}", re.I)
# the word that leads a question for proposals: "felix open proposals" ("felix's
# proposals" is read as a proposer already, without a lookup)
_LEADING = re.compile(
    rf"^\W*{_NAME}(?=\s+(?:[\w-]+\s+){{0,2}}(?:proposals?|polls?|ideas?)\b)", re.I
)


async def mark_members(text: str, db: Database) -> str:
    """``text`` with every member's name in one of those places written "@name"."""
    places = [m for pattern in (_AFTER, _LEADING) for m in pattern.finditer(text)]
    places = [m for m in places if m.group(1).lower() not in STOP_WORDS]
    names = {m.group(1) for m in places}
    if not names:
        return text
    async with db.transaction() as session:
        users = UserRepository(session)
        members = {name for name in names if await users.find_by_name(name)}
    spans = sorted({m.span(1) for m in places if m.group(1) in members}, reverse=True)
    for start, _ in spans:
        text = f"{text[:start]}@{text[start:]}"
    return text
