"""onnxruntime sessions for the MiniLM encoder: the int8 rewrite when it fits, else the file.

:func:`open_int8` builds a session from :func:`~app.services.onnx_int8.rewrite_int8`'s graph
and returns None, with a log line, whenever that does not work out: the graph is not the
expected layout, onnxruntime rejects it, or its vectors disagree with the original graph's
(for the pinned model, with vectors shipped in ``assets/minilm/probe_vectors.json``). The
weights are int8, or uint8 where the CPU's uint8 x int8 kernel saturates (no VNNI), so
every CPU computes the same numbers (:mod:`app.services.onnx_cpu`).
:func:`open_plain` loads the file as it is. Both give a
``run_batch(input_ids, attention_mask, token_type_ids)`` callable.
"""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from app.services.embeddings import (
    MINILM_DIMENSION,
    EmbeddingModelError,
    RunBatch,
    embed_each,
    embed_token_ids,
    load_minilm_tokenizer,
)

logger = logging.getLogger(__name__)

_ORT_INT_TYPES = {"tensor(int64)": np.int64, "tensor(int32)": np.int32}
#: The int8 graph must agree with the original graph this well on PROBE_TEXTS. Measured
#: (bench/int8_paths.py): exact kernels stay above 0.998 on these texts on every CPU tried
#: (1 - cosine <= 0.002), saturating ones fall to 0.974 (>= 0.026); 0.99 is also the
#: agreement promised to a vector store shared between machines.
INT8_MIN_COSINE = 0.99
INT8_WEIGHT_KINDS = ("int8", "uint8")
PROBE_TEXTS = ("ok", "How does parking work at the tower?", "Budget review next Tuesday. " * 8)


def session_options(threads: int, *, arena: bool = True) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    options.enable_mem_pattern = False  # shapes change every batch
    options.enable_cpu_mem_arena = arena
    # Idle pool threads sleep instead of spinning: the bot shares the CPUs.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options


def open_plain(path: Path, data: bytes, threads: int) -> RunBatch:
    """The model as it is (float32 once onnxruntime has folded its weights)."""
    import onnxruntime as ort

    try:
        session = ort.InferenceSession(
            data, sess_options=session_options(threads), providers=["CPUExecutionProvider"]
        )
    except Exception as exc:  # onnxruntime raises its own non-exported exceptions
        raise EmbeddingModelError(f"onnxruntime cannot load {path}: {exc}") from exc
    # Hand the arena's unused memory back after each batch: RSS stays near 300 MB
    # instead of ~1 GB after a 32x256-token batch, at no measurable speed cost.
    return _runner(session, path, shrink_arena=True)


@dataclass(frozen=True, slots=True)
class Int8Graph:
    """The rewritten graph's runner, the weight kind it multiplies, its probe agreement."""

    run: RunBatch
    weights: str  # "int8" or "uint8"
    agreement: float


def choose_int8_weights() -> str:
    """``uint8`` where this CPU's uint8 x int8 products saturate, else ``int8`` (faster)."""
    from app.services.onnx_cpu import int8_products_saturate

    try:
        return "uint8" if int8_products_saturate() else "int8"
    except Exception as exc:  # onnxruntime's own exceptions are not exported
        logger.warning("int8 kernel check failed (%s); using uint8 weights, exact everywhere", exc)
        return "uint8"


