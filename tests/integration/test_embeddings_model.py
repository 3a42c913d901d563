"""The real all-MiniLM-L6-v2 int8 ONNX model: maths, semantics, threads, Chroma, int8 graph."""

from __future__ import annotations

import logging
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import chromadb
import numpy as np
import pytest
from chromadb.api import ClientAPI
from chromadb.config import Settings

from app.services import onnx_int8
from app.services.embedding_function import chroma_embedding_function
from app.services.embeddings import (
    DEFAULT_MODEL_SHA256,
    OnnxMiniLMEmbedder,
    default_model_path,
    file_sha256,
    load_minilm_tokenizer,
)
from app.services.onnx_cpu import int8_products_saturate
from app.services.onnx_session import choose_int8_weights
from tests.support.minilm_reference import (
    PARKING_POLICY,
    PARKING_QUERY,
    PROSE,
    UNRELATED,
    VARIED,
    reference_vectors_for,
)

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def embedder() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder().load()


def cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_installed_model_matches_the_pinned_hash() -> None:
    assert file_sha256(default_model_path()) == DEFAULT_MODEL_SHA256


def test_vectors_are_unit_length_float32_384(embedder: OnnxMiniLMEmbedder) -> None:
    vectors = embedder.embed_array(["short", PARKING_POLICY, "", "Ünïcödé – ëmojis 🚗"])
    assert vectors.shape == (4, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    as_lists = embedder.embed(["short"])
    assert len(as_lists) == 1 and len(as_lists[0]) == 384
    np.testing.assert_allclose(as_lists[0], vectors[0], atol=1e-6)


def test_padding_and_batching_do_not_change_a_vector(embedder: OnnxMiniLMEmbedder) -> None:
    text = "The lift is out of order until Thursday."
    alone = embedder.embed_array([text])[0]
    batch = ["ok", PROSE * 2, text, "Pizza party on Friday", PARKING_POLICY, "yes"]
    in_batch = embedder.embed_array(batch)
    assert cos(alone, in_batch[2]) > 0.999
    small_batches = OnnxMiniLMEmbedder(batch_size=2).load().embed_array(batch)
    for a, b in zip(in_batch, small_batches, strict=True):
        assert cos(a, b) > 0.999


def test_text_is_truncated_at_256_tokens(embedder: OnnxMiniLMEmbedder) -> None:
    head = PROSE * 6  # well over 256 tokens
    assert len(load_minilm_tokenizer(512).encode(head).ids) > 300
    a, b = embedder.embed_array([head + "Pizza party!", head + "Budget review."])
    assert cos(a, b) > 0.9999  # the differing tails are cut off


def test_parking_policy_is_nearest_to_parking_question(embedder: OnnxMiniLMEmbedder) -> None:
    query, policy, *others = embedder.embed_array([PARKING_QUERY, PARKING_POLICY, *UNRELATED])
    policy_score = float(query @ policy)
    assert all(policy_score > float(query @ other) + 0.1 for other in others)


def test_funding_question_prefers_budget_proposal(embedder: OnnxMiniLMEmbedder) -> None:
    query, budget, pizza = embedder.embed_array(
        [
            "which proposals are about funding?",
            "Budget allocation for the community fund",
            "Pizza party on Friday",
        ]
    )
    assert float(query @ budget) > float(query @ pizza) + 0.1


def test_concurrent_use_from_a_thread_pool(embedder: OnnxMiniLMEmbedder) -> None:
    batches = [[f"{PROSE[: 40 + 30 * i]} #{i}", UNRELATED[i % 3]] for i in range(8)]
    expected = [embedder.embed_array(batch) for batch in batches]
    fresh = OnnxMiniLMEmbedder()  # lazy: several threads race to load it
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(fresh.embed_array, batches))
    for e, g in zip(expected, got, strict=True):
        np.testing.assert_allclose(e, g, atol=1e-4)


DOCS = {
    "parking": PARKING_POLICY,
    "pizza": UNRELATED[0],
    "budget": "Budget allocation for the community fund: 2,000 EUR for the lobby renovation.",
    "garden": UNRELATED[2],
    "lift": "The lift will be inspected on Monday; please use the east stairwell.",
}


@contextmanager
def persistent_client(path: Path) -> Iterator[ClientAPI]:
    """A PersistentClient that is closed (its System stopped) on exit."""
    client = chromadb.PersistentClient(
        path=str(path), settings=Settings(anonymized_telemetry=False)
    )
    try:
        yield client
    finally:
        client.close()  # type: ignore[attr-defined]  # Client has close(); ClientAPI omits it


