"""Readiness: the database answers and its schema is the one this code expects."""

from __future__ import annotations

import asyncio
import logging

from app.persistence.database import Database
from app.persistence.migrations import head_revision
from app.persistence.repositories.ops import OpsRepository

logger = logging.getLogger(__name__)

CHECK_TIMEOUT = 3.0


async def readiness(db: Database) -> str | None:
    """None when ready, else the reason (shown in the 503 body)."""
    try:
        async with asyncio.timeout(CHECK_TIMEOUT):
            async with db.transaction() as session:
                ops = OpsRepository(session)
                await ops.ping()
                current = await ops.schema_revision()
    except TimeoutError:
        return "database: no answer within 3s"
    except Exception as exc:
        logger.debug("readiness check failed", exc_info=True)
        return f"database: {type(exc).__name__}"
    head = head_revision()
    if current != head:
        return f"migrations: database at {current or 'nothing'}, code at {head}"
    return None
