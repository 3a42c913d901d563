"""The same knowledge tools against a real `chroma run` server on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.container import Container
from app.domain.clock import FrozenClock
from app.persistence.database import Database
from tests.conftest import make_settings
from tests.support.chroma_server import running_chroma_server


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[int]:
    """`chroma run` on a free 127.0.0.1 port, stopped at the end."""
    with running_chroma_server(tmp_path / "server") as port:
        yield port


async def test_import_and_query_through_a_chroma_server(
    chroma_server: int, sqlite_database: Database, clock: FrozenClock, tmp_path: Path
) -> None:
    settings = make_settings(data_dir=tmp_path / "data", chroma_host="127.0.0.1",
                             chroma_port=chroma_server)  # fmt: skip
    container = Container(settings, clock=clock, database=sqlite_database)
    parking = await container.documents.knowledge_import(
        "Parking policy", "Residents park in the underground garage with a permit."
    )
    await container.documents.knowledge_import(
        "Recycling", "Glass and paper go in the basement bins on Tuesdays."
    )
    found = await container.documents.knowledge_query("where do I park my car?", top_k=1)
    assert found["results"][0]["document"]["id"] == parking.document_id
    assert not (tmp_path / "data" / "chroma").exists()  # nothing went to the embedded store
    await container.stop()
