"""`coordbot seed`, `import` and `reindex` fill the lexical index, in BOT_LANGUAGE."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import text

from app.cli import main
from app.nlp.lexical import lexical_terms
from app.persistence.database import Database
from app.persistence.repositories.lexical import LexicalSearch
from tests.e2e.conftest import ASK_FIXTURE, json_lines

TABLES = ("document_chunks", "proposals", "facts")


async def _state(env: Path, question: str, language: str = "en") -> dict[str, object]:
    db = Database(f"sqlite+aiosqlite:///{env / 'data' / 'coordbot.sqlite3'}")
    try:
        async with db.transaction() as session:
            counts = {}
            for table in TABLES:
                counts[table] = tuple(
                    (
                        await session.execute(text(f"SELECT count(*), count(lexical) FROM {table}"))
                    ).one()
                )
            terms = lexical_terms(question, language)
            search = LexicalSearch(session)
            chunk = (await search.chunks(terms, 1))[0][0]
            title = await session.scalar(
                text(
                    "SELECT d.title FROM documents d JOIN document_chunks c "
                    "ON c.document_id = d.id WHERE c.id = :id"
                ),
                {"id": chunk},
            )
            proposals = [p for p, _ in await search.proposals(terms, 3)]
            facts = [f for f, _ in await search.facts(terms, 3)]
        return {"counts": counts, "title": title, "proposals": proposals, "facts": facts}
    finally:
        await db.dispose()


def test_seed_indexes_every_row(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["seed", str(ASK_FIXTURE)]) == 0
    state = asyncio.run(_state(env, "guest Wi-Fi password?"))
    for table, (rows, with_terms) in state["counts"].items():  # type: ignore[attr-defined]
        assert rows > 0 and with_terms == rows, table
    assert state["title"] == "Guest wifi"

    capsys.readouterr()
    assert main(["reindex", "--json"]) == 0  # current: the JSON shape is unchanged
    facts = state["counts"]["facts"][0]  # type: ignore[index]
    assert json_lines(capsys)[-1] == {
        "proposals_indexed": 61, "chunks_indexed": 32, "facts_indexed": facts,
    }  # fmt: skip


def test_reindex_follows_the_community_language(
    env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOT_LANGUAGE", "es")
    page = env / "normas.txt"
    page.write_text("Las bicicletas se guardan en el sótano; las reuniones son los martes.")
    assert main(["import", str(page)]) == 0
    state = asyncio.run(_state(env, "bicicleta sotano", "es"))
    assert state["title"] == "normas"
    capsys.readouterr()
    assert main(["reindex"]) == 0
    assert "search terms recomputed: 0 rows" in capsys.readouterr().out

    monkeypatch.setenv("BOT_LANGUAGE", "en")  # the community's language changed
    assert main(["reindex"]) == 0
    assert "search terms recomputed: 1 rows" in capsys.readouterr().out
