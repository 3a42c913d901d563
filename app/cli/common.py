"""What every `coordbot` command shares: settings, the clock, JSON output, input files,
and a started container. Command modules import from here, never from ``main``."""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError as SettingsError

from app.config import Settings
from app.domain.clock import Clock, FrozenClock, SystemClock


class CliError(Exception):
    """Bad input: a one-line message and a non-zero exit."""


def settings() -> Settings:
    try:
        return Settings()
    except SettingsError as exc:
        first = exc.errors()[0]
        field = str(first["loc"][0]).upper() if first["loc"] else "settings"
        raise CliError(f"invalid setting {field}: {first['msg']}") from exc


def clock(now: str | None) -> Clock:
    """The system clock, or ``--now`` frozen (a bare date-time is read as UTC)."""
    if not now:
        return SystemClock()
    try:
        moment = datetime.fromisoformat(now.replace("Z", "+00:00"))
    except ValueError as exc:
        raise CliError(f"--now: '{now}' is not an ISO 8601 date-time") from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return FrozenClock(moment)


def emit(payload: Any) -> None:
    """One JSON object on its own line of stdout."""
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, default=str) + "\n")


def read_batch(path: str) -> list[str]:
    """The lines of ``path`` (UTF-8), stripped, blank ones kept: answer N is line N.

    Lines end only at a newline (with or without a carriage return): ``splitlines``
    would also split at a form feed or a line separator inside a line."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise CliError(f"{path} is not UTF-8 text (byte {exc.start} is invalid)") from exc
    lines = text.split("\n")
    if lines and lines[-1] == "":  # the newline that ends the last line
        lines.pop()
    return [line.strip() for line in lines]


async def with_container(
    now: Clock, work: Callable[[Any], Awaitable[int]], *, migrate: bool = True
) -> int:
    """Run ``work`` with a started container (migrated first unless told not to)."""
    from app.container import Container

    container = Container(settings(), clock=now)
    try:
        if migrate:
            await container.migrate()
        await container.start()
        return await work(container)
    finally:
        await container.stop()
