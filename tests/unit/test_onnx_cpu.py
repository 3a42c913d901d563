"""Which int8 kernels this CPU has, and the uint8 form of the int8 rewrite."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.services.embeddings import default_model_path
from app.services.onnx_cpu import REPORTED_FLAGS, cpu_flags, int8_products_saturate
from app.services.onnx_session import choose_int8_weights

CPUINFO = """processor\t: 0
vendor_id\t: AuthenticAMD
model name\t: AMD EPYC 7B12
flags\t\t: fpu sse4_2 avx avx2 fma

processor\t: 1
model name\t: AMD EPYC 7B12
flags\t\t: fpu sse4_2 avx avx2 fma avx512_vnni
"""


def test_cpu_flags_reads_the_first_processor(tmp_path: Path) -> None:
    path = tmp_path / "cpuinfo"
    path.write_text(CPUINFO)
    flags = cpu_flags(path)
    assert flags["model_name"] == "AMD EPYC 7B12"
    assert flags["avx2"] is True
    assert flags["avx512_vnni"] is False and flags["avx_vnni"] is False
    assert set(REPORTED_FLAGS) <= flags.keys()


def test_cpu_flags_off_linux_is_empty(tmp_path: Path) -> None:
    assert cpu_flags(tmp_path / "missing") == {}


def test_the_weight_kind_follows_the_saturation_check() -> None:
    # Whatever this CPU is: uint8 exactly where uint8 x int8 products saturate.
    assert isinstance(int8_products_saturate(), bool)
    assert choose_int8_weights() == ("uint8" if int8_products_saturate() else "int8")


def test_a_failing_check_chooses_uint8_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    import app.services.onnx_cpu as onnx_cpu

    def broken() -> bool:
        raise RuntimeError("no contrib ops")

    monkeypatch.setattr(onnx_cpu, "int8_products_saturate", broken)
    assert choose_int8_weights() == "uint8"


@pytest.mark.parametrize("unsigned", [False, True])
def test_uint8_weights_are_the_int8_weights_shifted(unsigned: bool) -> None:
    import onnx
    from onnx import numpy_helper

    from app.services.onnx_int8 import rewrite_int8

    rewritten, summary = rewrite_int8(default_model_path().read_bytes(), unsigned_weights=unsigned)
    graph = onnx.load_from_string(rewritten).graph
    inits = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    products = [n for n in graph.node if n.op_type == "DynamicQuantizeMatMul"]
    assert len(products) == summary["int8_matmuls"] == 36
    original = onnx.load(default_model_path()).graph
    int8_weights = {t.name: numpy_helper.to_array(t) for t in original.initializer}
    for node in products:
        weight = inits[node.input[1]]
        if not unsigned:
            assert weight.dtype == np.int8 and node.input[3] == ""
            continue
        assert weight.dtype == np.uint8 and int(inits[node.input[3]]) == 128
        # The same numbers: some int8 weight of the model is exactly weight - 128.
        shifted = weight.astype(np.int16) - 128
        assert any(
            w.shape == shifted.shape and np.array_equal(w, shifted)
            for w in int8_weights.values()
            if w.dtype == np.int8
        )
