"""Elementwise operators of one tensor, clipping and casts, and tensor creation."""

from __future__ import annotations

from relay_xdsl.dialects.relay import inference
from relay_xdsl.dialects.relay.attributes import AttrKind, OpPattern, RelayAttr
from relay_xdsl.dialects.relay.registry import NoRelax, Operator, no_relax
from relay_xdsl.dialects.relay.relax_mapping import TENSOR, Arg, ArgRole, Field, Kind, RelaxOp


def _unary(name: str, summary: str, relax: RelaxOp | NoRelax) -> Operator:
    """One argument (``ELEMWISE``); the result has its type."""
    return Operator(
        name, summary, pattern=OpPattern.ELEMWISE, infer=inference.same_type, relax=relax
    )


_CAST_ATTRS = (RelayAttr("dtype", AttrKind.DTYPE, None, required=True),)
"""Fields of TVM's ``CastAttrs``."""

INIT_OP_ATTRS = (
    RelayAttr("shape", AttrKind.INTS, None, required=True),
    RelayAttr("dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``InitOpAttrs``."""


UNARY: tuple[Operator, ...] = (
    _unary("negative", "Elementwise -x.", RelaxOp("relax.negative")),
    _unary("exp", "Elementwise e**x.", RelaxOp("relax.exp")),
    _unary("fast_exp", "Elementwise approximate e**x.", no_relax("Relax has no fast_exp")),
    _unary("log", "Elementwise natural logarithm.", RelaxOp("relax.log")),
    _unary("log2", "Elementwise base-2 logarithm.", no_relax("Relax has no log2")),
    _unary("log10", "Elementwise base-10 logarithm.", no_relax("Relax has no log10")),
    _unary("sqrt", "Elementwise square root.", RelaxOp("relax.sqrt")),
    _unary("rsqrt", "Elementwise 1/sqrt(x).", RelaxOp("relax.rsqrt")),
    _unary("erf", "Elementwise Gauss error function.", RelaxOp("relax.erf")),
    _unary(
        "fast_erf", "Elementwise approximate error function.", no_relax("Relax has no fast_erf")
    ),
    _unary("tanh", "Elementwise hyperbolic tangent.", RelaxOp("relax.tanh")),
    _unary(
        "fast_tanh",
        "Elementwise approximate hyperbolic tangent.",
        no_relax("Relax has no fast_tanh"),
    ),
    _unary("sigmoid", "Elementwise logistic function 1/(1+exp(-x)).", RelaxOp("relax.sigmoid")),
    _unary("cos", "Elementwise cosine.", RelaxOp("relax.cos")),
    _unary("sin", "Elementwise sine.", RelaxOp("relax.sin")),
    _unary("tan", "Elementwise tangent.", RelaxOp("relax.tan")),
    _unary("cosh", "Elementwise hyperbolic cosine.", RelaxOp("relax.cosh")),
    _unary("sinh", "Elementwise hyperbolic sine.", RelaxOp("relax.sinh")),
    _unary("acos", "Elementwise arc cosine.", RelaxOp("relax.acos")),
    _unary("acosh", "Elementwise inverse hyperbolic cosine.", RelaxOp("relax.acosh")),
    _unary("asin", "Elementwise arc sine.", RelaxOp("relax.asin")),
    _unary("asinh", "Elementwise inverse hyperbolic sine.", RelaxOp("relax.asinh")),
    _unary("atan", "Elementwise arc tangent.", RelaxOp("relax.atan")),
    _unary("atanh", "Elementwise inverse hyperbolic tangent.", RelaxOp("relax.atanh")),
    _unary("floor", "Elementwise floor.", RelaxOp("relax.floor")),
    _unary("ceil", "Elementwise ceiling.", RelaxOp("relax.ceil")),
    _unary("round", "Elementwise rounding to nearest integer value.", RelaxOp("relax.round")),
    _unary("trunc", "Elementwise truncation toward zero.", RelaxOp("relax.trunc")),
    _unary("abs", "Elementwise absolute value.", RelaxOp("relax.abs")),
    _unary("sign", "Elementwise sign (-1, 0 or 1).", RelaxOp("relax.sign")),
    _unary("copy", "Returns a copy of the input tensor.", no_relax("Relax has no copy")),
    _unary("logical_not", "Elementwise boolean NOT.", RelaxOp("relax.logical_not")),
    _unary("bitwise_not", "Elementwise bitwise NOT.", RelaxOp("relax.bitwise_not")),
    Operator(
        "isnan",
        "Elementwise test for NaN, bool result.",
        pattern=OpPattern.ELEMWISE,
        infer=inference.bool_like,
        relax=RelaxOp("relax.isnan"),
    ),
    Operator(
        "isinf",
        "Elementwise test for +/-inf, bool result.",
        pattern=OpPattern.ELEMWISE,
        infer=inference.bool_like,
        relax=RelaxOp("relax.isinf"),
    ),
    Operator(
        "isfinite",
        "Elementwise test for finite values, bool result.",
        pattern=OpPattern.ELEMWISE,
        infer=inference.bool_like,
        relax=RelaxOp("relax.isfinite"),
    ),
    _unary(
        "zeros_like",
        "Tensor of zeros with the same shape and dtype as the input.",
        RelaxOp("relax.zeros_like", "relax.attrs.InitAttrs", implied=(("dtype", None),)),
    ),
    _unary(
        "ones_like",
        "Tensor of ones with the same shape and dtype as the input.",
        RelaxOp("relax.ones_like", "relax.attrs.InitAttrs", implied=(("dtype", None),)),
    ),
)


CLIP_CAST_AND_CREATION: tuple[Operator, ...] = (
    Operator(
        "clip",
        "Clamps every element to [a_min, a_max] (single tensor input; bounds are attributes).",
        attrs=(  # TVM's ClipAttrs
            RelayAttr("a_min", AttrKind.FLOAT, None, required=True),
            RelayAttr("a_max", AttrKind.FLOAT, None, required=True),
        ),
        pattern=OpPattern.ELEMWISE,
        infer=inference.same_type,
        relax=RelaxOp(
            "relax.clip", args=(TENSOR, Arg(ArgRole.PRIM, "a_min"), Arg(ArgRole.PRIM, "a_max"))
        ),
    ),
    Operator(
        "cast",
        "Converts the elements to data type `dtype`.",
        attrs=_CAST_ATTRS,
        pattern=OpPattern.ELEMWISE,
        infer=inference.cast,
        relax=RelaxOp("relax.astype", "relax.attrs.AstypeAttrs", (Field("dtype", Kind.DTYPE),)),
    ),
    Operator(
        "cast_like",
        "Converts data to the dtype of the second tensor.",
        arity=2,
        pattern=OpPattern.ELEMWISE,
        infer=inference.cast_like,
        relax=no_relax("Relax has no cast_like"),
    ),
    Operator(
        "reinterpret",
        "Bitwise reinterpretation of the elements as `dtype` (same bit width).",
        attrs=_CAST_ATTRS,
        pattern=OpPattern.ELEMWISE,
        infer=inference.cast,
        relax=no_relax("Relax has no reinterpret"),
    ),
    Operator(
        "full",
        "Creates a tensor of `shape` / `dtype` filled with the scalar tensor input fill_value (1 "
        "input).",
        attrs=INIT_OP_ATTRS,
        pattern=OpPattern.ELEMWISE,
        infer=inference.full,
        relax=no_relax(
            "not mapped yet: Relax's full takes the shape as an argument and imports as relay.op"
        ),
    ),
    Operator(
        "full_like",
        "Tensor shaped like data filled with the scalar fill_value (2 inputs).",
        arity=2,
        pattern=OpPattern.ELEMWISE,
        infer=inference.full_like,
        relax=RelaxOp("relax.full_like", "relax.attrs.InitAttrs", implied=(("dtype", None),)),
    ),
    Operator(
        "zeros",
        "Creates a tensor of zeros of given shape and dtype; takes no tensor inputs.",
        attrs=INIT_OP_ATTRS,
        arity=0,
        pattern=OpPattern.ELEMWISE,
        infer=inference.init,
        relax=no_relax(
            "not mapped yet: Relax's zeros takes the shape as an argument and imports as relay.op"
        ),
    ),
    Operator(
        "ones",
        "Creates a tensor of ones of given shape and dtype; takes no tensor inputs.",
        attrs=INIT_OP_ATTRS,
        arity=0,
        pattern=OpPattern.ELEMWISE,
        infer=inference.init,
        relax=no_relax(
            "not mapped yet: Relax's ones takes the shape as an argument and imports as relay.op"
        ),
    ),
    Operator(
        "where",
        "Elementwise select: condition ? x : y, all three broadcast together.",
        arity=3,
        pattern=OpPattern.BROADCAST,
        infer=inference.where,
        relax=RelaxOp("relax.where"),
    ),
)
