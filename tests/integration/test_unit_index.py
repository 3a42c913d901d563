"""The documents' unit vectors in the index (Chroma, the real model): stored once, then read
for several documents in one call and no model call, as /ask reads its best documents."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.container import Container
from app.core.knowledge.unit_index import UnitIndex, unit_text
from app.nlp.units import segment
from tests.conftest import make_settings

SHED = "# Bike shed\n\nMembers may keep two bikes in the shed. The rules are on the door."
GARDEN = "Compost goes in the green bins.\n\n- Leaves in autumn\n- No meat or fish"
CAFE = "The Repair Café meets every Saturday. Bring the broken thing and its cable."


@pytest.fixture
async def kb(tmp_path: Path) -> Any:
    container = Container(make_settings(data_dir=tmp_path / "data"))
    yield container
    await container.stop()


def _count(calls: Counter[str], name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    async def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return await method(*args, **kwargs)

    return counted


async def test_several_documents_are_read_in_one_call_without_the_model(kb: Container) -> None:
    await UnitIndex(kb.vectors).ensure([("shed", SHED), ("garden", GARDEN)])
    calls: Counter[str] = Counter()
    kb.vectors.vectors = _count(calls, "read", kb.vectors.vectors)  # type: ignore[method-assign]
    kb.vectors.embed = _count(calls, "embed", kb.vectors.embed)  # type: ignore[method-assign]
    fresh = UnitIndex(kb.vectors)  # nothing in memory: a restarted bot

    (shed, shed_vectors), (garden, garden_vectors) = await fresh.many(
        [("shed", SHED), ("garden", GARDEN)]
    )

    assert calls == {"read": 1}
    assert shed == segment(SHED) and garden == segment(GARDEN)
    assert shed_vectors.shape == (len(shed), 384) and garden_vectors.shape == (len(garden), 384)
    expected = await kb.vectors.embed([unit_text(u) for u in garden])
    assert np.allclose(garden_vectors, expected, atol=1e-3)
    units, vectors = await fresh.units("shed", SHED)
    assert units == shed and vectors is shed_vectors  # kept in memory
    assert calls == {"read": 1, "embed": 1}  # only the check above


async def test_units_the_index_lacks_are_embedded_once_and_stored(kb: Container) -> None:
    await UnitIndex(kb.vectors).ensure([("shed", SHED)])
    calls: Counter[str] = Counter()
    kb.vectors.embed = _count(calls, "embed", kb.vectors.embed)  # type: ignore[method-assign]

    read = await UnitIndex(kb.vectors).many([("cafe", CAFE), ("shed", SHED), ("garden", GARDEN)])

    assert [units for units, _ in read] == [segment(CAFE), segment(SHED), segment(GARDEN)]
    assert calls == {"embed": 1}  # the café's and the garden's units together
    again = await UnitIndex(kb.vectors).many([("garden", GARDEN), ("cafe", CAFE)])
    assert calls == {"embed": 1}
    assert np.allclose(again[0][1], read[2][1], atol=1e-6)  # as stored
    assert np.allclose(again[1][1], read[0][1], atol=1e-6)


async def test_an_edited_document_never_reads_its_old_vectors(kb: Container) -> None:
    index = UnitIndex(kb.vectors)
    _, before = await index.units("shed", SHED)
    edited = SHED.replace("two bikes", "one bike")
    units, after = await index.units("shed", edited)
    assert units == segment(edited)
    assert not np.allclose(before[0], after[0])  # the sentence that changed
