"""LLMService: try the configured model, fall back to the offline backend per step
(or, for themes, to the caller's deterministic grouping)."""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import replace

from app.services.llm.base import (
    AnswerContext,
    ExtractedFact,
    GroundedContext,
    GroundedReply,
    LLMBackend,
    ThemeGroup,
    Unquoted,
)
from app.services.llm.offline import OfflineBackend

logger = logging.getLogger(__name__)


def within(lines: list[str], budget: int) -> list[str]:
    """The first lines that fit in ``budget`` characters (a line break counted as one);
    the first line is always kept, cut to the budget if it alone is longer. A model
    reads every character it is sent, so the budget is the time a reply takes."""
    if not lines:
        return []
    kept: list[str] = []
    size = 0
    for line in lines:
        size += len(line) + 1
        if size > budget:
            break
        kept.append(line)
    return kept or [lines[0][:budget]]


class LLMService:
    """Any failure of the primary backend (timeout, 5xx, malformed or invalid reply)
    is logged without the question and answered by the offline backend instead, so
    a user always gets an answer."""

    def __init__(self, primary: LLMBackend | None = None, evidence_chars: int = 6000) -> None:
        self.offline = OfflineBackend()
        self.primary = primary
        self.evidence_chars = evidence_chars  # how much of what /ask found the model reads
        self.fallbacks: Counter[str] = Counter()

    @property
    def has_model(self) -> bool:
        """Whether a model is configured (it may still fail; every step falls back)."""
        return self.primary is not None

    @property
    def backend_name(self) -> str:
        return self.primary.name if self.primary else self.offline.name

    async def write_lead(self, context: AnswerContext) -> str:
        """A model's lead from at most ``evidence_chars`` of the evidence (its first
        lines: the best), or the offline lead when there is no model or it failed."""
        if self.primary is not None and context.evidence:
            bounded = replace(context, evidence=within(context.evidence, self.evidence_chars))
            try:
                return await self.primary.write_lead(bounded)
            except Exception as exc:
                self._fell_back("answer", exc)
        return await self.offline.write_lead(context)

    async def answer_grounded(self, context: GroundedContext) -> GroundedReply | None:
        """A model's answer from the keyed evidence, or None without a model, without
        evidence, or when it failed or cited what it was not given: the caller's
        offline answer then stands."""
        if self.primary is None or not context.items:
            return None
        try:
            return await self.primary.answer_grounded(context)
        except Exception as exc:
            self._fell_back("grounded", exc)
            return None

    async def group_themes(
        self, submissions: list[str], max_themes: int
    ) -> list[ThemeGroup] | None:
        """A model's themes, or None without a model or when it failed: the caller then
        groups the submissions deterministically."""
        if self.primary is None or not submissions:
            return None
        try:
            return await self.primary.group_themes(submissions, max_themes)
        except Exception as exc:
            self._fell_back("themes", exc)
            return None

    async def extract_facts(self, text: str) -> list[ExtractedFact] | None:
        """The facts a passage states, or None without a model or when it failed (the
        document then simply feeds no facts; there is no offline reading)."""
        if self.primary is None or not text.strip():
            return None
        try:
            return await self.primary.extract_facts(text)
        except Exception as exc:
            self._fell_back("facts", exc)
            return None

    def _fell_back(self, step: str, exc: Exception) -> None:
        self.fallbacks[step] += 1
        # The exception type only: messages may quote the question, context, submissions
        # or document text; an Unquoted one says what failed in our own words.
        said = str(exc) if isinstance(exc, Unquoted) else type(exc).__name__
        logger.warning("LLM %s failed (%s); falling back", step, said)

    async def aclose(self) -> None:
        if self.primary is not None:
            await self.primary.aclose()
