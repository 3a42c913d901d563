"""The embedded index written by another process while this one has it open.

Chroma's embedded client keeps a collection's vectors in the memory of the process that
opened it, and catches up with the shared log only on its own writes: an entry another
process adds is found by id but has no vector here ("Error finding id"), and a search
misses it. The service reopens the client when the store's files move (``stamp``), and
when a read still meets that error it reopens and retries instead of failing."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import chromadb
import numpy as np
from chromadb.config import Settings as ChromaSettings

from app.services.embeddings import HashingEmbedder
from app.services.vector_db_service import CHUNKS, VectorDBService, embedded_stamp
from tests.mcp.support import ROOT

DIMENSION = 16
WRITER = """
import asyncio, sys
import chromadb
import numpy as np
from chromadb.config import Settings
from app.services.embeddings import HashingEmbedder
from app.services.vector_db_service import CHUNKS, VectorDBService

async def main(path, entry):
    client = lambda: chromadb.PersistentClient(path, Settings(anonymized_telemetry=False))
    vectors = VectorDBService(client, HashingEmbedder(int(sys.argv[3])))
    await vectors.upsert(CHUNKS, [entry], [entry], [{"n": 1}])
    await vectors.close()

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


def _service(path: Path, *, stamp: bool) -> VectorDBService:
    def client() -> chromadb.api.ClientAPI:
        return chromadb.PersistentClient(str(path), ChromaSettings(anonymized_telemetry=False))

    return VectorDBService(
        client, HashingEmbedder(DIMENSION), embedded_stamp(path) if stamp else None
    )


async def _other_process_adds(path: Path, entry: str) -> None:
    """Another process (as `coordbot import` would be) adds ``entry`` to CHUNKS."""
    run = [sys.executable, "-c", WRITER, str(path), entry, str(DIMENSION)]
    done = await asyncio.to_thread(subprocess.run, run, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


async def test_a_read_sees_what_another_process_added(tmp_path: Path) -> None:
    path = tmp_path / "chroma"
    path.mkdir()
    vectors = _service(path, stamp=True)
    try:
        await vectors.upsert(CHUNKS, ["mine"], ["bike room rules"], [{"n": 0}])
        probe = (await vectors.embed(["monstera rota"]))[0]
        assert [h.id for h in await vectors.query(CHUNKS, probe, 5)] == ["mine"]
        assert vectors.reopened == 0  # our own write moved the files: nothing to catch up

        await _other_process_adds(path, "monstera rota")
        hits = await vectors.query(CHUNKS, probe, 5)
        assert hits[0].id == "monstera rota" and {h.id for h in hits} == {"mine", "monstera rota"}
        assert vectors.reopened == 1
        found = await vectors.vectors(CHUNKS, ["mine", "monstera rota"])
        assert set(found) == {"mine", "monstera rota"}
        assert np.allclose(found["monstera rota"], probe, atol=1e-5)
        assert vectors.reopened == 1  # nothing moved since
    finally:
        await vectors.close()


async def test_a_missing_vector_never_fails_a_read(tmp_path: Path) -> None:
    # Without the files' stamp (as if the change went unnoticed), the vectors of an entry
    # another process added are still read: Chroma's error makes the service reopen.
    path = tmp_path / "chroma"
    path.mkdir()
    vectors = _service(path, stamp=False)
    try:
        await vectors.upsert(CHUNKS, ["mine"], ["bike room rules"], [{"n": 0}])
        assert set(await vectors.vectors(CHUNKS, ["mine"])) == {"mine"}

        await _other_process_adds(path, "monstera rota")
        assert await vectors.existing(CHUNKS, ["monstera rota"]) == {"monstera rota"}
        found = await vectors.vectors(CHUNKS, ["mine", "monstera rota"])
        assert set(found) == {"mine", "monstera rota"}
        assert vectors.reopened == 1
    finally:
        await vectors.close()
