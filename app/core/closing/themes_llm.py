"""Themes written by a model, counted here, with a deterministic grouping behind them.

The model only names groups and says which submissions are in them; the counts come
from those lists, submissions it left out count as "other ideas", and at most
``max_themes`` themes are named. The model's names are checked like any other: a
group of fewer than two ideas is not shown, and a name with a word only one of its
ideas uses is replaced by the group's shared keywords (``shown_themes``). Without a
model, or when it fails (timeout, 5xx, an invalid reply: ``LLMService`` counts and
logs it), the fallback groups instead.
"""

from __future__ import annotations

from typing import Any, Protocol

from app.core.closing.themes import ThemeSummarizer, shown_themes
from app.services.llm.base import ThemeGroup


class ThemeWriter(Protocol):
    """``LLMService.group_themes``: a model's groups, or None to group deterministically."""

    async def group_themes(
        self, submissions: list[str], max_themes: int
    ) -> list[ThemeGroup] | None: ...


def count_themes(
    texts: list[str], groups: list[ThemeGroup], max_themes: int
) -> list[dict[str, Any]]:
    """``[{"theme", "count"}]`` from a model's groups of ``texts``: each submission counts
    once, in the first group listing it; a group too small to show, or named with one
    idea's words and sharing none, is not shown (``shown_themes``); the rest are
    "other ideas"."""
    return shown_themes(texts, [(g.name, g.members) for g in groups], max_themes)


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
        return count_themes(texts, groups, self.max_themes)
