"""What this CPU's int8 matrix kernels do, asked of onnxruntime itself.

onnxruntime multiplies uint8 activations by int8 weights with whatever its MLAS library
picked for the CPU at start. With VNNI (AVX512-VNNI, AVX-VNNI) or AMX the products are
summed in 32 bits and exact. Without it (AVX2-only CPUs such as older EPYC and Xeon, or
AVX-512 without VNNI) the kernel multiplies pairs with ``vpmaddubsw``, which saturates each
pair's sum at the int16 limits: a pair of products of up to 255 * 127 loses everything
beyond 32767, and vectors drift (cosine 0.94 to 0.98 to the reference on this model).
MLAS's uint8 x uint8 kernel widens to 16 bits first and is exact on every CPU.

Rather than guess from CPU flags (a hypervisor can hide or fake them, and MLAS's choice
is what counts), :func:`int8_products_saturate` runs one tiny ``DynamicQuantizeMatMul``
whose exact answer needs more than 16 bits per pair and looks at the result.
:func:`cpu_flags` reads the flags only to report them.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

#: The CPU flags that decide onnxruntime's int8 kernels, as /proc/cpuinfo names them.
REPORTED_FLAGS = ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8")

_DEPTH, _COLUMNS, _ROWS = 64, 16, 4


@functools.cache
def int8_products_saturate() -> bool:
    """Whether onnxruntime's uint8 x int8 matrix products saturate on this CPU.

    Every activation quantises to 255 (one zero sets the scale) and every weight is -128,
    so each pair of products sums to -65280: beyond int16. Exact kernels return
    -128 per element times the depth; saturating ones about half of that.
    """
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    weights = numpy_helper.from_array(np.full((_DEPTH, _COLUMNS), -128, np.int8), "b")
    scale = numpy_helper.from_array(np.array(1.0, np.float32), "b_scale")
    node = helper.make_node(
        "DynamicQuantizeMatMul", ["a", "b", "b_scale"], ["y"], domain="com.microsoft"
    )
    graph = helper.make_graph(
        [node],
        "saturation_check",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [_ROWS, _DEPTH])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [_ROWS, _COLUMNS])],
        [weights, scale],
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]
    model = helper.make_model(graph, opset_imports=opsets)
    options = ort.SessionOptions()
    options.log_severity_level = 3
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(
        model.SerializeToString(), sess_options=options, providers=["CPUExecutionProvider"]
    )
    activations = np.ones((_ROWS, _DEPTH), np.float32)
    activations[0, 0] = 0.0
    (product,) = session.run(None, {"a": activations})
    exact = -128.0 * _DEPTH
    return bool(np.abs(product[1:] - exact).max() > 0.5)


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> dict[str, bool | str]:
    """The CPU's model name and which of REPORTED_FLAGS it has (empty off Linux)."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    fields: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if not sep:
            if fields:
                break  # the first processor is enough
            continue
        fields.setdefault(key.strip(), value.strip())
    flags = set(fields.get("flags", "").split())
    return {"model_name": fields.get("model name", ""), **{f: f in flags for f in REPORTED_FLAGS}}
