"""Build the LLMService the settings ask for.

A key means a model answers first (any OpenAI-compatible server, through
``OPENAI_BASE_URL``); no key means the offline backend alone. Either way /ask works.
"""

from __future__ import annotations

from app.config import Settings
from app.services.llm.service import LLMService


def build_llm_service(settings: Settings) -> LLMService:
    if not settings.openai_api_key:
        return LLMService()
    from app.services.llm.openai_backend import OpenAIBackend  # the openai package: ~20 MB

    backend = OpenAIBackend(
        settings.openai_api_key,
        base_url=settings.openai_base_url,
        model=settings.openai_model,
        answer_model=settings.openai_answer_model,
        timeout=settings.llm_timeout_seconds,
        max_retries=settings.llm_max_retries,
    )
    return LLMService(primary=backend, evidence_chars=settings.llm_evidence_chars)
