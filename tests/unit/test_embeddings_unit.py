"""Embedders without the ONNX model: hashing embedder, pooling maths, batching, assets, Chroma."""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import chromadb
import numpy as np
import pytest
from chromadb.api import ClientAPI
from chromadb.config import Settings
from chromadb.utils.embedding_functions import known_embedding_functions

from app.services import embeddings as emb
from app.services.embedding_function import (
    CHROMA_EF_NAME,
    CoordBotEmbeddingFunction,
    chroma_embedding_function,
)
from app.services.embeddings import (
    DEFAULT_MODEL_SHA256,
    Embedder,
    EmbeddingModelError,
    HashingEmbedder,
    OnnxMiniLMEmbedder,
    embed_each,
    embed_token_ids,
    embedder_from_config,
    l2_normalize,
    load_minilm_tokenizer,
    mean_pool,
)
from app.services.onnx_int8 import Int8RewriteError, rewrite_int8

TOKENIZER_MD5 = "f540215c85aa2a5d5d5ea440093397a8"


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


# --- HashingEmbedder -------------------------------------------------------------------


def test_hashing_embedder_shape_dtype_and_unit_length() -> None:
    vectors = HashingEmbedder().embed_array(["parking at the tower", "", "!!!", "a b c d"])
    assert vectors.shape == (4, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-6)


def test_hashing_embedder_is_deterministic_across_instances() -> None:
    texts = ["Budget allocation for the community fund", "Pizza party on Friday"]
    first = HashingEmbedder().embed_array(texts)
    again = HashingEmbedder().embed_array(list(reversed(texts)))[::-1]
    np.testing.assert_array_equal(first, again)


def test_hashing_embedder_shared_words_are_closer() -> None:
    query, near, far = HashingEmbedder().embed_array(
        ["parking rules tower", "tower parking rules for residents", "pizza party friday"]
    )
    assert float(query @ near) > float(query @ far)
    assert float(query @ near) > 0.5


def test_embed_returns_plain_lists_matching_embed_array() -> None:
    embedder = HashingEmbedder(dimension=16)
    as_lists = embedder.embed(["one", "two"])
    assert isinstance(as_lists, list) and all(isinstance(v, float) for v in as_lists[0])
    np.testing.assert_allclose(np.array(as_lists), embedder.embed_array(["one", "two"]))
    assert embedder.dimension == 16 and embedder.model_name == "hashing-16"


def test_empty_input_gives_empty_matrix_and_str_is_rejected() -> None:
    embedder = HashingEmbedder()
    assert embedder.embed_array([]).shape == (0, 384)
    assert embedder.embed([]) == []
    with pytest.raises(TypeError):
        embedder.embed_array("a single string")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        OnnxMiniLMEmbedder().embed("a single string")  # type: ignore[arg-type]


def test_concrete_embedders_satisfy_the_protocol() -> None:
    assert isinstance(HashingEmbedder(), Embedder)
    assert isinstance(OnnxMiniLMEmbedder(), Embedder)
    assert OnnxMiniLMEmbedder.dimension == 384
    assert OnnxMiniLMEmbedder().model_name == "all-MiniLM-L6-v2-int8"


# --- pooling and normalisation ---------------------------------------------------------


def test_mean_pool_ignores_masked_positions() -> None:
    hidden = np.array(
        [
            [[1.0, 2.0], [3.0, 4.0], [1000.0, -1000.0]],  # last position is padding
            [[2.0, 0.0], [0.0, 2.0], [4.0, 4.0]],
        ],
        dtype=np.float32,
    )
    mask = np.array([[1, 1, 0], [1, 1, 1]])
    np.testing.assert_allclose(mean_pool(hidden, mask), [[2.0, 3.0], [2.0, 2.0]])


def test_mean_pool_of_fully_masked_row_is_zero_not_nan() -> None:
    pooled = mean_pool(np.ones((1, 2, 3), dtype=np.float32), np.zeros((1, 2)))
    assert np.isfinite(pooled).all() and not pooled.any()


def test_l2_normalize_rows_and_keeps_zero_rows() -> None:
    out = l2_normalize(np.array([[3.0, 4.0], [0.0, 0.0], [-2.0, 0.0]]))
    np.testing.assert_allclose(out, [[0.6, 0.8], [0.0, 0.0], [-1.0, 0.0]], rtol=1e-6)
    assert out.dtype == np.float32


# --- batching: length sorting, padding and order restoration ---------------------------


