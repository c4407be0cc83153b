"""Operators along axes: reductions and sorting."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import TensorType, TupleType
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay import dtypes, inference
from relay_xdsl.dialects.relay.attributes import (
    OpPattern,
    boolean,
    dtype,
    integer,
    ints,
    string,
)
from relay_xdsl.dialects.relay.inference import Call, Reject
from relay_xdsl.dialects.relay.ops import OperatorOp
from relay_xdsl.dialects.relay.registry import Operator, Relation, no_relax
from relay_xdsl.dialects.relay.relax_mapping import Field, Kind, RelaxOp


def _resolve_exclude(op: OperatorOp, values: dict[str, Any]) -> None:
    # Relax has no `exclude`: export lists the complementary axes instead.
    if not op.relay_attr("exclude") or not values["axis"]:
        return
    data = op.args[0].type
    if not isinstance(data, TensorType):
        raise ValueError(f"'{op.operator_name}' takes a tensor")  # noqa: TRY004 (export reports ValueError)
    rank = data.get_num_dims()
    listed = {a % rank for a in values["axis"]}
    values["axis"] = [a for a in range(rank) if a not in listed]


def _relax_reduce(name: str) -> RelaxOp:
    """``relax.<name>``: Relax has no ``exclude``, so it imports with Relay's default
    and exports as the complementary axes."""
    return RelaxOp(
        f"relax.{name}",
        "relax.attrs.StatisticalAttrs",
        (Field("axis", Kind.OPT_INTS), Field("keepdims", Kind.BOOL)),
        export_hook=_resolve_exclude,
    )


_REDUCE_ATTRS = (
    ints("axis"),
    boolean("keepdims", False),
    boolean("exclude", False),
)
"""Fields of TVM's ``ReduceAttrs``."""

_ARG_REDUCE_ATTRS = (
    ints("axis"),
    boolean("keepdims", False),
    boolean("select_last_index", False),
    boolean("exclude", False),
)
"""Fields of TVM's ``ArgReduceAttrs``."""

_ARGSORT_ATTRS = (
    integer("axis", -1),
    boolean("is_ascend", True),
    dtype("dtype", ""),
)
"""Fields of TVM's ``ArgsortAttrs``."""


def _reduce(name: str, summary: str, *, mapped: bool = True) -> Operator:
    """A commutative reduction over ``axis`` (TVM's ``ReduceAttrs``)."""
    return Operator(
        name,
        summary,
        attrs=_REDUCE_ATTRS,
        pattern=OpPattern.COMM_REDUCE,
        infer=inference.reduce,
        relax=_relax_reduce(name) if mapped else no_relax(f"Relax has no {name} to import"),
    )


def _arg_reduce(name: str, summary: str) -> Operator:
    """The index of an extremum along ``axis`` (TVM's ``ArgReduceAttrs``)."""
    return Operator(
        name,
        summary,
        attrs=_ARG_REDUCE_ATTRS,
        pattern=OpPattern.COMM_REDUCE,
        infer=inference.arg_reduce,
        relax=no_relax(
            f"Relax's {name} returns int64 indices along at most one axis; Relay's returns int32"
        ),
    )


def _index_dtype(op: OperatorOp, values: dict[str, Any]) -> None:
    # Relay's "" index dtype is int32; Relax spells the dtype out. The indices are
    # the result, or its second field.
    if values.get("dtype") is None and "dtype" in values:
        result = op.result.type
        indices = result.types.data[-1] if isinstance(result, TupleType) else result
        values["dtype"] = (
            dtypes.dtype_name(indices.element_type) if isinstance(indices, TensorType) else "int32"
        )


def _topk_hook(op: OperatorOp, values: dict[str, Any]) -> None:
    # Relay's k < 1 means the whole axis.
    if values["k"] < 1:
        data = op.args[0].type
        if not isinstance(data, TensorType) or data.get_shape()[values["axis"]] < 0:
            raise ValueError("topk of the whole axis needs a static axis")
        values["k"] = data.get_shape()[values["axis"]]
    if values["ret_type"] == "values":
        values["dtype"] = values["dtype"] or "int32"
    _index_dtype(op, values)


