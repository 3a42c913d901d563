"""Group commit: concurrent callers share writes; a failed write is retried, not lost."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from app.persistence.group_commit import GroupCommit


async def test_callers_waiting_behind_a_write_share_the_next_one() -> None:
    writes: list[list[int]] = []
    gate = asyncio.Event()

    async def write(items: Sequence[int]) -> list[int]:
        writes.append(list(items))
        if len(writes) == 1:
            await gate.wait()  # the first write is slow: the others queue meanwhile
        return [i * 10 for i in items]

    batcher: GroupCommit[int, int] = GroupCommit(write)
    first = asyncio.create_task(batcher.submit(0))
    await asyncio.sleep(0)
    rest = [asyncio.create_task(batcher.submit(i)) for i in range(1, 6)]
    await asyncio.sleep(0)
    gate.set()
    assert await first == 0
    assert await asyncio.gather(*rest) == [10, 20, 30, 40, 50]
    assert writes == [[0], [1, 2, 3, 4, 5]]


async def test_a_failed_write_fails_its_writer_and_the_others_are_written_again() -> None:
    writes: list[list[int]] = []
    gate = asyncio.Event()

    async def write(items: Sequence[int]) -> list[str]:
        writes.append(list(items))
        if len(writes) == 1:
            await gate.wait()
        if len(writes) == 2:
            raise ConnectionError("database went away")
        return [f"ok {i}" for i in items]

    batcher: GroupCommit[int, str] = GroupCommit(write)
    first = asyncio.create_task(batcher.submit(0))
    await asyncio.sleep(0)
    rest = [asyncio.create_task(batcher.submit(i)) for i in (1, 2, 3)]
    await asyncio.sleep(0)
    gate.set()
    results = await asyncio.gather(first, *rest, return_exceptions=True)
    assert results[0] == "ok 0"
    failed = [r for r in results if isinstance(r, ConnectionError)]
    assert len(failed) == 1, "only the caller whose write failed sees the error"
    assert sorted(r for r in results if isinstance(r, str)) == ["ok 0"] + [
        f"ok {i}" for i in (1, 2, 3) if not isinstance(results[i], ConnectionError)
    ]
    assert writes[1] == [1, 2, 3] and sorted(writes[2]) == [2, 3]


async def test_batches_are_bounded() -> None:
    writes: list[int] = []

    async def write(items: Sequence[int]) -> list[None]:
        writes.append(len(items))
        await asyncio.sleep(0)
        return [None] * len(items)

    batcher: GroupCommit[int, None] = GroupCommit(write, max_batch=3)
    await asyncio.gather(*(batcher.submit(i) for i in range(10)))
    assert sum(writes) == 10 and max(writes) <= 3


@pytest.mark.parametrize("items", [[1], [1, 2]])
async def test_an_idle_caller_writes_at_once(items: list[int]) -> None:
    batcher: GroupCommit[int, int] = GroupCommit(lambda xs: _echo(xs))
    assert [await batcher.submit(i) for i in items] == items


async def _echo(items: Sequence[int]) -> list[int]:
    return list(items)
