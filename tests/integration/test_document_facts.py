"""DocumentFacts on SQLite and PostgreSQL: facts from every chunk of a document, merged,
replaced and removed with it, and never written for a text that is no longer there.

The model is a hand-written reader (the FactReader port) that tests can hold back, so
a document can be deleted or edited while its facts are being read.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select

from app.container import Container
from app.core.graph.document_facts import DocumentFacts, document_source
from app.core.knowledge.document_service import DocumentService
from app.domain.clock import FrozenClock
from app.persistence.database import Database
from app.persistence.models import FactRow
from app.services.llm.base import ExtractedFact
from tests.conftest import ADMIN_ID, make_settings

# Five chunks at 100 characters; most facts are in two chunks, with "well" in only one.
TEAM = " ".join(
    f"{name} runs the {place}. Everyone agrees that {name} runs the {place} well."
    for name, place in [("Ana", "garden"), ("Ben", "kitchen"), ("Cleo", "library"),
                        ("Dan", "workshop"), ("Eve", "garage"), ("Finn", "studio")]
)  # fmt: skip
SENTENCE = re.compile(r"(\w+) runs the (\w+)( well)?")
FACTS = {  # each at the highest confidence a chunk gave it
    ("Ana", "runs", "garden", 0.9), ("Ben", "runs", "kitchen", 0.9),
    ("Cleo", "runs", "library", 0.6), ("Dan", "runs", "workshop", 0.9),
    ("Eve", "runs", "garage", 0.9), ("Finn", "runs", "studio", 0.9),
}  # fmt: skip


class Reader:
    """Reads "<name> runs the <place>" (0.9 when followed by "well"); counts requests
    in flight; ``hold`` keeps passages with a word waiting until ``release``; passages
    with a word in ``fail_on`` fail as a model would."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.most_in_flight = 0
        self.passages: list[str] = []
        self.held: dict[str, asyncio.Event] = {}
        self.waiting = asyncio.Event()
        self.fail_on: set[str] = set()

    def hold(self, word: str) -> None:
        self.held[word] = asyncio.Event()

    def release(self, word: str) -> None:
        self.held[word].set()

    async def extract_facts(self, text: str) -> list[ExtractedFact] | None:
        self.passages.append(text)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(0)  # let the other workers start theirs
            for word, event in self.held.items():
                if word in text:
                    self.waiting.set()
                    await event.wait()
            if any(word in text for word in self.fail_on):
                return None
            return [
                ExtractedFact(name, "runs", place, 0.9 if well else 0.6)
                for name, place, well in SENTENCE.findall(text)
            ]
        finally:
            self.in_flight -= 1


@pytest.fixture
async def container(
    database: Database, clock: FrozenClock, tmp_path: Path
) -> AsyncIterator[Container]:
    built = Container(make_settings(data_dir=tmp_path / "data"), clock=clock, database=database)
    yield built
    await built.vectors.close()


@pytest.fixture
def reader() -> Reader:
    return Reader()


@pytest.fixture
def documents(container: Container, reader: Reader) -> DocumentService:
    c = container
    return DocumentService(
        c.db, c.clock, c.vectors, c.index, admin_ids=frozenset({ADMIN_ID}),
        facts=DocumentFacts(c.graph, reader),
    )  # fmt: skip


async def stored(db: Database, source: str) -> list[tuple[str, str, str, float]]:
    stmt = select(FactRow.subject, FactRow.predicate, FactRow.object, FactRow.confidence)
    async with db.transaction() as session:
        rows = await session.execute(stmt.where(FactRow.source == source).order_by(FactRow.id))
    return [tuple(r) for r in rows]  # type: ignore[misc]


async def test_every_chunk_is_read_and_the_facts_go_with_the_document(
    container: Container, documents: DocumentService, reader: Reader
) -> None:
    await container.graph.store_fact("Ana", "runs", "garden", 1.0)  # an admin's
    result = await documents.knowledge_import("Team", TEAM, chunk_size=100, chunk_overlap=0)
    assert result.chunks_created == len(reader.passages) == 5
    assert reader.most_in_flight == 4  # a few chunks at a time, never all at once

    source = document_source(result.document_id)
    facts = await stored(container.db, source)
    assert len(facts) == 5 and set(facts) == FACTS - {("Ana", "runs", "garden", 0.9)}
    who = await container.graph.ask_question("who runs the library?")
    assert who.answer_text == "Cleo runs library"

    await documents.delete_document(ADMIN_ID, result.document_id)
    assert await stored(container.db, source) == []
    assert await stored(container.db, "manual") == [("Ana", "runs", "garden", 1.0)]


async def test_a_failed_chunk_costs_only_its_own_facts(
    container: Container, documents: DocumentService, reader: Reader
) -> None:
    reader.fail_on = {"Dan"}  # the third chunk, the only one about Dan
    result = await documents.knowledge_import("Team", TEAM, chunk_size=100, chunk_overlap=0)
    facts = await stored(container.db, document_source(result.document_id))
    assert set(facts) == FACTS - {("Dan", "runs", "workshop", 0.9)}


async def test_a_document_deleted_while_it_is_read_leaves_no_facts(
    container: Container, documents: DocumentService, reader: Reader
) -> None:
    reader.hold("Ana")

    async def delete_meanwhile() -> None:
        await reader.waiting.wait()
        [doc], _ = await documents.list_documents()
        await documents.delete_document(ADMIN_ID, doc.id)
        reader.release("Ana")

    async with asyncio.TaskGroup() as group:
        imported = group.create_task(documents.knowledge_import("Team", "Ana runs the garden."))
        group.create_task(delete_meanwhile())
    source = document_source(imported.result().document_id)
    assert await stored(container.db, source) == []
    assert await container.graph.count() == 0


async def test_an_older_reading_never_replaces_a_newer_text(
    container: Container, documents: DocumentService, reader: Reader
) -> None:
    reader.hold("Ana")

    async def edit_meanwhile() -> None:
        await reader.waiting.wait()
        [doc], _ = await documents.list_documents()
        await documents.edit_document(ADMIN_ID, doc.id, content="Ben runs the kitchen.")
        reader.release("Ana")

    async with asyncio.TaskGroup() as group:
        imported = group.create_task(documents.knowledge_import("Team", "Ana runs the garden."))
        group.create_task(edit_meanwhile())
    source = document_source(imported.result().document_id)
    assert await stored(container.db, source) == [("Ben", "runs", "kitchen", 0.6)]
