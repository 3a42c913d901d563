"""Embeddings from any OpenAI-compatible ``/v1/embeddings`` endpoint.

Chosen with ``EMBEDDING_BACKEND=openai``; the key and base URL are the ones /ask
uses (OPENAI_API_KEY, OPENAI_BASE_URL). The model name and the dimension are part
of :attr:`OpenAIEmbedder.model_name`, so switching models (or dimensions) is seen
as a model change and the index is rebuilt instead of mixing vector spaces.

The client is the blocking one: every caller already runs embedders in a worker
thread (``VectorDBService.embed``), never on the event loop. The API key is never
part of :meth:`OpenAIEmbedder.to_config`, which Chroma stores on disk.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from app.services.embeddings import EmbeddingModelError, check_texts, l2_normalize

if TYPE_CHECKING:
    import openai

#: Output widths of the well-known models; others need EMBEDDING_DIMENSIONS.
KNOWN_DIMENSIONS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}
#: Models that accept the ``dimensions`` request parameter (shortened vectors).
SHORTENABLE = ("text-embedding-3-",)
MAX_INPUTS_PER_REQUEST = 256


def resolve_dimension(model: str, dimension: int | None) -> int:
    """The vector width for ``model``: the configured one, else the model's known width."""
    if dimension is not None:
        if dimension < 1:
            raise ValueError("EMBEDDING_DIMENSIONS must be at least 1")
        return dimension
    if model in KNOWN_DIMENSIONS:
        return KNOWN_DIMENSIONS[model]
    raise ValueError(f"the width of embedding model {model!r} is unknown: set EMBEDDING_DIMENSIONS")


class OpenAIEmbedder:
    """Unit-length float32 vectors from an OpenAI-compatible embeddings endpoint."""

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None,
        base_url: str | None = None,
        dimension: int | None = None,
        timeout: float = 20.0,
        max_retries: int = 1,
        batch_size: int = MAX_INPUTS_PER_REQUEST,
    ) -> None:
        if not api_key:
            raise ValueError("EMBEDDING_BACKEND=openai needs OPENAI_API_KEY")
        if not 1 <= batch_size <= 2048:
            raise ValueError("batch_size must be between 1 and 2048")
        self.model = model
        self.dimension = resolve_dimension(model, dimension)
        # Ask for a width only when it differs from the model's own and the model can
        # shorten; a self-hosted model is trusted to give EMBEDDING_DIMENSIONS as it is.
        shorten = dimension != KNOWN_DIMENSIONS.get(model) and model.startswith(SHORTENABLE)
        self._requested = dimension if shorten else None
        self.model_name = f"openai:{model}:{self.dimension}"
        self.base_url = base_url
        self.timeout = timeout
        self.max_retries = max_retries
        self.batch_size = batch_size
        self._api_key = api_key
        self._client: openai.OpenAI | None = None

    def _openai(self) -> openai.OpenAI:
        if self._client is None:
            import openai  # ~20 MB: only when this backend is chosen

            self._client = openai.OpenAI(
                api_key=self._api_key,
                base_url=self.base_url,
                timeout=self.timeout,
                max_retries=self.max_retries,
            )
        return self._client

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        items = [text if text.strip() else " " for text in check_texts(texts)]  # no "" in the API
        out = np.empty((len(items), self.dimension), dtype=np.float32)
        for start in range(0, len(items), self.batch_size):
            batch = items[start : start + self.batch_size]
            out[start : start + len(batch)] = self._request(batch)
        return l2_normalize(out)

    def _request(self, batch: list[str]) -> np.ndarray:
        extra: dict[str, Any] = {"dimensions": self._requested} if self._requested else {}
        try:
            reply = self._openai().embeddings.create(model=self.model, input=batch, **extra)
        except Exception as exc:  # the type only: the message may quote the texts
            raise EmbeddingModelError(
                f"the embeddings endpoint failed ({type(exc).__name__})"
            ) from None
        rows = sorted(reply.data, key=lambda item: item.index)
        vectors = np.asarray([row.embedding for row in rows], dtype=np.float32)
        if vectors.shape != (len(batch), self.dimension):
            raise EmbeddingModelError(
                f"the embeddings endpoint returned shape {vectors.shape}, "
                f"expected ({len(batch)}, {self.dimension})"
            )
        return vectors

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()  # type: ignore[no-any-return]

    def to_config(self) -> dict[str, Any]:
        """What Chroma stores with a collection: never the key."""
        return {
            "kind": "openai",
            "model": self.model,
            "dimension": self.dimension,
            "base_url": self.base_url,
            "model_name": self.model_name,
        }

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> OpenAIEmbedder:
        """Rebuild from :meth:`to_config`, taking the key from the environment."""
        return cls(
            str(config["model"]),
            api_key=os.environ.get("OPENAI_API_KEY"),
            base_url=config.get("base_url"),
            dimension=int(config["dimension"]),
        )