class FakeEncoder:
    """Stands in for the ONNX session: hidden state = a fixed table row per token id.

    Padded positions get huge garbage values, so any leak through the mask shows.
    """

    def __init__(self, dim: int = 8) -> None:
        self.table = np.random.default_rng(7).normal(size=(100, dim)).astype(np.float32)
        self.batch_shapes: list[tuple[int, int]] = []

    def __call__(self, ids: np.ndarray, mask: np.ndarray, type_ids: np.ndarray) -> np.ndarray:
        assert ids.dtype == mask.dtype == type_ids.dtype == np.int64
        assert not type_ids.any()
        self.batch_shapes.append(ids.shape)
        hidden = self.table[ids].copy()
        hidden[mask == 0] = 1e6
        return hidden

    def expected(self, ids: list[int]) -> np.ndarray:
        mean = self.table[ids].mean(axis=0)
        return mean / np.linalg.norm(mean)


def test_batches_restore_input_order_and_pad_per_batch() -> None:
    rng = np.random.default_rng(3)
    lengths = [3, 9, 1, 5, 9, 2, 7, 4, 6]
    token_ids = [list(rng.integers(1, 100, size=n)) for n in lengths]
    fake = FakeEncoder()

    out = embed_token_ids(token_ids, fake, batch_size=2, dimension=8)

    for row, ids in zip(out, token_ids, strict=True):
        np.testing.assert_allclose(row, fake.expected(ids), rtol=1e-5, atol=1e-6)
    # longest first, each batch padded only to its own longest member
    assert fake.batch_shapes == [(2, 9), (2, 7), (2, 5), (2, 3), (1, 1)]


def test_token_budget_shrinks_batches_of_long_texts() -> None:
    rng = np.random.default_rng(5)
    lengths = [3, 9, 1, 5, 9, 2, 7, 4, 6]
    token_ids = [list(rng.integers(1, 100, size=n)) for n in lengths]
    fake = FakeEncoder()

    out = embed_token_ids(token_ids, fake, batch_size=4, dimension=8, max_batch_tokens=12)

    for row, ids in zip(out, token_ids, strict=True):
        np.testing.assert_allclose(row, fake.expected(ids), rtol=1e-5, atol=1e-6)
    assert fake.batch_shapes == [(1, 9), (1, 9), (1, 7), (2, 6), (3, 4), (1, 1)]
    assert all(rows * width <= 12 for rows, width in fake.batch_shapes)


def test_a_text_longer_than_the_token_budget_still_gets_a_batch() -> None:
    fake = FakeEncoder()
    out = embed_token_ids([[1] * 50, [2, 3]], fake, batch_size=8, dimension=8, max_batch_tokens=10)
    assert fake.batch_shapes == [(1, 50), (1, 2)]
    np.testing.assert_allclose(out[1], fake.expected([2, 3]), rtol=1e-5)


def test_same_tokens_give_same_vector_whatever_the_batch() -> None:
    fake = FakeEncoder()
    alone = embed_token_ids([[5, 6, 7]], fake, batch_size=32, dimension=8)[0]
    mixed = embed_token_ids([[1] * 20, [5, 6, 7], [2]], fake, batch_size=32, dimension=8)[1]
    np.testing.assert_allclose(alone, mixed, rtol=1e-6)


def test_embed_each_runs_one_text_per_call_and_keeps_order() -> None:
    rng = np.random.default_rng(11)
    token_ids = [list(rng.integers(1, 100, size=n)) for n in (3, 9, 1, 5, 9, 2, 7)]
    fake = FakeEncoder()
    with ThreadPoolExecutor(2) as pool:
        out = embed_each(token_ids, fake, dimension=8, threads=3, pool=pool)
    for row, ids in zip(out, token_ids, strict=True):
        np.testing.assert_allclose(row, fake.expected(ids), rtol=1e-5, atol=1e-6)
    assert sorted(fake.batch_shapes) == sorted((1, len(ids)) for ids in token_ids)
    assert embed_each([], fake, dimension=8).shape == (0, 8)


# --- bundled tokenizer -----------------------------------------------------------------


def test_tokenizer_asset_is_the_pinned_file_with_licence() -> None:
    folder = resources.files("app.services").joinpath("assets", "minilm")
    data = folder.joinpath("tokenizer.json").read_bytes()
    assert hashlib.md5(data).hexdigest() == TOKENIZER_MD5
    notice = folder.joinpath("NOTICE").read_text(encoding="utf-8")
    assert "sentence-transformers/all-MiniLM-L6-v2" in notice and "Apache" in notice
    assert "Apache License" in folder.joinpath("LICENSE").read_text(encoding="utf-8")


def test_tokenizer_truncates_at_256_and_does_not_pad() -> None:
    tokenizer = load_minilm_tokenizer()
    short, long = tokenizer.encode_batch(["Hello world", "word " * 1000])
    assert short.ids == [101, 7592, 2088, 102]  # [CLS] hello world [SEP], no padding
    assert len(long.ids) == 256 and long.ids[0] == 101 and long.ids[-1] == 102


# --- model file checks (no real model loaded) ------------------------------------------


def test_constructing_is_lazy() -> None:
    embedder = OnnxMiniLMEmbedder(Path("/nonexistent/model.onnx"))
    assert not embedder.is_loaded


