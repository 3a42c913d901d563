"""Migration 0010: facts stored before accents were folded are found without them."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine, text

from alembic import command
from app.persistence.migrations import alembic_config


def test_stored_accented_facts_are_folded_and_duplicates_kept(tmp_path: Path) -> None:
    path = tmp_path / "coordbot.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    command.upgrade(alembic_config(url), "0009")
    engine = create_engine(f"sqlite:///{path}")
    insert = text(
        "INSERT INTO facts (subject, predicate, object, subject_norm, predicate_norm, "
        "object_norm, confidence, source, created_at) VALUES (:s, :p, :o, :sn, :pn, :on, 1.0, "
        "'manual', '2026-11-24 00:00:00')"
    )
    rows = [  # as 0009 stored them: casefolded, accents kept
        ("Kofi", "runs", "Repair Café", "kofi", "runs", "repair café"),
        ("Zoë", "member of", "Board", "zoë", "member of", "board"),
        ("Ana", "likes", "Cafe", "ana", "likes", "cafe"),  # typed both ways: one stays
        ("Ana", "likes", "Café", "ana", "likes", "café"),
    ]
    with engine.begin() as conn:
        for s, p, o, sn, pn, on in rows:
            conn.execute(insert, {"s": s, "p": p, "o": o, "sn": sn, "pn": pn, "on": on})
    command.upgrade(alembic_config(url), "head")
    with engine.connect() as conn:
        norms = conn.execute(
            text("SELECT subject, object, subject_norm, object_norm FROM facts ORDER BY id")
        ).all()
    engine.dispose()
    assert [tuple(r) for r in norms] == [
        ("Kofi", "Repair Café", "kofi", "repair cafe"),
        ("Zoë", "Board", "zoe", "board"),
        ("Ana", "Cafe", "ana", "cafe"),
        ("Ana", "Café", "ana", "café"),  # its folded triple was taken: kept as it was
    ]
