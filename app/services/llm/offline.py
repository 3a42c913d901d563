"""The offline backend: template answers, no network."""

from __future__ import annotations

from app.services.llm.base import (
    AnswerContext,
    ExtractedFact,
    GroundedContext,
    GroundedReply,
    LLMError,
    ThemeGroup,
)


class OfflineBackend:
    """Deterministic: the same question over the same data gives the same answer."""

    name = "offline"

    async def write_lead(self, context: AnswerContext) -> str:
        return context.lead

    async def answer_grounded(self, context: GroundedContext) -> GroundedReply:
        """Without a model the offline answer, chosen by the fitted decision, stands."""
        raise LLMError("the offline backend does not write grounded answers")

    async def group_themes(self, submissions: list[str], max_themes: int) -> list[ThemeGroup]:
        """No model, no themes: the closing service groups submissions itself."""
        raise LLMError("the offline backend does not write themes")

    async def extract_facts(self, text: str) -> list[ExtractedFact]:
        """Reading facts needs a model: documents then feed no facts."""
        raise LLMError("the offline backend does not read facts")

    async def aclose(self) -> None:
        return None
