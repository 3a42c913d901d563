"""Read-only pattern matching over an ONNX graph, for :mod:`app.services.onnx_int8`.

:class:`GraphIndex` knows who produces and who consumes every tensor and finds the shapes
the int8 rewrite cares about: int8 weights (``Mul(Cast(int8 initialiser), scale)``),
``MatMul`` on them with the bias ``Add`` that follows, the erf GELU, value projections
(the V of softmax(QK) @ V) and the NaN guards torch puts after ``Softmax``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import onnx

_MIN_OPSET = 13  # Squeeze/Unsqueeze/ReduceSum take their axes as inputs


class Int8RewriteError(ValueError):
    """The graph is not laid out like the bundled int8 MiniLM; keep the original."""


@dataclass(frozen=True, slots=True)
class Int8Weight:
    q: str  # the int8 initialiser
    scale: np.ndarray  # float32, as stored: (1, N) per column or (rows, 1) per row
    scale_name: str


@dataclass(slots=True)
class QMatMul:
    """A MatMul whose right side is an int8 weight with per-column scales."""

    node: Any  # onnx.NodeProto
    weight: Int8Weight
    bias: str | None = None  # a (N,) initialiser added right after, folded into the product
    bias_add: Any = None  # the Add node that is folded away
    role: str = "plain"  # "plain", "value", "up" or "down"

    @property
    def output(self) -> str:
        return str(self.bias_add.output[0] if self.bias_add is not None else self.node.output[0])


@dataclass(frozen=True, slots=True)
class Gelu:
    x: str
    final: Any  # the Mul node whose output is GELU(x)


class GraphIndex:
    def __init__(self, model: onnx.ModelProto) -> None:
        from onnx import numpy_helper

        self.model = model
        self.graph = model.graph
        self.to_array = numpy_helper.to_array
        opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
        if opset < _MIN_OPSET:
            raise Int8RewriteError(f"opset {opset} is older than {_MIN_OPSET}")
        self.inits = {t.name: t for t in self.graph.initializer}
        self.producer = {out: n for n in self.graph.node for out in n.output}
        self.consumers: dict[str, list[Any]] = defaultdict(list)
        for node in self.graph.node:
            for name in node.input:
                self.consumers[name].append(node)
        self.graph_outputs = {o.name for o in self.graph.output}
        self.ranks = self._ranks()

    def _ranks(self) -> dict[str, int]:
        infos = [*self.graph.value_info, *self.graph.input, *self.graph.output]
        if not self.graph.value_info:
            from onnx import shape_inference

            infos += shape_inference.infer_shapes(self.model).graph.value_info
        return {
            v.name: len(v.type.tensor_type.shape.dim)
            for v in infos
            if v.type.HasField("tensor_type") and v.type.tensor_type.HasField("shape")
        }

    def const(self, name: str) -> np.ndarray | None:
        init = self.inits.get(name)
        return None if init is None else self.to_array(init)

    def is_scalar(self, name: str, value: float, tol: float = 1e-5) -> bool:
        array = self.const(name)
        return array is not None and array.size == 1 and abs(float(array.item()) - value) <= tol

    def int8_weight(self, name: str) -> Int8Weight | None:
        """``name`` = Mul(Cast(int8 initialiser, to=float), float initialiser) as a weight."""
        from onnx import TensorProto

        mul = self.producer.get(name)
        if mul is None or mul.op_type != "Mul" or len(mul.input) != 2:
            return None
        cast = self.producer.get(mul.input[0])
        scale = self.const(mul.input[1])
        if cast is None or cast.op_type != "Cast" or scale is None or scale.dtype != np.float32:
            return None
        q = self.inits.get(cast.input[0])
        if q is None or q.data_type != TensorProto.INT8 or len(q.dims) != 2:
            return None
        if attribute(cast, "to") != TensorProto.FLOAT:
            return None
        return Int8Weight(q.name, scale, mul.input[1])

    def sole_consumer(self, name: str, op_type: str) -> Any:
        found = self.consumers.get(name, [])
        if len(found) == 1 and found[0].op_type == op_type and name not in self.graph_outputs:
            return found[0]
        return None

    def other_input(self, node: Any, name: str) -> str | None:
        rest = [i for i in node.input if i != name]
        return rest[0] if len(node.input) == 2 and len(rest) == 1 else None

    def find_matmuls(self) -> list[QMatMul]:
        found = []
        for node in self.graph.node:
            if node.op_type != "MatMul" or (weight := self.int8_weight(node.input[1])) is None:
                continue
            columns = self.inits[weight.q].dims[1]
            if weight.scale.shape not in ((1, columns), (columns,)):
                continue
            mm = QMatMul(node, weight)
            add = self.sole_consumer(node.output[0], "Add")
            bias = None if add is None else self.other_input(add, node.output[0])
            bias_value = None if bias is None else self.const(bias)
            if bias_value is not None and bias_value.shape == (columns,):
                mm.bias, mm.bias_add = bias, add
            found.append(mm)
        return found

    def find_gelus(self) -> dict[str, Gelu]:
        """x * (0.5 * (erf(x / sqrt 2) + 1)), operands in any order, keyed by x."""
        found = {}
        for erf in self.graph.node:
            if erf.op_type != "Erf" or (div := self.producer.get(erf.input[0])) is None:
                continue
            if div.op_type != "Div" or not self.is_scalar(div.input[1], math.sqrt(2)):
                continue
            x = div.input[0]
            add = self.sole_consumer(erf.output[0], "Add")
            one = None if add is None else self.other_input(add, erf.output[0])
            if one is None or not self.is_scalar(one, 1.0):
                continue
            half = self.sole_consumer(add.output[0], "Mul")
            point5 = None if half is None else self.other_input(half, add.output[0])
            if point5 is None or not self.is_scalar(point5, 0.5):
                continue
            final = self.sole_consumer(half.output[0], "Mul")
            if final is None or self.other_input(final, half.output[0]) != x:
                continue
            found[x] = Gelu(x, final)
        return found

    def feeds_attention_values(self, name: str) -> bool:
        """``name`` reaches, through Reshape/Transpose, the V side of probabilities @ V."""
        for _ in range(4):
            users = self.consumers.get(name, [])
            if len(users) != 1:
                return False
            node = users[0]
            if node.op_type == "MatMul":
                probs = self.producer.get(node.input[0])
                if probs is not None and probs.op_type == "Where":  # the NaN guard
                    probs = self.producer.get(probs.input[2])
                return node.input[1] == name and probs is not None and probs.op_type == "Softmax"
            if node.op_type not in ("Reshape", "Transpose"):
                return False
            name = node.output[0]
        return False

    def nan_guards(self) -> list[Any]:
        """Where(IsNaN(s), 0, s) after a Softmax s."""
        found = []
        for node in self.graph.node:
            if node.op_type != "Where" or len(node.input) != 3:
                continue
            isnan = self.producer.get(node.input[0])
            softmax = self.producer.get(node.input[2])
            if (
                isnan is not None
                and isnan.op_type == "IsNaN"
                and isnan.input[0] == node.input[2]
                and softmax is not None
                and softmax.op_type == "Softmax"
                and self.is_scalar(node.input[1], 0.0, tol=0.0)
                and node.output[0] not in self.graph_outputs
            ):
                found.append(node)
        return found


def attribute(node: Any, name: str, default: Any = None) -> Any:
    from onnx import helper

    for attr in node.attribute:
        if attr.name == name:
            return helper.get_attribute_value(attr)
    return default
