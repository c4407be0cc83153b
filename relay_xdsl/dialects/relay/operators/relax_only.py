"""Relax-only operators.

TVM Relax (Relay's successor) has operators that Relay lacks, or whose
semantics differ from the Relay operator of the same name. The Relax
importer maps a Relax operator onto a Relay operator only when the two agree
exactly; the operators here cover the Relax ones that have no exact Relay
counterpart. Their names are ``relax.<relax name>`` (ops
``relay.relax.<relax name>``), their schemas are the fields of the Relax
attrs struct with Relax's defaults, and their relations follow Relax's
struct-info inference. They are not Relay operators: the Relay text
importer does not know them.
"""

from __future__ import annotations

from relay_xdsl.dialects.relay import backward, inference
from relay_xdsl.dialects.relay.attributes import (
    OpPattern,
    anything,
    boolean,
    dtype,
    floating,
    integer,
    ints,
    string,
)
from relay_xdsl.dialects.relay.operators.elementwise import unary
from relay_xdsl.dialects.relay.registry import Operator, no_lowering
from relay_xdsl.dialects.relay.relax_mapping import TENSOR, Arg, ArgRole, Field, Kind, RelaxOp

# fmt: off
RELAX_ONLY: tuple[Operator, ...] = (
    Operator("relax.matmul",
        "Relax `matmul`: matrix product with numpy `matmul` semantics. A 1-D lhs is a row vector "
        "and a 1-D rhs a column vector, the promoted axis being dropped from the result; operands "
        'of rank > 2 are stacks of matrices whose batch dimensions broadcast; `out_dtype` ("" '
        "means the operands' dtype) is the result's dtype. Relay's nn.matmul, nn.dense and "
        "nn.batch_matmul each cover only a special case.",
        attrs=(dtype("out_dtype", ""),),  # Relax's MatmulAttrs
        operands=("x1", "x2"),
        arity=2, pattern=OpPattern.OUT_ELEMWISE_FUSABLE, infer=inference.relax_matmul,
        relax=RelaxOp(
            "relax.matmul", "relax.attrs.MatmulAttrs", (Field("out_dtype", Kind.DTYPE),)
        )),
    Operator("relax.strided_slice",
        "Relax `strided_slice`: slices the listed `axes` only, keeping the others whole; `axes`, "
        "`begin`, `end` and `strides` have one entry per listed axis, and absent `strides` means "
        "stride 1. Without `assume_inbound`, out-of-range indices are clamped to the axis. Relax "
        "passes the four lists as tuple arguments; static integer tuples are stored here as "
        "attributes, keeping their integer width.",
        # Relax's static tuple arguments and its StridedSliceAttrs
        attrs=(
            ints("axes", required=True), ints("begin", required=True), ints("end", required=True),
            ints("strides"), boolean("assume_inbound", False)
        ),
        operands=("x",),
        pattern=OpPattern.INJECTIVE, infer=inference.relax_strided_slice,
        relax=RelaxOp(
            "relax.strided_slice",
            "relax.attrs.StridedSliceAttrs",
            (Field("assume_inbound", Kind.BOOL),),
            args=(
                TENSOR,
                Arg(ArgRole.PRIM_TUPLE, "axes"),
                Arg(ArgRole.PRIM_TUPLE, "begin"),
                Arg(ArgRole.PRIM_TUPLE, "end"),
                Arg(ArgRole.PRIM_TUPLE, "strides", optional=True),
            ),
        )),
    # Relax names the argument of its unary operators x.
    unary("relax.nn.gelu", "Relax `nn.gelu`: x * Phi(x), with Phi the exact standard normal CDF.",
        RelaxOp("relax.nn.gelu"), operands=("x",)),
    unary("relax.nn.gelu_tanh",
        "Relax `nn.gelu_tanh`: GELU with the tanh approximation 0.5 * x * (1 + tanh(sqrt(2 / pi) * "
        "(x + 0.044715 * x^3))).",
        RelaxOp("relax.nn.gelu_tanh"), operands=("x",)),
    unary("relax.nn.silu", "Relax `nn.silu`: x * sigmoid(x).", RelaxOp("relax.nn.silu"),
        operands=("x",)),
    Operator("relax.nn.batch_norm",
        "Relax `nn.batch_norm` with the fields Relay's lacks: inputs (data, gamma, beta, "
        "moving_mean, moving_var), a 3-tuple result. Without `training`, Relay's nn.batch_norm "
        "(the moving statistics normalise, and are returned unchanged; `momentum` is unused). "
        "With it, the batch's mean and (biased) variance over every axis but `axis` normalise, "
        "and the moving statistics are returned updated: (1 - momentum) * moving + momentum * "
        "batch. Relax calls with momentum 0.1 and without training import as nn.batch_norm.",
        attrs=(
            integer("axis", required=True), floating("epsilon", 1e-05), boolean("center", True),
            boolean("scale", True), floating("momentum", 0.1), boolean("training", True)
        ),  # Relax's BatchNormAttrs
        operands=("data", "gamma", "beta", "moving_mean", "moving_var"),
        arity=5, returns_tuple=True, pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
        infer=inference.batch_norm, backward=backward.batch_norm,
        relax=RelaxOp(
            "relax.nn.batch_norm",
            "relax.attrs.BatchNormAttrs",
            (Field("axis", Kind.INT), Field("epsilon", Kind.FLOAT), Field("center", Kind.BOOL),
             Field("scale", Kind.BOOL), Field("momentum", Kind.FLOAT),
             Field("training", Kind.BOOL)),
        )),
    Operator("relax.nn.pad",
        "Relax `nn.pad`: pads each axis by its (before, after) pair of the flat `pad_width`, "
        "with the constant `pad_value` (mode constant), the mirrored interior (reflect) or the "
        "nearest edge (edge, replicate).",
        attrs=(
            ints("pad_width", required=True), floating("pad_value", 0.0),
            string("pad_mode", "constant")
        ),  # Relax's PadAttrs
        pattern=OpPattern.INJECTIVE, infer=inference.relax_pad,
        relax=RelaxOp(
            "relax.nn.pad", "relax.attrs.PadAttrs",
            (Field("pad_width", Kind.INTS), Field("pad_value", Kind.FLOAT),
             Field("pad_mode", Kind.STR)),
        )),
    Operator("relax.arange",
        "Relax `arange`: `start`, `start + step`, ... below `end` (above it for a negative "
        "step), in `dtype`. Relax passes the three numbers as scalar arguments; constant ones "
        "are stored here as attributes of their type.",
        # Relax's scalar arguments and its InitAttrs
        attrs=(
            anything("start", required=True), anything("end", required=True),
            anything("step", required=True), dtype("dtype", "")
        ),
        arity=0, pattern=OpPattern.INJECTIVE, infer=inference.relax_arange,
        relax=RelaxOp(
            "relax.arange", "relax.attrs.InitAttrs", (Field("dtype", Kind.DTYPE),),
            args=(Arg(ArgRole.PRIM, "start"), Arg(ArgRole.PRIM, "end"),
                  Arg(ArgRole.PRIM, "step")),
        ),
        lowering=no_lowering("it takes no tensor, so lowering computes it with its kernel")),
    Operator("relax.slice_scatter",
        "Relax `slice_scatter`: the data with the slice `start:end:step` of `axis` replaced "
        "by `src`. Relax passes the bounds as scalar arguments; constant ones are stored here "
        "as attributes.",
        # Relax's scalar arguments and its SliceScatterAttrs
        attrs=(
            anything("start", required=True), anything("end", required=True),
            anything("step", required=True), integer("axis", 0)
        ),
        arity=2, pattern=OpPattern.INJECTIVE, infer=inference.same_type,
        relax=RelaxOp(
            "relax.slice_scatter", "relax.attrs.SliceScatterAttrs", (Field("axis", Kind.INT),),
            args=(TENSOR, TENSOR, Arg(ArgRole.PRIM, "start"), Arg(ArgRole.PRIM, "end"),
                  Arg(ArgRole.PRIM, "step")),
        )),
)
# fmt: on
