"""Annotations say when a tool reaches outside: with a model configured (OPENAI_API_KEY)
`ask` and knowledge_import call it; with remote embeddings every semantic search does.
The pattern and proposal lookups stay closed-world either way."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.container import Container
from app.mcp.server import build_server
from app.persistence.database import Database
from tests.conftest import make_settings


@pytest.mark.parametrize(
    ("settings", "open_world"),
    [
        ({}, set()),
        ({"openai_api_key": "sk-test", "openai_base_url": "http://127.0.0.1:9/v1"},
         {"ask", "knowledge_import"}),
        ({"openai_api_key": "sk-test", "openai_base_url": "http://127.0.0.1:9/v1",
          "embedding_backend": "openai", "embedding_dimensions": 8},
         {"ask", "knowledge_import", "knowledge_query", "search_proposals"}),
    ],
)  # fmt: skip
async def test_open_world_follows_the_configuration(
    settings: dict[str, object], open_world: set[str], sqlite_database: Database, tmp_path: Path
) -> None:
    container = Container(
        make_settings(data_dir=tmp_path / "data", **settings), database=sqlite_database
    )
    try:
        tools = await build_server(container, allow_writes=True).list_tools()
    finally:
        await container.stop()
    assert len(tools) == 8
    assert {t.name for t in tools if t.annotations and t.annotations.open_world_hint} == open_world
    for tool in tools:
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is (
            tool.name not in {"knowledge_import", "add_fact"}
        )