def test_missing_model_file_is_a_clear_error() -> None:
    with pytest.raises(EmbeddingModelError, match="not found"):
        OnnxMiniLMEmbedder("/nonexistent/model.onnx").load()


def test_override_path_with_wrong_expected_hash_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not a model")
    with pytest.raises(EmbeddingModelError, match="sha256"):
        OnnxMiniLMEmbedder(fake, expected_sha256="0" * 64).load()


def test_override_path_without_hash_is_not_checked_but_must_be_onnx(tmp_path: Path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not a model")
    with pytest.raises(EmbeddingModelError, match="onnxruntime cannot load"):
        OnnxMiniLMEmbedder(fake).load()


def test_default_model_with_altered_bytes_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tampered = tmp_path / "model.onnx"
    tampered.write_bytes(b"tampered")
    monkeypatch.setattr(emb, "default_model_path", lambda: tampered)
    with pytest.raises(EmbeddingModelError, match=DEFAULT_MODEL_SHA256):
        OnnxMiniLMEmbedder().load()


def test_invalid_settings_are_rejected() -> None:
    bad: list[dict[str, int]] = [
        {"intra_op_threads": 0},
        {"batch_size": 0},
        {"max_batch_tokens": 0},
        {"max_tokens": 1000},
    ]
    for kwargs in bad:
        with pytest.raises(ValueError):
            OnnxMiniLMEmbedder(**kwargs)  # type: ignore[arg-type]


def test_embedder_config_round_trips() -> None:
    onnx = OnnxMiniLMEmbedder("/x/model.onnx", expected_sha256="AB" * 32, batch_size=8)
    assert embedder_from_config(onnx.to_config()).to_config() == onnx.to_config()
    plain = OnnxMiniLMEmbedder(int8=False)
    assert embedder_from_config(plain.to_config()).int8 is False
    hashing = HashingEmbedder(dimension=32)
    assert embedder_from_config(hashing.to_config()).to_config() == hashing.to_config()
    with pytest.raises(ValueError):
        embedder_from_config({"kind": "nope"})


# --- the int8 graph rewrite (no model) ------------------------------------------------


def _tiny_model(weight: np.ndarray) -> bytes:
    """input_ids -> Gather(table) -> MatMul(weight): no int8 weights, no encoder."""
    from onnx import TensorProto, helper, numpy_helper

    table = np.ones((10, weight.shape[0]), dtype=np.float32)
    graph = helper.make_graph(
        [
            helper.make_node("Gather", ["table", "input_ids"], ["x"]),
            helper.make_node("MatMul", ["x", "w"], ["last_hidden_state"]),
        ],
        "tiny",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["b", "s"])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["b", "s", 4])],
        [numpy_helper.from_array(table, "table"), numpy_helper.from_array(weight, "w")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def test_rewrite_refuses_what_is_not_the_int8_encoder() -> None:
    with pytest.raises(Int8RewriteError, match="not an ONNX model"):
        rewrite_int8(b"not a model")
    with pytest.raises(Int8RewriteError, match="no MatMul reads an int8 weight"):
        rewrite_int8(_tiny_model(np.ones((4, 4), dtype=np.float32)))


# --- Chroma embedding function ---------------------------------------------------------


def test_chroma_function_contract() -> None:
    embedder = HashingEmbedder()
    ef = CoordBotEmbeddingFunction(embedder)
    vectors = ef(["one text", "another text"])
    assert len(vectors) == 2 and all(v.shape == (384,) for v in vectors)
    np.testing.assert_allclose(ef.embed_query(["one text"])[0], vectors[0])
    assert CoordBotEmbeddingFunction.name() == CHROMA_EF_NAME
    assert known_embedding_functions[CHROMA_EF_NAME] is CoordBotEmbeddingFunction
    assert ef.default_space() == "cosine" and "cosine" in ef.supported_spaces()
    assert ef.is_legacy() is False
    rebuilt = CoordBotEmbeddingFunction.build_from_config(ef.get_config())
    assert rebuilt.embedder is embedder  # no second model per rebuild
    with pytest.raises(ValueError, match="model_name"):
        ef.validate_config_update(ef.get_config(), {**ef.get_config(), "model_name": "other"})


def test_chroma_persistent_round_trip_without_warnings(tmp_path: Path) -> None:
    docs = ["tower parking permits", "pizza party friday", "budget review meeting"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with persistent_client(tmp_path) as client:
            collection = client.create_collection(
                "unit_docs", embedding_function=chroma_embedding_function(HashingEmbedder())
            )
            collection.add(ids=["p", "z", "b"], documents=docs)
            assert collection.configuration_json["hnsw"]["space"] == "cosine"

        with persistent_client(tmp_path) as reopened:
            again = reopened.get_collection("unit_docs")  # rebuilt from the persisted config
            result = again.query(query_texts=["pizza friday"], n_results=1)
    assert result["ids"] == [["z"]]
    assert [str(w.message) for w in caught] == []
