"""Operators along axes: reductions and sorting."""

from __future__ import annotations

from relay_xdsl.dialects.relay import inference
from relay_xdsl.dialects.relay.attributes import AttrKind, OpPattern, RelayAttr
from relay_xdsl.dialects.relay.registry import Operator, no_relax
from relay_xdsl.dialects.relay.relax_mapping import Field, Kind, RelaxOp


def _relax_reduce(name: str) -> RelaxOp:
    """``relax.<name>``: Relax has no ``exclude``, so only its default maps."""
    return RelaxOp(
        f"relax.{name}",
        "relax.attrs.StatisticalAttrs",
        (Field("axis", Kind.OPT_INTS), Field("keepdims", Kind.BOOL)),
        relay_defaults_only=("exclude",),
    )


_REDUCE_ATTRS = (
    RelayAttr("axis", AttrKind.INTS, None),
    RelayAttr("keepdims", AttrKind.BOOL, False),
    RelayAttr("exclude", AttrKind.BOOL, False),
)
"""Fields of TVM's ``ReduceAttrs``."""

_ARG_REDUCE_ATTRS = (
    RelayAttr("axis", AttrKind.INTS, None),
    RelayAttr("keepdims", AttrKind.BOOL, False),
    RelayAttr("select_last_index", AttrKind.BOOL, False),
    RelayAttr("exclude", AttrKind.BOOL, False),
)
"""Fields of TVM's ``ArgReduceAttrs``."""

_ARGSORT_ATTRS = (
    RelayAttr("axis", AttrKind.INT, -1),
    RelayAttr("is_ascend", AttrKind.BOOL, True),
    RelayAttr("dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``ArgsortAttrs``."""


REDUCTIONS: tuple[Operator, ...] = (
    Operator(
        "sum",
        "Sum over `axis` (all axes when None; the complementary axes if exclude).",
        attrs=_REDUCE_ATTRS,
        pattern=OpPattern.COMM_REDUCE,
        infer=inference.reduce,
        relax=_relax_reduce("sum"),
    ),
    Operator(
        "mean",
        "Arithmetic mean over `axis`.",
        attrs=_REDUCE_ATTRS,
        pattern=OpPattern.COMM_REDUCE,
        infer=inference.reduce,
        relax=_relax_reduce("mean"),
    ),
    Operator(
        "max",
        "Maximum over `axis`.",
        attrs=_REDUCE_ATTRS,
        pattern=OpPattern.COMM_REDUCE,
        infer=inference.reduce,
        relax=_relax_reduce("max"),
    ),
    Operator(
        "min",
        "Minimum over `axis`.",
        attrs=_REDUCE_ATTRS,
        pattern=OpPattern.COMM_REDUCE,
        infer=inference.reduce,
        relax=_relax_reduce("min"),
    ),
    Operator(
        "prod",
        "Product over `axis`.",
        attrs=_REDUCE_ATTRS,
        pattern=OpPattern.COMM_REDUCE,
        infer=inference.reduce,
        relax=_relax_reduce("prod"),
    ),
    Operator(
        "all",
        "Logical AND reduction over `axis`.",
        attrs=_REDUCE_ATTRS,
        pattern=OpPattern.COMM_REDUCE,
        infer=inference.reduce,
        relax=no_relax("Relax has no all"),
    ),
    Operator(
        "any",
        "Logical OR reduction over `axis`.",
        attrs=_REDUCE_ATTRS,
        pattern=OpPattern.COMM_REDUCE,
        infer=inference.reduce,
        relax=no_relax("Relax has no any"),
    ),
    Operator(
        "argmax",
        "Index of the maximum along `axis` (first occurrence unless select_last_index).",
        attrs=_ARG_REDUCE_ATTRS,
        pattern=OpPattern.COMM_REDUCE,
        infer=inference.arg_reduce,
        relax=no_relax(
            "Relax's argmax returns int64 indices along at most one axis; Relay's returns int32"
        ),
    ),
    Operator(
        "argmin",
        "Index of the minimum along `axis`.",
        attrs=_ARG_REDUCE_ATTRS,
        pattern=OpPattern.COMM_REDUCE,
        infer=inference.arg_reduce,
        relax=no_relax(
            "Relax's argmin returns int64 indices along at most one axis; Relay's returns int32"
        ),
    ),
    Operator(
        "variance",
        "Variance over `axis`; takes 2 inputs (data, precomputed mean); unbiased divides by N-1.",
        attrs=(  # TVM's VarianceAttrs
            RelayAttr("axis", AttrKind.INTS, None),
            RelayAttr("keepdims", AttrKind.BOOL, False),
            RelayAttr("exclude", AttrKind.BOOL, False),
            RelayAttr("unbiased", AttrKind.BOOL, False),
        ),
        arity=2,
        pattern=OpPattern.COMM_REDUCE,
        infer=inference.variance,
        relax=no_relax(
            "Relax's variance computes the mean itself; Relay's takes it as a second argument"
        ),
    ),
)


SORTING: tuple[Operator, ...] = (
    Operator(
        "argsort",
        "Indices that sort data along `axis`.",
        attrs=_ARGSORT_ATTRS,
        pattern=OpPattern.OPAQUE,
        infer=inference.argsort,
        relax=no_relax(
            "not mapped yet: Relax's argsort has `descending` where Relay's has `is_ascend`"
        ),
    ),
    Operator(
        "sort",
        "Sorts data along `axis`.",
        attrs=_ARGSORT_ATTRS,
        pattern=OpPattern.OPAQUE,
        infer=inference.same_type,
        relax=no_relax(
            "not mapped yet: Relax's sort has `descending` where Relay's has `is_ascend`"
        ),
    ),
    Operator(
        "topk",
        "Top-k values/indices along `axis`; result is a 2-tuple (values, indices) when "
        "ret_type='both' (default), a single tensor for 'values' or 'indices'.",
        attrs=(  # TVM's TopKAttrs
            RelayAttr("k", AttrKind.INT, None, required=True),
            RelayAttr("axis", AttrKind.INT, -1),
            RelayAttr("ret_type", AttrKind.STR, "both"),
            RelayAttr("is_ascend", AttrKind.BOOL, False),
            RelayAttr("dtype", AttrKind.DTYPE, ""),
        ),
        returns_tuple=None,
        pattern=OpPattern.OPAQUE,
        infer=inference.topk,
        relax=no_relax("not mapped yet: Relax's topk has `largest` where Relay's has `is_ascend`"),
    ),
)
