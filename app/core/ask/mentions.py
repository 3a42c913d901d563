"""Members named without an "@": "anything open from sofia" and "felix open proposals"
mean proposals by Sofia and by Felix.

The reading takes "from @sofia" or "proposed by Sofia" for a proposer, but a member typed
in lower case after "from" or "by", or before the proposals asked for ("felix open
proposals", "chiara's closed polls"), reads as a topic word, and the question then
searches for the word "felix". A name is a proposer when a member is called so: the word
in one of those places is looked up among the members (username, else first name, any
case) and, when one is, marked as a mention before the question is read.
"""

from __future__ import annotations

import re

from app.persistence.database import Database
from app.persistence.repositories.users import UserRepository

_NAME = r"([^\W\d_][\w.]{1,31}?)"
_AFTER = re.compile(rf"\b(?:from|by)\s+(?!@){_NAME}\b", re.I)
# a word that leads the proposals asked for: "felix open proposals", "greta's polls"
_BEFORE = re.compile(
    rf"(?<![@\w]){_NAME}(?='s\b|\s+(?:[\w-]+\s+){{0,2}}(?:proposals?|polls?|ideas?)\b)", re.I
)


async def mark_members(text: str, db: Database) -> str:
    """``text`` with every member's name in one of those places written "@name"."""
    places = [m for pattern in (_AFTER, _BEFORE) for m in pattern.finditer(text)]
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
