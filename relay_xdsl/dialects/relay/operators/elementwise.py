"""Elementwise operators of one tensor, clipping and casts, and tensor creation."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import TensorType

from relay_xdsl.dialects.relay import backward, dtypes, inference
from relay_xdsl.dialects.relay.attributes import OpPattern, dtype, floating, ints
from relay_xdsl.dialects.relay.ops import OperatorOp
from relay_xdsl.dialects.relay.registry import NoRelax, Operator, Relation, no_relax
from relay_xdsl.dialects.relay.relax_mapping import TENSOR, Arg, ArgRole, Field, Kind, RelaxOp

_CAST_ATTRS = (dtype("dtype", required=True),)
"""Fields of TVM's ``CastAttrs``."""

INIT_OP_ATTRS = (
    ints("shape", required=True),
    dtype("dtype", ""),
)
"""Fields of TVM's ``InitOpAttrs``."""


def unary(
    name: str,
    summary: str,
    relax: RelaxOp | NoRelax,
    infer: Relation = inference.same_type,
    operands: tuple[str] | None = None,
) -> Operator:
    """One argument (``ELEMWISE``), named `operands` (by default ``data``);
    by default the result has its type, both ways."""
    return Operator(
        name,
        summary,
        operands=operands,
        pattern=OpPattern.ELEMWISE,
        infer=infer,
        backward=backward.same_type if infer is inference.same_type else None,
        relax=relax,
    )


def _relax_init_like(name: str) -> RelaxOp:
    """``relax.<name>``, whose ``InitAttrs`` dtype Relay's ``<name>`` leaves to its argument."""
    return RelaxOp(f"relax.{name}", "relax.attrs.InitAttrs", implied=(("dtype", None),))


def _dtype_of_result(op: OperatorOp, values: dict[str, Any]) -> None:
    # Relay's "" dtype is float32 for zeros and ones; Relax needs it spelled out.
    if values["dtype"] is None:
        result = op.result.type
        assert isinstance(result, TensorType)
        values["dtype"] = dtypes.dtype_name(result.element_type)


def _relax_init(name: str) -> RelaxOp:
    """``relax.<name>`` (``full``, ``zeros``, ``ones``): the shape is Relax's first
    argument, the fill value of ``full`` its second."""
    fill = (TENSOR,) if name == "full" else ()
    return RelaxOp(
        f"relax.{name}",
        "relax.attrs.InitAttrs",
        (Field("dtype", Kind.DTYPE),),
        args=(Arg(ArgRole.SHAPE, "shape"), *fill),
        export_hook=None if name == "full" else _dtype_of_result,
    )


def _init(name: str, summary: str) -> Operator:
    """A tensor of `shape` and `dtype` made from no tensor arguments (TVM's ``InitOpAttrs``)."""
    return Operator(
        name,
        summary,
        attrs=INIT_OP_ATTRS,
        arity=0,
        pattern=OpPattern.ELEMWISE,
        infer=inference.init,
        relax=_relax_init(name),
    )


