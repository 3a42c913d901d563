"""Themes written by a model, counted here, with a deterministic grouping behind them.

The model only names groups and says which submissions are in them; the counts come
from those lists, submissions it left out count as "other ideas", and at most
``max_themes`` themes are named. Without a model, or when it fails (timeout, 5xx,
an invalid reply: ``LLMService`` counts and logs it), the fallback groups instead.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol

from app.core.closing.themes import ThemeSummarizer, ranked_themes
from app.services.llm.base import ThemeGroup


class ThemeWriter(Protocol):
    """``LLMService.group_themes``: a model's groups, or None to group deterministically."""

    async def group_themes(
        self, submissions: list[str], max_themes: int
    ) -> list[ThemeGroup] | None: ...


def count_themes(groups: list[ThemeGroup], total: int, max_themes: int) -> list[dict[str, Any]]:
    """``[{"theme", "count"}]`` from groups of ``total`` submissions: each submission
    counts once, in the first group listing it; those in none are "other ideas"."""
    taken: set[int] = set()
    counts: Counter[str] = Counter()
    for group in groups:
        fresh = {m for m in group.members if 0 <= m < total} - taken
        taken |= fresh
        if fresh:
            counts[group.name] += len(fresh)
    return ranked_themes(counts, max_themes, other=total - len(taken))


class LLMThemeSummarizer:
    def __init__(self, writer: ThemeWriter, fallback: ThemeSummarizer, max_themes: int = 5) -> None:
        self.writer = writer
        self.fallback = fallback
        self.max_themes = max_themes

    async def summarize(self, texts: list[str]) -> list[dict[str, Any]]:
        if not texts:
            return []
        groups = await self.writer.group_themes(texts, self.max_themes)
        if groups is None:
            return await self.fallback.summarize(texts)
        return count_themes(groups, len(texts), self.max_themes)
