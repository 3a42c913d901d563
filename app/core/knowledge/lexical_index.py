"""Recomputes every row's lexical terms: `coordbot reindex` catches up a changed
normaliser (app.nlp.lexical) or a changed BOT_LANGUAGE, and repairs the index itself
(app.persistence.lexical_schema: missing triggers are recreated, FTS5 tables rebuilt).

Each batch is its own transaction, so a million facts never sit in one; only rows
whose terms changed are written.
"""

from __future__ import annotations

import logging
from typing import Any

from app.nlp.lexical import fact_lexical, lexical_text, proposal_lexical
from app.persistence.database import Database
from app.persistence.lexical_schema import CHUNKS, FACTS, PROPOSALS, SOURCES, Source, ensure_index
from app.persistence.repositories.lexical import LexicalColumns

logger = logging.getLogger(__name__)

BATCH = 2000


def terms_of(source: Source, values: tuple[Any, ...], language: str) -> str:
    """What a row's ``lexical`` column holds, from its text columns (LexicalColumns)."""
    if source is CHUNKS:
        return lexical_text(values[0], language)
    if source is PROPOSALS:
        return proposal_lexical(values[0], values[1], values[2], language)
    if source is FACTS:
        return fact_lexical(values[0], values[1], values[2], language)
    raise ValueError(source)


class LexicalIndexService:
    def __init__(self, db: Database, language: str = "en") -> None:
        self.db = db
        self.language = language  # BOT_LANGUAGE

    async def recompute(self) -> int:
        """Bring every row's terms up to date; returns how many rows changed."""
        async with self.db.engine.begin() as connection:
            await ensure_index(connection)
        changed = 0
        for source in SOURCES:
            after: Any = None
            while True:
                async with self.db.transaction() as session:
                    columns = LexicalColumns(session)
                    rows = await columns.batch(source, after, BATCH)
                    if not rows:
                        break
                    after = rows[-1][0]
                    new = {}
                    for key, values, stored in rows:
                        terms = terms_of(source, values, self.language)
                        if terms != stored:
                            new[key] = terms
                    await columns.store(source, new)
                changed += len(new)
        async with self.db.engine.begin() as connection:
            await ensure_index(connection, rebuild=True)
        logger.info("lexical index: %d rows had new terms", changed)
        return changed
