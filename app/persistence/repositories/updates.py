"""Claims on webhook updates: handled at least once, applied once.

A claim is taken before the update is handled and marked done after. It names its
holder, the handling replica's liveness key (app.persistence.liveness), so a claim
proves that a live replica is handling the update, not that it was handled. When
Telegram delivers the update again (it retries anything but a 2xx):

* done: acknowledge it, nothing runs again;
* claimed by a live replica: answer so that Telegram retries later;
* claimed by a replica that died mid-update: take the claim over and handle it.

Claims written before holders existed (migration 0011) are retaken once ``stale``.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy import Table, delete, or_, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession

from app.persistence.database import UTCDateTime
from app.persistence.liveness import holder_alive
from app.persistence.models import ProcessedUpdateRow
from app.persistence.repositories.base import dialect_insert


class Claim(enum.Enum):
    NEW = "new"  # first delivery: handle it
    TAKEN_OVER = "taken_over"  # its holder died mid-update: handle it
    LIVE = "live"  # a live replica is handling it: Telegram should retry later
    DONE = "done"  # handled: acknowledge, run nothing

    @property
    def mine(self) -> bool:
        return self in (Claim.NEW, Claim.TAKEN_OVER)


def _arrays(session: AsyncSession) -> bool:
    return session.get_bind().dialect.name == "postgresql"


class UpdateClaims:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def claim(self, update_id: int, now: datetime, holder: int, stale: timedelta) -> Claim:
        return (await self.claim_many([update_id], now, holder, stale))[0]

    async def claim_many(
        self, update_ids: Sequence[int], now: datetime, holder: int, stale: timedelta
    ) -> list[Claim]:
        """Claim several updates for ``holder``; one result per id, in order (an id listed
        twice is NEW or TAKEN_OVER for its first occurrence only, LIVE after).

        A claim of ``holder``'s own that is not done counts as dead: the caller knows
        what it is handling and asks only for what it is not. A first delivery costs one
        statement; a redelivery two more. On PostgreSQL the ids travel as one array
        parameter, so every batch size runs the same prepared statement (a list of n
        placeholders would be a new statement per n, crowding the vote's statements out
        of the connection's cache)."""
        if not update_ids:
            return []
        unique = list(dict.fromkeys(update_ids))
        table = cast(Table, ProcessedUpdateRow.__table__)
        insert = dialect_insert(self.session, table)
        if _arrays(self.session):
            ids = sa.bindparam("ids", type_=ARRAY(sa.BigInteger))
            rows = sa.select(
                sa.func.unnest(ids),
                sa.bindparam("now", type_=UTCDateTime()),
                sa.bindparam("holder", type_=sa.BigInteger()),
            )
            stmt = insert.from_select(["update_id", "claimed_at", "holder"], rows)
            params: dict[str, Any] = {"ids": unique, "now": now, "holder": holder}
        else:
            stmt = insert.values(
                [{"update_id": i, "claimed_at": now, "holder": holder} for i in unique]
            )
            params = {}
        inserted = await self.session.scalars(
            stmt.on_conflict_do_nothing(index_elements=["update_id"]).returning(table.c.update_id),
            params,
        )
        state = dict.fromkeys(inserted, Claim.NEW)
        others = [i for i in unique if i not in state]
        if others:  # delivered again
            state |= await self._redelivered(others, now, holder, stale)
        results = []
        for i in update_ids:
            results.append(state.get(i, Claim.LIVE))
            if state.get(i) in (Claim.NEW, Claim.TAKEN_OVER):
                state[i] = Claim.LIVE
        return results

    async def _redelivered(
        self, ids: list[int], now: datetime, holder: int, stale: timedelta
    ) -> dict[int, Claim]:
        row = ProcessedUpdateRow
        legacy = sa.and_(row.holder.is_(None), row.claimed_at < now - stale)
        if _arrays(self.session):
            gone = sa.and_(row.holder.is_not(None), ~holder_alive(row.holder))
            dead = or_(legacy, row.holder == holder, gone)
        else:  # one process: any other holder is a former run of it
            dead = or_(legacy, row.holder.is_not(None))
        taken = await self.session.scalars(
            update(row)
            .where(row.update_id.in_(ids), row.done_at.is_(None), dead)
            .values(claimed_at=now, holder=holder)
            .returning(row.update_id)
        )
        state = dict.fromkeys(taken, Claim.TAKEN_OVER)
        rest = [i for i in ids if i not in state]
        if rest:
            done = await self.session.scalars(
                sa.select(row.update_id).where(row.update_id.in_(rest), row.done_at.is_not(None))
            )
            state |= dict.fromkeys(done, Claim.DONE)
        return state  # what is missing is LIVE (or released meanwhile: Telegram retries)

    async def done_many(self, update_ids: Sequence[int], now: datetime) -> None:
        if not update_ids:
            return
        table = cast(Table, ProcessedUpdateRow.__table__)
        unique = sorted(set(update_ids))
        if _arrays(self.session):
            ids = sa.bindparam("ids", type_=ARRAY(sa.BigInteger))
            await self.session.execute(
                update(table).where(table.c.update_id == sa.any_(ids)).values(done_at=now),
                {"ids": unique},
            )
            return
        await self.session.execute(
            update(table).where(table.c.update_id.in_(unique)).values(done_at=now)
        )

    async def done(self, update_id: int, now: datetime) -> None:
        await self.done_many([update_id], now)

    async def release(self, update_id: int) -> None:
        """Forget a claim whose handling was cut short, so a retry handles the update."""
        await self.session.execute(
            delete(ProcessedUpdateRow).where(
                ProcessedUpdateRow.update_id == update_id, ProcessedUpdateRow.done_at.is_(None)
            )
        )

    async def prune(self, before: datetime) -> int:
        """Drop claims older than Telegram keeps retrying (a day is plenty)."""
        result = await self.session.execute(
            delete(ProcessedUpdateRow).where(
                or_(ProcessedUpdateRow.claimed_at < before, ProcessedUpdateRow.done_at < before)
            )
        )
        return int(result.rowcount or 0)  # type: ignore[attr-defined]