# fmt: off
UNARY: tuple[Operator, ...] = (
    unary("negative", "Elementwise -x.", RelaxOp("relax.negative")),
    unary("exp", "Elementwise e**x.", RelaxOp("relax.exp")),
    unary("fast_exp", "Elementwise approximate e**x.", no_relax("Relax has no fast_exp to import")),
    unary("log", "Elementwise natural logarithm.", RelaxOp("relax.log")),
    unary("log2", "Elementwise base-2 logarithm.", no_relax("Relax has no log2 to import")),
    unary("log10", "Elementwise base-10 logarithm.", no_relax("Relax has no log10 to import")),
    unary("sqrt", "Elementwise square root.", RelaxOp("relax.sqrt")),
    unary("rsqrt", "Elementwise 1/sqrt(x).", RelaxOp("relax.rsqrt")),
    unary("erf", "Elementwise Gauss error function.", RelaxOp("relax.erf")),
    unary("fast_erf", "Elementwise approximate error function.", no_relax("Relax has no fast_erf to import")),
    unary("tanh", "Elementwise hyperbolic tangent.", RelaxOp("relax.tanh")),
    unary("fast_tanh", "Elementwise approximate hyperbolic tangent.",
        no_relax("Relax has no fast_tanh to import")),
    unary("sigmoid", "Elementwise logistic function 1/(1+exp(-x)).", RelaxOp("relax.sigmoid")),
    unary("cos", "Elementwise cosine.", RelaxOp("relax.cos")),
    unary("sin", "Elementwise sine.", RelaxOp("relax.sin")),
    unary("tan", "Elementwise tangent.", RelaxOp("relax.tan")),
    unary("cosh", "Elementwise hyperbolic cosine.", RelaxOp("relax.cosh")),
    unary("sinh", "Elementwise hyperbolic sine.", RelaxOp("relax.sinh")),
    unary("acos", "Elementwise arc cosine.", RelaxOp("relax.acos")),
    unary("acosh", "Elementwise inverse hyperbolic cosine.", RelaxOp("relax.acosh")),
    unary("asin", "Elementwise arc sine.", RelaxOp("relax.asin")),
    unary("asinh", "Elementwise inverse hyperbolic sine.", RelaxOp("relax.asinh")),
    unary("atan", "Elementwise arc tangent.", RelaxOp("relax.atan")),
    unary("atanh", "Elementwise inverse hyperbolic tangent.", RelaxOp("relax.atanh")),
    unary("floor", "Elementwise floor.", RelaxOp("relax.floor")),
    unary("ceil", "Elementwise ceiling.", RelaxOp("relax.ceil")),
    unary("round", "Elementwise rounding to nearest integer value.", RelaxOp("relax.round")),
    unary("trunc", "Elementwise truncation toward zero.", RelaxOp("relax.trunc")),
    unary("abs", "Elementwise absolute value.", RelaxOp("relax.abs")),
    unary("sign", "Elementwise sign (-1, 0 or 1).", RelaxOp("relax.sign")),
    unary("copy", "Returns a copy of the input tensor.", no_relax("Relax has no copy to import: its values are immutable")),
    unary("logical_not", "Elementwise boolean NOT.", RelaxOp("relax.logical_not")),
    unary("bitwise_not", "Elementwise bitwise NOT.", RelaxOp("relax.bitwise_not")),
    unary("isnan", "Elementwise test for NaN, bool result.", RelaxOp("relax.isnan"),
        inference.bool_like),
    unary("isinf", "Elementwise test for +/-inf, bool result.", RelaxOp("relax.isinf"),
        inference.bool_like),
    unary("isfinite", "Elementwise test for finite values, bool result.", RelaxOp("relax.isfinite"),
        inference.bool_like),
    unary("zeros_like", "Tensor of zeros with the same shape and dtype as the input.",
        _relax_init_like("zeros_like")),
    unary("ones_like", "Tensor of ones with the same shape and dtype as the input.",
        _relax_init_like("ones_like")),
)
# fmt: on


# fmt: off
CLIP_CAST_AND_CREATION: tuple[Operator, ...] = (
    Operator("clip",
        "Clamps every element to [a_min, a_max] (single tensor input; bounds are attributes).",
        # TVM's ClipAttrs
        attrs=(floating("a_min", required=True), floating("a_max", required=True)),
        pattern=OpPattern.ELEMWISE, infer=inference.same_type,
        relax=RelaxOp(
            "relax.clip", args=(TENSOR, Arg(ArgRole.PRIM, "a_min"), Arg(ArgRole.PRIM, "a_max"))
        )),
    Operator("cast", "Converts the elements to data type `dtype`.", attrs=_CAST_ATTRS,
        pattern=OpPattern.ELEMWISE, infer=inference.cast,
        relax=RelaxOp("relax.astype", "relax.attrs.AstypeAttrs", (Field("dtype", Kind.DTYPE),))),
    Operator("cast_like", "Converts data to the dtype of the second tensor.", arity=2,
        operands=("data", "dtype_like"),
        pattern=OpPattern.ELEMWISE, infer=inference.cast_like,
        relax=no_relax("Relax has no cast_like to import")),
    Operator("reinterpret", "Bitwise reinterpretation of the elements as `dtype` (same bit width).",
        attrs=_CAST_ATTRS, pattern=OpPattern.ELEMWISE, infer=inference.cast,
        relax=no_relax("Relax has no reinterpret to import")),
    Operator("full",
        "Creates a tensor of `shape` / `dtype` filled with the scalar tensor input fill_value (1 "
        "input).",
        attrs=INIT_OP_ATTRS, operands=("fill_value",), pattern=OpPattern.ELEMWISE,
        infer=inference.full, relax=_relax_init("full")),
    Operator("full_like", "Tensor shaped like data filled with the scalar fill_value (2 inputs).",
        operands=("data", "fill_value"),
        arity=2, pattern=OpPattern.ELEMWISE, infer=inference.full_like,
        relax=_relax_init_like("full_like")),
    _init("zeros", "Creates a tensor of zeros of given shape and dtype; takes no tensor inputs."),
    _init("ones", "Creates a tensor of ones of given shape and dtype; takes no tensor inputs."),
    Operator("where", "Elementwise select: condition ? x : y, all three broadcast together.",
        operands=("condition", "x", "y"),
        arity=3, pattern=OpPattern.BROADCAST, infer=inference.where, relax=RelaxOp("relax.where")),
)
# fmt: on