def test_chroma_round_trip_and_reopen(embedder: OnnxMiniLMEmbedder, tmp_path: Path) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with persistent_client(tmp_path) as client:
            collection = client.create_collection(
                "kb_chunks", embedding_function=chroma_embedding_function(embedder)
            )
            collection.add(ids=list(DOCS), documents=list(DOCS.values()))
            top = collection.query(query_texts=[PARKING_QUERY], n_results=1)
        assert top["ids"] == [["parking"]]

        with persistent_client(tmp_path) as client:
            reopened = client.get_collection("kb_chunks")  # function rebuilt from config
            hits = reopened.query(query_texts=["which proposals are about funding?"], n_results=2)
            assert hits["ids"][0][0] == "budget"
            assert reopened.count() == 5
    assert [str(w.message) for w in caught] == []

    # A new process rebuilds the embedding function from the persisted config alone.
    script = textwrap.dedent(
        f"""
        import warnings; warnings.simplefilter("error")
        import chromadb
        from chromadb.config import Settings
        import app.services.embedding_function  # registers "coordbot" with chromadb
        client = chromadb.PersistentClient(path={str(tmp_path)!r},
                                           settings=Settings(anonymized_telemetry=False))
        col = client.get_collection("kb_chunks")
        print(col.query(query_texts=["where can I leave my car?"], n_results=1)["ids"][0][0])
        """
    )
    child = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "parking"


# --- the int8 graph against the fp32 reference ------------------------------------------


@pytest.fixture(scope="module")
def reference_vectors() -> np.ndarray:
    """The fp32 all-MiniLM-L6-v2's vectors for VARIED."""
    return reference_vectors_for(VARIED)


def test_int8_vectors_agree_with_fp32_reference(
    embedder: OnnxMiniLMEmbedder, reference_vectors: np.ndarray
) -> None:
    # The rewritten graph, not onnxruntime's float32 folding, on any CPU: with the weight
    # kind whose products are exact here.
    assert embedder.int8_active
    assert embedder.compute_path == ("uint8" if int8_products_saturate() else "int8")
    ours = embedder.embed_array(VARIED)
    for text, vector, expected in zip(VARIED, ours, reference_vectors, strict=True):
        assert cos(expected, vector) >= 0.99, text


@pytest.mark.parametrize("weights", ["int8", "uint8"])
def test_each_weight_kind_runs_int8_where_its_products_are_exact(
    weights: str, reference_vectors: np.ndarray, caplog: pytest.LogCaptureFixture
) -> None:
    """uint8 x uint8 is exact on every CPU; uint8 x int8 only with VNNI (or AMX). Where a
    kind saturates on this CPU, its probe vectors disagree and the model runs as it is."""
    caplog.set_level(logging.INFO)
    forced = OnnxMiniLMEmbedder(int8_weights=weights).load()
    exact = weights == "uint8" or not int8_products_saturate()
    if exact:
        assert forced.compute_path == weights
        assert f"running int8 with {weights} weights" in caplog.text
    else:
        assert forced.compute_path == "float32"
        assert "int8 weights) differ from the model's" in caplog.text
    for text, vector, expected in zip(
        VARIED, forced.embed_array(VARIED), reference_vectors, strict=True
    ):
        assert cos(expected, vector) >= 0.99, text


def test_int8_graph_agrees_with_the_model_as_it_is(embedder: OnnxMiniLMEmbedder) -> None:
    plain = OnnxMiniLMEmbedder(int8=False).load()
    assert plain.int8_active is False
    for a, b in zip(embedder.embed_array(VARIED), plain.embed_array(VARIED), strict=True):
        assert cos(a, b) >= 0.99


def test_int8_vector_does_not_depend_on_the_batch(embedder: OnnxMiniLMEmbedder) -> None:
    # Activations are quantised with one scale per input, so texts run one at a time.
    alone = [embedder.embed_array([text])[0] for text in VARIED]
    np.testing.assert_array_equal(embedder.embed_array(VARIED), np.stack(alone))