def _sort(name: str, summary: str, infer: Relation) -> Operator:
    """A sort along ``axis`` (TVM's ``ArgsortAttrs``): Relax's op of the same name,
    which says ``descending`` where Relay says ``is_ascend`` (``sort`` has no
    ``dtype``: Relay's is unused)."""
    fields: tuple[Field, ...] = (
        Field("axis", Kind.INT),
        Field("descending", Kind.NEGATED_BOOL, "is_ascend"),
    )
    if name == "argsort":
        fields += (Field("dtype", Kind.DTYPE),)
    return Operator(
        name,
        summary,
        attrs=_ARGSORT_ATTRS,
        pattern=OpPattern.OPAQUE,
        infer=infer,
        relax=RelaxOp(
            f"relax.{name}",
            f"relax.attrs.{name.capitalize()}Attrs",
            fields,
            export_hook=_index_dtype if name == "argsort" else None,
        ),
    )


def _collapse_sum_like(call: Call) -> Attribute:
    """``CollapseSumLikeRel``: the result has the second argument's type, to
    which the data broadcasts (``BroadcastRel(data, target) = data``)."""
    if inference.broadcast(call) != call.tensor(0):
        raise Reject("the second argument does not broadcast to the data")
    return call.tensor(1)


# fmt: off
REDUCTIONS: tuple[Operator, ...] = (
    _reduce("sum", "Sum over `axis` (all axes when None; the complementary axes if exclude)."),
    _reduce("mean", "Arithmetic mean over `axis`."),
    _reduce("max", "Maximum over `axis`."),
    _reduce("min", "Minimum over `axis`."),
    _reduce("prod", "Product over `axis`."),
    _reduce("all", "Logical AND reduction over `axis`.", mapped=False),
    _reduce("any", "Logical OR reduction over `axis`.", mapped=False),
    _arg_reduce("argmax",
        "Index of the maximum along `axis` (first occurrence unless select_last_index)."),
    _arg_reduce("argmin", "Index of the minimum along `axis`."),
    Operator("variance",
        "Variance over `axis`; takes 2 inputs (data, precomputed mean); unbiased divides by N-1.",
        attrs=(
            ints("axis"), boolean("keepdims", False), boolean("exclude", False),
            boolean("unbiased", False)
        ),  # TVM's VarianceAttrs
        operands=("data", "mean"),
        arity=2, pattern=OpPattern.COMM_REDUCE, infer=inference.variance,
        relax=no_relax("Relax's variance computes the mean itself; Relay's takes it as a second "
                       "argument")),
    Operator("collapse_sum_like",
        "Sums the data over the axes along which the second argument broadcasts to it, giving "
        "the second argument's type.",
        operands=("data", "collapse_type"),
        arity=2, pattern=OpPattern.COMM_REDUCE, infer=_collapse_sum_like,
        relax=RelaxOp("relax.collapse_sum_like")),
)
# fmt: on


# fmt: off
SORTING: tuple[Operator, ...] = (
    _sort("argsort", "Indices that sort data along `axis`.", inference.argsort),
    _sort("sort", "Sorts data along `axis`.", inference.same_type),
    Operator("topk",
        "Top-k values/indices along `axis`; result is a 2-tuple (values, indices) when "
        "ret_type='both' (default), a single tensor for 'values' or 'indices'.",
        attrs=(
            integer("k", required=True), integer("axis", -1), string("ret_type", "both"),
            boolean("is_ascend", False), dtype("dtype", "")
        ),  # TVM's TopKAttrs
        returns_tuple=None, pattern=OpPattern.OPAQUE, infer=inference.topk,
        relax=RelaxOp(
            "relax.topk", "relax.attrs.TopKAttrs",
            (Field("k", Kind.INT), Field("axis", Kind.INT), Field("ret_type", Kind.STR),
             Field("largest", Kind.NEGATED_BOOL, "is_ascend"), Field("dtype", Kind.DTYPE)),
            export_hook=_topk_hook,
        )),
)
# fmt: on
