"""facts: accents folded in the normalised columns ("Repair Café" is found as "repair cafe")

The lookup form of a name (app.nlp.key_terms.normalize) now drops accents, as members
type without them. Stored facts whose text has any non-ASCII character get their
normalised columns recomputed the same way. A fact whose folded triple already exists
(the same fact typed with and without accents) keeps its old form, so no row is lost;
it is then found by its accented spelling only.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 5000


def _fold(text: str) -> str:
    """normalize() as of this revision: single spaces, casefolded, accents dropped."""
    folded = " ".join(text.replace("_", " ").split()).casefold()
    if folded.isascii():
        return folded
    decomposed = unicodedata.normalize("NFD", folded)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def upgrade() -> None:
    bind = op.get_bind()
    facts = sa.table(
        "facts",
        sa.column("id", sa.Integer),
        sa.column("subject", sa.String),
        sa.column("predicate", sa.String),
        sa.column("object", sa.String),
        sa.column("subject_norm", sa.String),
        sa.column("predicate_norm", sa.String),
        sa.column("object_norm", sa.String),
    )
    last = 0
    while True:
        rows = bind.execute(
            sa.select(facts.c.id, facts.c.subject, facts.c.predicate, facts.c.object,
                      facts.c.subject_norm, facts.c.predicate_norm, facts.c.object_norm)
            .where(facts.c.id > last).order_by(facts.c.id).limit(BATCH)
        ).all()  # fmt: skip
        if not rows:
            return
        last = rows[-1].id
        for row in rows:
            if (row.subject + row.predicate + row.object).isascii():
                continue
            folded = (_fold(row.subject), _fold(row.predicate), _fold(row.object))
            if folded == (row.subject_norm, row.predicate_norm, row.object_norm):
                continue
            taken = bind.execute(
                sa.select(facts.c.id).where(
                    facts.c.subject_norm == folded[0],
                    facts.c.predicate_norm == folded[1],
                    facts.c.object_norm == folded[2],
                )
            ).first()
            if taken is None:
                bind.execute(
                    facts.update()
                    .where(facts.c.id == row.id)
                    .values(subject_norm=folded[0], predicate_norm=folded[1], object_norm=folded[2])
                )


def downgrade() -> None:
    """Folded forms still find every fact typed without accents; nothing to undo."""
