"""How many edits apart two words are: what the typo readers (/ask's speller and the date
readers) measure a misspelling by."""

from __future__ import annotations


def distance(a: str, b: str) -> int:
    """Edits from ``a`` to ``b`` (a letter dropped, added or changed), a swap of two
    neighbouring letters counting as one (optimal string alignment)."""
    rows = [list(range(len(b) + 1))]
    for i, x in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]
