"""Members named without an "@": "anything open from sofia" means proposals by Sofia.

The reading takes "from @sofia" or "proposed by Sofia" for a proposer, but a member typed
in lower case after "from" or "by" reads as a topic word, and the question then searches
for the word "sofia". A name is a proposer when a member is called so: the word after
"from" or "by" is looked up among the members (username, else first name, any case) and,
when one is, marked as a mention before the question is read.
"""

from __future__ import annotations

import re

from app.persistence.database import Database
from app.persistence.repositories.users import UserRepository

_AFTER = re.compile(r"\b(?:from|by)\s+(?!@)([^\W\d_][\w.]{1,31})", re.I)


async def mark_members(text: str, db: Database) -> str:
    """``text`` with every member's name that follows "from" or "by" written "@name"."""
    names = {m.group(1) for m in _AFTER.finditer(text)}
    if not names:
        return text
    async with db.transaction() as session:
        users = UserRepository(session)
        members = {name for name in names if await users.find_by_name(name)}
    if not members:
        return text
    return _AFTER.sub(lambda m: m.group(0).replace(m.group(1), "@" + m.group(1))
                      if m.group(1) in members else m.group(0), text)  # fmt: skip
