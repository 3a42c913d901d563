"""ChromaDB 1.x embedding function wrapping any :class:`~app.services.embeddings.Embedder`.

The class is registered with chromadb under :data:`CHROMA_EF_NAME`, so a
persisted collection stores ``{"name": "coordbot", "config": ...}`` and chromadb
rebuilds the function from that config when the collection is opened again.

chromadb rebuilds it often (on every ``collection.configuration`` access, and
``is_legacy()`` checks build one), so :meth:`CoordBotEmbeddingFunction.build_from_config`
never loads a second model: it reuses the embedder already in use in this
process for the same model (``model_name`` and ``dimension``), and otherwise
builds one lazily (the model loads on first use) and keeps it for later calls.
"""

from __future__ import annotations

import threading
from typing import Any, cast

from chromadb.api.types import Documents, Embeddable, EmbeddingFunction, Embeddings, Space
from chromadb.utils.embedding_functions import register_embedding_function

from app.services.embeddings import Embedder, embedder_from_config

CHROMA_EF_NAME = "coordbot"

_lock = threading.Lock()
_embedders: dict[tuple[str, int], Embedder] = {}


def _identity(model_name: str, dimension: int) -> tuple[str, int]:
    return (str(model_name), int(dimension))


def _embedder_config(embedder: Embedder) -> dict[str, Any]:
    to_config = getattr(embedder, "to_config", None)
    config: dict[str, Any] = dict(to_config()) if callable(to_config) else {"kind": "external"}
    config["model_name"] = embedder.model_name
    config["dimension"] = embedder.dimension
    return config


def shared_embedder(config: dict[str, Any]) -> Embedder:
    """The process-wide embedder for a persisted config (built lazily if none is active)."""
    key = _identity(config["model_name"], config["dimension"])
    with _lock:
        embedder = _embedders.get(key)
        if embedder is None:
            if config.get("kind") == "external":
                raise ValueError(
                    f"collection was embedded with {key[0]!r}, which cannot be rebuilt from "
                    "config; pass embedding_function= when opening it"
                )
            embedder = embedder_from_config(config)
            _embedders[key] = embedder
        return embedder


@register_embedding_function
class CoordBotEmbeddingFunction(EmbeddingFunction[Documents]):
    """Chroma embedding function backed by an :class:`Embedder` (cosine space)."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        with _lock:  # the latest embedder for a model serves rebuilt collections too
            _embedders[_identity(embedder.model_name, embedder.dimension)] = embedder

    @property
    def embedder(self) -> Embedder:
        return self._embedder

    def __call__(self, input: Documents) -> Embeddings:
        return list(self._embedder.embed_array(input))

    def embed_query(self, input: Documents) -> Embeddings:
        # MiniLM is symmetric: queries and documents are embedded the same way.
        return self.__call__(input)

    @staticmethod
    def name() -> str:
        return CHROMA_EF_NAME

    def get_config(self) -> dict[str, Any]:
        return _embedder_config(self._embedder)

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> CoordBotEmbeddingFunction:
        CoordBotEmbeddingFunction.validate_config(config)
        return CoordBotEmbeddingFunction(shared_embedder(config))

    @staticmethod
    def validate_config(config: dict[str, Any]) -> None:
        missing = {"kind", "model_name", "dimension"} - config.keys()
        if missing:
            raise ValueError(f"{CHROMA_EF_NAME} embedding config lacks {sorted(missing)}")

    def validate_config_update(
        self, old_config: dict[str, Any], new_config: dict[str, Any]
    ) -> None:
        for field in ("model_name", "dimension"):
            if old_config.get(field) != new_config.get(field):
                raise ValueError(
                    f"cannot change the embedding {field} of a collection "
                    f"({old_config.get(field)!r} -> {new_config.get(field)!r}); re-index instead"
                )

    def default_space(self) -> Space:
        return "cosine"

    def supported_spaces(self) -> list[Space]:
        # Vectors are unit length, so all three rank neighbours identically.
        return ["cosine", "ip", "l2"]

    def is_legacy(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"CoordBotEmbeddingFunction({self._embedder.model_name!r})"


def chroma_embedding_function(embedder: Embedder) -> EmbeddingFunction[Embeddable]:
    """``CoordBotEmbeddingFunction(embedder)`` typed as chromadb's client methods expect.

    chromadb annotates ``embedding_function=`` as ``EmbeddingFunction[Embeddable]``
    (documents or images); a text-only function is fine at run time but mypy
    rejects it, so the cast lives here rather than at every call site.
    """
    return cast(EmbeddingFunction[Embeddable], CoordBotEmbeddingFunction(embedder))
