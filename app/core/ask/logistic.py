"""Logistic regression over standardised features, for /ask's fitted models.

The proposal cut and the sentence scorer are binary (one weight per feature, a sigmoid);
the decision is multinomial (one row of weights per outcome, a softmax). Both are fitted
the same way, by gradient descent on the weighted cross-entropy with an L2 penalty (numpy
only: the data are a few thousand rows), and stored as JSON beside the module that uses
them, with the feature names they were fitted for.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

RATE = 0.5


@dataclass(frozen=True)
class Logistic:
    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # (features,) binary; (outcomes, features) multinomial
    bias: float | np.ndarray  # a float binary; (outcomes,) multinomial

    @property
    def binary(self) -> bool:
        return self.weights.ndim == 1

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        """Binary: each row's probability. Multinomial: one vector's, per outcome."""
        if self.binary:
            if not len(rows):
                return np.zeros(0)
            z = ((rows - self.mean) / self.scale) @ self.weights + self.bias
            return 1.0 / (1.0 + np.exp(-z))
        z = self.weights @ ((rows - self.mean) / self.scale) + self.bias
        e = np.exp(z - z.max())
        return e / e.sum()

    def as_json(self) -> dict[str, object]:
        def rounded(values: np.ndarray) -> list[object]:
            return [rounded(v) if np.ndim(v) else round(float(v), 6) for v in values]

        bias = round(float(self.bias), 6) if self.binary else rounded(np.asarray(self.bias))
        return {
            "features": list(self.features),
            "mean": rounded(self.mean),
            "scale": rounded(self.scale),
            "weights": rounded(self.weights),
            "bias": bias,
        }


def load(path: Path, features: Sequence[str] | None) -> tuple[Logistic, dict[str, Any]]:
    """The model stored at ``path``, and the file's data (for what else it stores).
    ``features``: the names the code computes, checked against the file's; None when the
    file's own names are the features (the reading's words)."""
    data = json.loads(path.read_text())
    features = tuple(data["features"]) if features is None else tuple(features)
    if tuple(data["features"]) != features:
        raise ValueError(f"{path} was fitted for other features: refit it")
    weights = np.array(data["weights"])
    bias = float(data["bias"]) if weights.ndim == 1 else np.array(data["bias"])
    model = Logistic(tuple(features), np.array(data["mean"]), np.array(data["scale"]), weights,
                     bias)  # fmt: skip
    return model, data


def fit(
    features: Sequence[str],
    rows: np.ndarray,
    targets: np.ndarray,
    weights: np.ndarray,
    l2: float = 1.0,
    steps: int = 3000,
) -> Logistic:
    """``targets``: (rows,) of 0/1 for a binary model, (rows, outcomes) one-hot for a
    multinomial one; ``weights``: each row's weight."""
    mean, scale = rows.mean(axis=0), rows.std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = (rows - mean) / scale
    w_rows = np.asarray(weights, dtype=np.float64)[:, None]
    w_rows = w_rows / w_rows.sum()
    y = targets[:, None] if targets.ndim == 1 else targets
    coefs, biases = np.zeros((y.shape[1], z.shape[1])), np.zeros(y.shape[1])
    for _ in range(steps):
        logits = z @ coefs.T + biases
        if targets.ndim == 1:
            p = 1.0 / (1.0 + np.exp(-logits))
        else:
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
        error = (p - y) * w_rows
        coefs -= RATE * (error.T @ z + l2 * coefs / len(rows))
        biases -= RATE * error.sum(axis=0)
    if targets.ndim == 1:
        return Logistic(tuple(features), mean, scale, coefs[0], float(biases[0]))
    return Logistic(tuple(features), mean, scale, coefs, biases)
