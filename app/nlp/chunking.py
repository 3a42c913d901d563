"""Fixed-window chunking with overlap, as knowledge_import specifies.

The text is cut every ``chunk_size`` characters and each chunk starts
``chunk_overlap`` characters before the previous one ended. One refinement:
a cut that would fall inside a word moves back to the nearest whitespace in
the second half of the window, and a chunk that would start inside a word
moves forward to the next word start within the overlap, so words are not
split. Text without whitespace is cut exactly at the window edge.
"""

from __future__ import annotations

MIN_CHUNK = 100
MAX_CHUNK = 10000


def _cut(text: str, start: int, size: int) -> int:
    end = min(start + size, len(text))
    if end >= len(text) or text[end].isspace() or text[end - 1].isspace():
        return end
    floor = start + size // 2
    for i in range(end - 1, floor, -1):
        if text[i].isspace():
            return i + 1
    return end


def _word_start(text: str, start: int, limit: int) -> int:
    if start == 0 or text[start - 1].isspace():
        return start
    for i in range(start, limit):
        if text[i].isspace():
            return i + 1
    return start


def chunk_text(text: str, chunk_size: int = 500, chunk_overlap: int = 50) -> list[str]:
    """Split ``text`` into overlapping chunks of at most ``chunk_size`` characters."""
    if chunk_size < 1 or not 0 <= chunk_overlap < chunk_size:
        raise ValueError("need chunk_size >= 1 and 0 <= chunk_overlap < chunk_size")
    chunks: list[str] = []
    start = 0
    while start < len(text):
        end = _cut(text, start, chunk_size)
        piece = text[start:end].strip()
        if piece:
            chunks.append(piece)
        if end >= len(text):
            break
        next_start = max(end - chunk_overlap, start + 1)
        start = _word_start(text, next_start, end) if chunk_overlap else end
    return chunks
