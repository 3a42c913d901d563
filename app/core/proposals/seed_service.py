"""Loads a fixture (see shared CLI.md) idempotently: by id for proposals, by key otherwise."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import text

from app.core.closing.results import tally_free_form, tally_multiple_choice
from app.core.closing.themes import summarize_themes
from app.domain.clock import Clock
from app.domain.errors import ValidationError
from app.domain.models import ProposalStatus, ProposalType, User
from app.nlp.lexical import proposal_lexical
from app.persistence.database import Database
from app.persistence.models import ProposalRow
from app.persistence.repositories.submissions import SubmissionRepository
from app.persistence.repositories.users import UserRepository


@dataclass
class SeedReport:
    users: int = 0
    proposals: int = 0
    votes: int = 0
    submissions: int = 0
    documents: int = 0

    def as_dict(self) -> dict[str, int]:
        return dict(vars(self))


def _when(value: Any, field: str) -> datetime:
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValidationError(f"{field}: '{value}' is not an ISO 8601 date") from exc
    if moment.tzinfo is None:
        raise ValidationError(f"{field}: '{value}' needs a timezone (e.g. a trailing Z)")
    return moment


def load_fixture(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValidationError(f"Cannot read fixture {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise ValidationError("A fixture is a JSON object with users, proposals, ...")
    return data


class SeedService:
    def __init__(self, db: Database, clock: Clock, *, language: str = "en") -> None:
        self.db = db
        self.clock = clock
        self.language = language  # BOT_LANGUAGE: the lexical terms' language

    async def seed(self, data: dict[str, Any]) -> SeedReport:
        report = SeedReport()
        now = self.clock.now()
        async with self.db.transaction() as session:
            users = UserRepository(session)
            for item in data.get("users", []):
                await users.upsert(
                    User(
                        telegram_id=int(item["telegram_id"]),
                        username=item.get("username"),
                        first_name=item.get("first_name"),
                        last_name=item.get("last_name"),
                    ),
                    now,
                )
                report.users += 1
            subs = SubmissionRepository(session)
            for index, item in enumerate(data.get("proposals", [])):
                try:
                    await self._proposal(session, users, subs, item, now, report)
                except (KeyError, TypeError, ValueError) as exc:
                    raise ValidationError(
                        f"proposal #{index + 1} in the fixture is invalid: {exc!r} "
                        "(needs id, title, type and deadline)"
                    ) from exc
            if self.db.dialect == "postgresql":
                await session.execute(
                    text(
                        "SELECT setval(pg_get_serial_sequence('proposals', 'id'), "
                        "COALESCE((SELECT MAX(id) FROM proposals), 1))"
                    )
                )
        return report

    async def _proposal(
        self,
        session: Any,
        users: UserRepository,
        subs: SubmissionRepository,
        item: dict[str, Any],
        now: datetime,
        report: SeedReport,
    ) -> None:
        pid = int(item["id"])
        kind = ProposalType(item["type"])
        status = ProposalStatus(item.get("status", "open"))
        options = list(item.get("options") or []) if kind is ProposalType.MULTIPLE_CHOICE else []
        proposer = int(item.get("proposer") or 0)
        await users.ensure_exists(proposer, now)
        created = _when(item.get("created_at") or now.isoformat(), f"proposal {pid} created_at")
        deadline = _when(item["deadline"], f"proposal {pid} deadline")
        row = await session.get(ProposalRow, pid) or ProposalRow(id=pid)
        row.proposer_id = proposer
        row.title = item["title"]
        row.description = item.get("description") or ""
        row.proposal_type = kind.value
        row.options = options
        row.target_channel_id = item.get("channel_id")
        row.created_at = created
        row.deadline_at = deadline
        row.status = status.value
        row.closed_at = deadline if status is not ProposalStatus.OPEN else None
        row.lexical = proposal_lexical(row.title, row.description, options, self.language)
        session.add(row)
        await session.flush()
        report.proposals += 1
        for vote in item.get("votes", []):
            if vote["option"] not in options:
                raise ValidationError(
                    f"proposal {pid}: '{vote['option']}' is not one of its options"
                )
            await users.ensure_exists(int(vote["user"]), now)
            await subs.upsert(pid, int(vote["user"]), vote["option"], created)
            report.votes += 1
        for sub in item.get("submissions", []):
            await users.ensure_exists(int(sub["user"]), now)
            await subs.upsert(pid, int(sub["user"]), sub["text"], created)
            report.submissions += 1
        if status is ProposalStatus.CLOSED:
            if kind is ProposalType.MULTIPLE_CHOICE:
                raw, outcome = tally_multiple_choice(options, await subs.counts_by_content(pid))
            else:
                texts = await subs.contents_for_proposal(pid)
                raw, outcome = tally_free_form(len(texts))
                raw["themes"] = summarize_themes(texts)
            row.raw_results, row.outcome = raw, outcome
