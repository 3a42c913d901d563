"""What start-up does to the garbage collector of a long-running process."""

from __future__ import annotations

import gc
from pathlib import Path

from app.domain.clock import FrozenClock
from app.persistence.database import Database
from app.telegram_handlers.bot import COLLECTOR_THRESHOLDS, build_application
from tests.conftest import make_settings
from tests.support.telegram import RecordingRequest


async def _started(database: Database, clock: FrozenClock, data_dir: Path, freeze: bool) -> None:
    app = build_application(
        make_settings(data_dir=data_dir), request=RecordingRequest(), clock=clock,
        database=database, rate_limit=False, freeze_gc=freeze,
    )  # fmt: skip
    await app.initialize()
    await app.post_init(app)  # type: ignore[misc]  # what run_polling does
    await app.shutdown()
    await app.post_shutdown(app)  # type: ignore[misc]


async def test_a_running_bot_freezes_start_up_and_collects_young_objects_less_often(
    sqlite_database: Database, clock: FrozenClock, tmp_path: Path
) -> None:
    before = gc.get_threshold()
    try:
        await _started(sqlite_database, clock, tmp_path / "data", freeze=True)
        assert gc.get_freeze_count() > 0  # start-up's objects are out of the collector's way
        assert gc.get_threshold() == COLLECTOR_THRESHOLDS
        assert COLLECTOR_THRESHOLDS[0] > before[0] and COLLECTOR_THRESHOLDS[2] > before[2]
    finally:  # the other tests share this process
        gc.unfreeze()
        gc.set_threshold(*before)


async def test_an_application_built_for_tests_leaves_the_collector_alone(
    sqlite_database: Database, clock: FrozenClock, tmp_path: Path
) -> None:
    before = gc.get_threshold()
    await _started(sqlite_database, clock, tmp_path / "data", freeze=False)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