def _float32_export(tmp_path: Path) -> Path:
    """The model with its int8 weights folded into float32 initialisers, like a plain export."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(default_model_path())
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    for node in [n for n in graph.node if n.op_type == "Mul"]:
        cast = next((n for n in graph.node if n.output[0] == node.input[0]), None)
        if cast is None or cast.op_type != "Cast" or cast.input[0] not in inits:
            continue
        q, scale = (numpy_helper.to_array(inits[n]) for n in (cast.input[0], node.input[1]))
        weight = q.astype(np.float32) * scale
        graph.initializer.append(numpy_helper.from_array(weight, node.output[0]))
        graph.node.remove(node)
        graph.node.remove(cast)
    path = tmp_path / "minilm-fp32.onnx"
    onnx.save(model, path)
    return path


def test_a_model_without_int8_weights_runs_as_it_is(
    embedder: OnnxMiniLMEmbedder, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    fp32 = OnnxMiniLMEmbedder(_float32_export(tmp_path)).load()
    assert fp32.int8_active is False
    assert "no int8 rewrite" in caplog.text and "minilm-fp32.onnx" in caplog.text
    for a, b in zip(fp32.embed_array(VARIED), embedder.embed_array(VARIED), strict=True):
        assert cos(a, b) >= 0.99


def test_a_rewrite_onnxruntime_rejects_falls_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    monkeypatch.setattr(onnx_int8, "rewrite_int8", lambda data, **_: (b"not a model", {}))
    fallback = OnnxMiniLMEmbedder().load()
    assert fallback.int8_active is False
    assert "the int8 graph failed" in caplog.text
    query, policy, *_ = fallback.embed_array([PARKING_QUERY, PARKING_POLICY])
    assert float(query @ policy) > 0.5


def test_a_custom_copy_of_the_model_is_checked_and_runs_int8(
    embedder: OnnxMiniLMEmbedder, tmp_path: Path
) -> None:
    import onnx

    custom = tmp_path / "custom.onnx"  # not the pinned bytes: the rewrite is compared first
    model = onnx.load(default_model_path())
    model.doc_string = "a custom copy"
    onnx.save(model, custom)
    copy = OnnxMiniLMEmbedder(custom).load()
    assert copy.int8_active and copy.compute_path == embedder.compute_path
    np.testing.assert_array_equal(copy.embed_array(VARIED), embedder.embed_array(VARIED))


def test_a_custom_model_whose_rewrite_disagrees_falls_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import onnx
    from onnx import numpy_helper

    custom = tmp_path / "custom.onnx"  # the same graph, not the pinned file: its rewrite is checked
    model = onnx.load(default_model_path())
    model.doc_string = "a custom copy"
    onnx.save(model, custom)
    broken = onnx.load(custom)  # a valid graph with the wrong numbers: the last LayerNorm bias
    bias = next(t for t in broken.graph.initializer if t.name.endswith("5.output.LayerNorm.bias"))
    noise = np.random.default_rng(1).normal(0, 5, size=384).astype(np.float32)
    bias.CopyFrom(numpy_helper.from_array(noise, bias.name))
    monkeypatch.setattr(
        onnx_int8, "rewrite_int8", lambda data, **_: (broken.SerializeToString(), {})
    )
    caplog.set_level(logging.WARNING)

    fallback = OnnxMiniLMEmbedder(custom).load()
    assert fallback.int8_active is False
    assert "differ from the model's" in caplog.text
    expected = OnnxMiniLMEmbedder(int8=False).load().embed_array(VARIED)
    np.testing.assert_allclose(fallback.embed_array(VARIED), expected, atol=1e-5)


def test_the_pinned_model_is_checked_against_its_shipped_probe_vectors(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A CPU whose int8 kernels drift (or a broken rewrite) gets the model as it is."""
    import onnx
    from onnx import numpy_helper

    from app.services.onnx_session import PROBE_TEXTS, pinned_probe_vectors

    shipped = pinned_probe_vectors()  # what the original graph says for the probe texts
    as_is = OnnxMiniLMEmbedder(int8=False).load().embed_array(list(PROBE_TEXTS))
    np.testing.assert_allclose(shipped, as_is, atol=1e-4)

    broken = onnx.load(default_model_path())
    bias = next(t for t in broken.graph.initializer if t.name.endswith("5.output.LayerNorm.bias"))
    noise = np.random.default_rng(2).normal(0, 5, size=384).astype(np.float32)
    bias.CopyFrom(numpy_helper.from_array(noise, bias.name))
    monkeypatch.setattr(
        onnx_int8, "rewrite_int8", lambda data, **_: (broken.SerializeToString(), {})
    )
    caplog.set_level(logging.WARNING)
    fallback = OnnxMiniLMEmbedder().load()
    assert fallback.int8_active is False
    assert "differ from the model's" in caplog.text
    np.testing.assert_allclose(fallback.embed_array(list(PROBE_TEXTS)), as_is, atol=1e-5)


@pytest.mark.parametrize(
    ("setting", "expected"),
    [("uint8", "uint8"), ("off", "float32"), ("auto", None)],
)
def test_embedding_int8_setting_picks_the_path(
    setting: str, expected: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.config import Settings
    from app.container import default_embedder

    monkeypatch.setenv("EMBEDDING_INT8", setting)
    embedder = default_embedder(Settings(_env_file=None))  # type: ignore[call-arg]
    assert isinstance(embedder, OnnxMiniLMEmbedder)
    assert embedder.load().compute_path == (expected or choose_int8_weights())
    assert embedder is default_embedder(Settings(_env_file=None))  # type: ignore[call-arg]