def open_int8(
    path: Path,
    data: bytes,
    *,
    expected: np.ndarray,
    weights: str = "auto",
    min_cosine: float = INT8_MIN_COSINE,
) -> Int8Graph | None:
    """The int8 graph, single-threaded (run one text per call, in parallel), or None.

    ``weights`` ("auto", "int8" or "uint8") picks how the products are computed; "auto"
    asks :func:`choose_int8_weights`. The graph's vectors for PROBE_TEXTS must agree with
    ``expected`` (the original graph's) to ``min_cosine``, so a CPU whose int8 kernels
    misbehave in a way the saturation check does not catch gets the model as it is rather
    than vectors that drift.
    """
    import onnxruntime as ort

    from app.services.onnx_int8 import DISABLED_OPTIMIZERS, Int8RewriteError, rewrite_int8

    if weights not in ("auto", *INT8_WEIGHT_KINDS):
        raise ValueError(f"int8 weights must be auto, int8 or uint8, not {weights!r}")
    if weights == "auto":
        weights = choose_int8_weights()
    try:
        rewritten, summary = rewrite_int8(data, unsigned_weights=weights == "uint8")
        session = ort.InferenceSession(
            rewritten,
            # Small single-text activations: plain malloc beats the arena, and frees.
            sess_options=session_options(1, arena=False),
            providers=["CPUExecutionProvider"],
            disabled_optimizers=list(DISABLED_OPTIMIZERS),
        )
        run = _runner(session, path, shrink_arena=False)
        worst = _agreement(run, expected)  # also the graph's first run
    except (Int8RewriteError, EmbeddingModelError) as exc:
        logger.warning("%s: no int8 rewrite (%s); running the model as it is", path, exc)
        return None
    except Exception as exc:  # onnxruntime's own exceptions are not exported
        logger.warning("%s: the int8 graph failed (%s); running the model as it is", path, exc)
        return None
    if worst < min_cosine:
        logger.warning(
            "%s: the int8 graph's vectors (%s weights) differ from the model's "
            "(cosine %.3f < %.2f); running the model as it is",
            path, weights, worst, min_cosine,
        )  # fmt: skip
        return None
    details = ", ".join(f"{k} {v}" for k, v in summary.items())
    logger.info(
        "%s: running int8 with %s weights (probe cosine %.4f; %s)", path, weights, worst, details
    )
    return Int8Graph(run, weights, worst)


@functools.cache
def _probe_ids() -> tuple[tuple[int, ...], ...]:
    """PROBE_TEXTS tokenised once: a custom model needs them twice at load."""
    return tuple(tuple(e.ids) for e in load_minilm_tokenizer().encode_batch(list(PROBE_TEXTS)))


def probe_vectors(plain: RunBatch) -> np.ndarray:
    """The original graph's vectors for PROBE_TEXTS."""
    ids = _probe_ids()
    return embed_token_ids(ids, plain, batch_size=len(ids), dimension=MINILM_DIMENSION)


def pinned_probe_vectors() -> np.ndarray:
    """:func:`probe_vectors` of the pinned model, shipped with the tokenizer (no second load)."""
    asset = resources.files("app.services").joinpath("assets", "minilm", "probe_vectors.json")
    stored = json.loads(asset.read_text(encoding="utf-8"))
    if stored["texts"] != list(PROBE_TEXTS):
        raise EmbeddingModelError("probe_vectors.json does not match PROBE_TEXTS")
    return np.asarray(stored["vectors"], dtype=np.float32)


def _agreement(run_int8: RunBatch, expected: np.ndarray) -> float:
    """The lowest cosine between the int8 graph's vectors for PROBE_TEXTS and ``expected``."""
    ours = embed_each(_probe_ids(), run_int8, dimension=MINILM_DIMENSION)
    return float(np.min(np.sum(ours * expected, axis=1)))


def _runner(session: Any, path: Path, *, shrink_arena: bool) -> RunBatch:
    """``run_batch`` for a loaded session, after checking it is a BERT encoder."""
    import onnxruntime as ort

    # onnxruntime's Python wrapper keeps the model bytes (12-23 MB) only to rebuild the
    # session in set_providers(), which we never call.
    if getattr(session, "_model_bytes", None) is not None:
        session._model_bytes = None
    inputs = {i.name: i.type for i in session.get_inputs()}
    known = {"input_ids", "attention_mask", "token_type_ids"}
    if not {"input_ids", "attention_mask"} <= inputs.keys() <= known or not all(
        t in _ORT_INT_TYPES for t in inputs.values()
    ):
        raise EmbeddingModelError(f"{path} is not a BERT encoder: inputs {inputs}")
    outputs = {o.name: o.shape for o in session.get_outputs()}
    output = "last_hidden_state" if "last_hidden_state" in outputs else next(iter(outputs))
    width = outputs[output][-1]
    if isinstance(width, int) and width != MINILM_DIMENSION:
        raise EmbeddingModelError(f"{path} outputs {outputs[output]}, not dim {MINILM_DIMENSION}")
    run_options = ort.RunOptions()
    if shrink_arena:
        run_options.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")

    def run_batch(ids: np.ndarray, mask: np.ndarray, type_ids: np.ndarray) -> np.ndarray:
        given = {"input_ids": ids, "attention_mask": mask, "token_type_ids": type_ids}
        feed = {n: given[n].astype(_ORT_INT_TYPES[t], copy=False) for n, t in inputs.items()}
        return np.asarray(session.run([output], feed, run_options)[0])

    return run_batch
