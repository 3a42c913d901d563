"""The same knowledge tools against a real `chroma run` server on 127.0.0.1."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.container import Container
from app.domain.clock import FrozenClock
from app.persistence.database import Database
from tests.conftest import make_settings


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[int]:
    port = _free_port()
    chroma = Path(sys.executable).with_name("chroma")
    proc = subprocess.Popen(
        [str(chroma), "run", "--path", str(tmp_path / "server"), "--host", "127.0.0.1",
         "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:  # wait for the server to accept connections (bounded)
            try:
                url = f"http://127.0.0.1:{port}/api/v2/heartbeat"
                with urllib.request.urlopen(url, timeout=2) as response:
                    response.read()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("chroma run did not start") from None
                time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


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
