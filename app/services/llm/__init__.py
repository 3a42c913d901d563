"""LLMService: one interface, an OpenAI-compatible backend and an offline one."""

from app.services.llm.base import AnswerContext, LLMBackend, LLMError
from app.services.llm.offline import OfflineBackend
from app.services.llm.service import LLMService

__all__ = ["AnswerContext", "LLMBackend", "LLMError", "LLMService", "OfflineBackend"]
