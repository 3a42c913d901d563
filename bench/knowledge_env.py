"""The app's settings on a benchmark DATA_DIR, and readings of this process and the machine.

Standard library only: the ``--memory-only`` process imports this before its first RSS
reading, so anything heavy imported here would be counted as the interpreter's own memory.
"""

from __future__ import annotations

import os
import resource
from pathlib import Path
from typing import Any

TOKEN = "123456:TEST-TOKEN"


def settings_for(data_dir: Path) -> Any:
    from app.config import Settings

    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        data_dir=data_dir,
        database_url=f"sqlite+aiosqlite:///{(data_dir / 'kb.sqlite3').resolve()}",
        telegram_bot_token=TOKEN,
        admin_telegram_ids=frozenset({4242}),
        bot_timezone="UTC",
    )


def rss_mb() -> float:
    """Current resident set size (/proc/self/statm, second field, in pages)."""
    with open("/proc/self/statm") as fh:
        pages = int(fh.read().split()[1])
    return round(pages * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


def peak_rss_mb() -> float:
    """High-water mark of this process's RSS.

    VmHWM (/proc/self/status) rather than ru_maxrss: Linux carries ru_maxrss over fork and
    exec, so a subprocess would report the parent's peak.
    """
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)  # kB
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # KiB on Linux


def load_1m() -> float:
    return round(os.getloadavg()[0], 2)
