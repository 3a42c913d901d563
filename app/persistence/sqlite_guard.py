"""SQLite is single-process: notice a second `coordbot run` on the same file.

Each bot process takes an exclusive, non-blocking lock on ``<database>.lock`` for
its lifetime; a process that cannot get it says so at start-up. (Two writers
would not corrupt the file, but each would close deadlines and send the outbox
on its own timers, and a second poller fights the first over updates.)
"""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path

logger = logging.getLogger(__name__)


def sqlite_path(url: str) -> Path | None:
    if not url.startswith("sqlite"):
        return None
    path = url.split("///", 1)[-1]
    return None if not path or path == ":memory:" else Path(path)


class SqliteGuard:
    def __init__(self, url: str) -> None:
        self.path = sqlite_path(url)
        self._fd: int | None = None

    def acquire(self) -> bool:
        """True when this is the only bot process on the file (or not SQLite at all)."""
        if self.path is None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(f"{self.path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            logger.warning(
                "another coordbot process already uses the SQLite database %s: SQLite is "
                "single-process; run one bot per file, or use PostgreSQL for replicas",
                self.path,
            )
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the lock
            self._fd = None
