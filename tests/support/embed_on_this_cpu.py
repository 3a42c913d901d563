"""Embed texts with the bundled model on whatever CPU this process sees, and say how.

Run as ``python -m tests.support.embed_on_this_cpu`` (under ``qemu-x86_64 -cpu MODEL`` to
see another CPU). Reads ``{"runs": [{"weights": "auto" | "int8" | "uint8", "texts": [...]}]}``
on stdin; prints ``{"int8_products_saturate": bool, "runs": {weights: {"compute_path": str,
"vectors": [[...], ...]}}}`` on stdout. Logs go to stderr.
"""

from __future__ import annotations

import json
import logging
import sys


def main() -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    from app.services.embeddings import OnnxMiniLMEmbedder
    from app.services.onnx_cpu import int8_products_saturate

    request = json.load(sys.stdin)
    runs = {}
    for run in request["runs"]:
        weights = run["weights"]
        embedder = OnnxMiniLMEmbedder(intra_op_threads=1, int8_weights=weights).load()
        vectors = embedder.embed_array(run["texts"])
        runs[weights] = {"compute_path": embedder.compute_path, "vectors": vectors.tolist()}
    json.dump({"int8_products_saturate": int8_products_saturate(), "runs": runs}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
