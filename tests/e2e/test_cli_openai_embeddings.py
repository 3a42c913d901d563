"""EMBEDDING_BACKEND=openai: the knowledge base embedded by an OpenAI-compatible server.

The fake server (tests/support/fake_openai.py) embeds by hashing, so equal texts get
equal vectors and nothing else is similar: a query equal to a chunk finds it first.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.cli import main
from app.config import Settings
from app.container import Container, default_embedder
from app.core.knowledge.index_service import chunk_text
from app.services.embeddings import EmbeddingModelError, embedder_from_config
from app.services.openai_embeddings import OpenAIEmbedder, resolve_dimension
from tests.e2e.conftest import json_lines
from tests.support.fake_openai import EMBEDDING_DIMENSIONS, FakeOpenAI

PARKING = "Residents park in the underground garage with a permit from the office."
PETS = "Dogs must be kept on a lead in the garden and the hallways."


@pytest.fixture
def openai_env(env: Path, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("EMBEDDING_BACKEND", "openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("EMBEDDING_DIMENSIONS", "64")
    monkeypatch.setenv("LLM_MAX_RETRIES", "0")
    return env


def test_import_and_query_through_the_embeddings_endpoint(
    openai_env: Path, fake_openai: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    (openai_env / "parking.txt").write_text(PARKING)
    (openai_env / "pets.txt").write_text(PETS)
    assert main(["import", "parking.txt", "pets.txt", "--json"]) == 0
    imported = json_lines(capsys)
    assert [d["chunks_created"] for d in imported] == [1, 1]

    # a chunk is embedded led by its document's title: that text is the exact match
    titled = chunk_text(PETS, imported[1]["title"])
    assert main(["query", titled, "--top-k", "2", "--json"]) == 0
    [found] = json_lines(capsys)
    assert found["total"] == 2
    top = found["results"][0]
    assert top["document"]["id"] == imported[1]["document_id"] and top["content"] == PETS
    assert top["similarity"] == pytest.approx(1.0, abs=1e-4)

    calls = [r for r in fake_openai.requests if r.path.endswith("/embeddings")]
    assert calls, "nothing was embedded by the server"
    assert {r.body["model"] for r in calls} == {"text-embedding-3-small"}
    assert {r.body["dimensions"] for r in calls} == {64}
    assert all(r.headers["authorization"] == "Bearer sk-test" for r in calls)
    # The key also lets a model read each imported chunk's facts; a query asks it nothing.
    chats = [r["response_format"]["json_schema"]["name"] for r in fake_openai.chat_requests]
    assert chats == ["document_facts", "document_facts"]


def test_an_unreachable_endpoint_keeps_the_import_and_catches_up(
    openai_env: Path, fake_openai: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    (openai_env / "parking.txt").write_text(PARKING)
    fake_openai.mode = "500"
    assert main(["import", "parking.txt", "--json"]) == 0  # SQL keeps it; the index waits
    [imported] = json_lines(capsys)
    assert imported["chunks_created"] == 1

    fake_openai.mode = "ok"  # the endpoint answers again
    assert main(["query", PARKING, "--json"]) == 0
    assert json_lines(capsys) == [{"results": [], "total": 0}]  # not indexed yet
    assert main(["reindex", "--json"]) == 0
    assert json_lines(capsys) == [{"proposals_indexed": 0, "chunks_indexed": 1, "facts_indexed": 0}]
    assert main(["query", PARKING, "--top-k", "1", "--json"]) == 0
    [found] = json_lines(capsys)
    assert found["results"][0]["document"]["id"] == imported["document_id"]


async def test_switching_backends_rebuilds_the_index(
    openai_env: Path, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    (openai_env / "data").mkdir()
    remote = Container(Settings())
    try:
        await remote.migrate()
        doc = await remote.documents.knowledge_import("Parking", PARKING, category="policy")
        assert (await remote.documents.knowledge_query(PARKING, top_k=1))["total"] == 1
    finally:
        await remote.stop()

    monkeypatch.setenv("EMBEDDING_BACKEND", "local")
    local = Container(Settings())
    try:
        report = await local.index.reconcile()  # what the bot does at start-up
        assert report["chunks_indexed"] == 1
        found = await local.documents.knowledge_query("where do residents park?", top_k=1)
        assert found["results"][0]["document"]["id"] == doc.document_id
    finally:
        await local.stop()


def test_settings_choose_the_backend(
    fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # a rebuilt embedder reads it from here
    settings = Settings(
        embedding_backend="openai",
        openai_api_key="sk-test",
        openai_base_url=fake_openai.base_url,
        openai_embedding_model="self-hosted-model",
        embedding_dimensions=EMBEDDING_DIMENSIONS,  # the fake server's own width
        llm_max_retries=0,
    )
    embedder = default_embedder(settings)
    assert isinstance(embedder, OpenAIEmbedder)
    assert embedder.model_name == f"openai:self-hosted-model:{EMBEDDING_DIMENSIONS}"
    assert "sk-test" not in str(embedder.to_config())
    rebuilt = embedder_from_config(embedder.to_config())  # as Chroma reopens a collection
    assert isinstance(rebuilt, OpenAIEmbedder) and rebuilt.model_name == embedder.model_name
    vectors = embedder.embed_array(["a", "", "a"])
    assert vectors.shape == (3, EMBEDDING_DIMENSIONS)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert np.allclose(vectors[0], vectors[2])
    [call] = [r for r in fake_openai.requests if r.path.endswith("/embeddings")]
    assert "dimensions" not in call.body  # a self-hosted model is not asked to shorten
    assert call.body["input"] == ["a", " ", "a"]  # the API rejects empty strings

    fake_openai.mode = "500"
    with pytest.raises(EmbeddingModelError, match=r"failed \(InternalServerError\)$"):
        embedder.embed_array(["secret idea text"])


def test_a_reply_of_the_wrong_width_is_refused(fake_openai: FakeOpenAI) -> None:
    embedder = OpenAIEmbedder(
        "text-embedding-3-large", api_key="sk-test", base_url=fake_openai.base_url
    )
    assert embedder.dimension == 3072
    with pytest.raises(EmbeddingModelError, match=r"shape \(1, 8\), expected \(1, 3072\)"):
        embedder.embed_array(["text"])


def test_dimension_rules() -> None:
    assert resolve_dimension("text-embedding-3-small", None) == 1536
    assert resolve_dimension("my-local-model", 768) == 768
    with pytest.raises(ValueError, match="set EMBEDDING_DIMENSIONS"):
        resolve_dimension("my-local-model", None)
    with pytest.raises(ValueError, match="needs OPENAI_API_KEY"):
        OpenAIEmbedder("text-embedding-3-small", api_key=None)
