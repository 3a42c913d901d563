"""The int8 model on a CPU without VNNI, emulated: MLAS's AVX2 kernels for real.

This machine may well have VNNI, where onnxruntime's uint8 x int8 products are exact;
AVX2-only CPUs (older EPYC and Xeon) saturate them. ``qemu-x86_64 -cpu Haswell-v4``
(Debian's qemu-user, installed by scripts/test.sh) runs the same Python and onnxruntime
on an emulated AVX2 + FMA CPU with neither AVX-512 nor VNNI, so onnxruntime picks its
AVX2 kernels there whatever the host is. The vectors it writes must meet the host's:
one model, one vector space.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from app.services.embeddings import OnnxMiniLMEmbedder
from tests.support.minilm_reference import VARIED, reference_vectors_for

REPO_ROOT = Path(__file__).resolve().parents[2]
EMULATED_CPU = "Haswell-v4"  # AVX2 + FMA, no AVX-512, no VNNI
QEMU = shutil.which("qemu-x86_64")
SHORT = [text for text in VARIED if len(text) < 40]


@pytest.fixture(scope="module")
def emulated() -> dict:  # type: ignore[type-arg]
    if platform.machine() != "x86_64":
        pytest.skip(f"emulating an x86-64 AVX2 CPU needs an x86-64 host, not {platform.machine()}")
    if QEMU is None:
        message = "qemu-x86_64 (Debian's qemu-user) is needed to emulate a CPU without VNNI"
        if os.environ.get("CI"):
            pytest.fail(message + "; scripts/test.sh installs it")
        pytest.skip(message)
    # The float32 fallback is slow under emulation: it embeds only the short texts.
    runs = [{"weights": "auto", "texts": VARIED}, {"weights": "int8", "texts": SHORT}]
    request = json.dumps({"runs": runs})
    child = subprocess.run(
        [QEMU, "-cpu", EMULATED_CPU, sys.executable, "-m", "tests.support.embed_on_this_cpu"],
        input=request,
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert child.returncode == 0, child.stderr[-3000:]
    result: dict = json.loads(child.stdout)  # type: ignore[type-arg]
    result["log"] = child.stderr
    return result


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def test_the_emulated_cpu_saturates_uint8_x_int8_products(emulated: dict) -> None:  # type: ignore[type-arg]
    # The premise: this is the kind of CPU the int8 weights would drift on.
    assert emulated["int8_products_saturate"] is True


def test_without_vnni_the_int8_graph_runs_with_uint8_weights_and_agrees(
    emulated: dict,  # type: ignore[type-arg]
) -> None:
    auto = emulated["runs"]["auto"]
    assert auto["compute_path"] == "uint8"
    assert "running int8 with uint8 weights" in emulated["log"]
    vectors = np.asarray(auto["vectors"], dtype=np.float32)
    reference = reference_vectors_for(VARIED)
    assert _cosines(vectors, reference).min() >= 0.99
    # A vector written on this host is found by a query embedded on the other CPU.
    here = OnnxMiniLMEmbedder().load().embed_array(VARIED)
    assert _cosines(vectors, here).min() >= 0.99
    assert np.array_equal(np.argmax(vectors @ here.T, axis=1), np.arange(len(VARIED)))


def test_without_vnni_int8_weights_fail_the_probe_and_fall_back(emulated: dict) -> None:  # type: ignore[type-arg]
    forced = emulated["runs"]["int8"]
    assert forced["compute_path"] == "float32"
    assert "(int8 weights) differ from the model's" in emulated["log"]
    vectors = np.asarray(forced["vectors"], dtype=np.float32)
    assert _cosines(vectors, reference_vectors_for(SHORT)).min() >= 0.99
