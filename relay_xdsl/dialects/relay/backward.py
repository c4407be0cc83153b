"""Backward type relations: the argument types a call's relation determines.

TVM's type relations do not only compute a call's result type: many also
*assign* types to arguments, which the type solver unifies with whatever
the arguments are (``reporter->Assign(types[1], ...)``). That is how
``InferType`` types a convolution weight that nothing else types (from
``channels``, ``kernel_size`` and the data), and how it checks a weight that
is typed. Each function here is such a half of one relation, and the
operator's registry row names it (``backward``).

A backward relation takes the call (:class:`~relay_xdsl.dialects.relay.inference.Call`,
an unknown argument being ``!relay.incomplete``) and the result type (None
while unknown) and returns one entry per argument: the type the relation
assigns it, or None. It raises :class:`~relay_xdsl.dialects.relay.inference.Reject`
with a message for a contradiction (the data's channels do not fit the
weight), and without one when it cannot decide yet (the data is unknown).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.layouts import convert_layout
from relay_xdsl.dialects.relay.rejection import Reject
from relay_xdsl.dialects.relay.shapes import check_groups, check_in_channels, div, known
from relay_xdsl.dialects.relay.tensor_types import tensor_type

ArgTypes = Sequence[Attribute | None]
BackwardRelation = Callable[[Call, Attribute | None], ArgTypes]
"""The call (unknown arguments ``!relay.incomplete``) and its result type
(None while unknown) to the type of each argument, or None."""


def _weight(call: Call, index: int) -> TensorType | None:
    type_ = call.args[index] if index < len(call.args) else None
    return type_ if isinstance(type_, TensorType) else None


def same_type(call: Call, result: Attribute | None) -> ArgTypes:
    """``IdentityRel`` of one argument: the argument has the result's type."""
    return [result if isinstance(result, TensorType) else None]


def broadcast(call: Call, result: Attribute | None) -> ArgTypes:
    """``BroadcastRel`` backwards, where broadcasting leaves no choice: an
    unknown argument is the result when the other argument is all ones of a
    lower rank (a scalar, most often), so the result's shape must be its."""
    if not isinstance(result, TensorType) or len(call.args) != 2:
        return [None, None]
    known = [_weight(call, 0), _weight(call, 1)]
    if (known[0] is None) == (known[1] is None):
        return [None, None]
    other = known[0] or known[1]
    assert other is not None
    out = result.get_shape()
    if len(other.get_shape()) < len(out) and all(d == 1 for d in other.get_shape()):
        determined = tensor_type(other.get_element_type(), out)
        return [determined if t is None else None for t in known]
    return [None, None]


def conv(spatial: str, transposed: bool, *, assume_grouped: bool = False) -> BackwardRelation:
    """``Conv{1,2,3}D[Transpose]Rel``: with ``channels`` and ``kernel_size``
    set, the weight is ``(channels, C / groups, *kernel_size)`` in ``OI...``
    (``(C, channels / groups, *kernel_size)`` in ``IO...`` when transposed),
    converted to ``kernel_layout``, of the data's dtype; a depthwise
    convolution's weight is ``(C, channels / C, *kernel_size)``. TVM does not
    type the unknown weight of a grouped convolution (it could be depthwise);
    with `assume_grouped` it is ``(channels, C / groups, *kernel_size)``, which
    is also the depthwise weight wherever ``channels`` is ``groups``."""
    nsp = len(spatial)

    def rule(call: Call, result: Attribute | None) -> ArgTypes:
        channels = call.attr("channels")
        kernel_size = call.optional_ints("kernel_size")
        weight = _weight(call, 1)
        if channels is None or kernel_size is None:
            return [None, None]
        channels = int(channels)
        if len(kernel_size) != nsp:
            raise Reject(
                f"kernel_size={list(kernel_size)} has {len(kernel_size)} entries, not {nsp}"
            )
        data = convert_layout(call.shape(0), call.attr("data_layout"), "NC" + spatial)
        groups = call.integer("groups")
        check_groups(groups)
        kernel_layout = call.attr("kernel_layout")
        in_channels = data[1]
        if transposed:
            canon = "IO" + spatial
            shape = [in_channels, div(channels, groups), *kernel_size]
        elif nsp == 2 and groups > 1 and "G" in kernel_layout:
            canon = "GOI" + spatial
            shape = [groups, div(channels, groups), div(in_channels, groups), *kernel_size]
        else:
            canon = "OI" + spatial
            if groups > 1 and weight is None and not assume_grouped:
                return [None, None]  # TVM needs the weight to tell a depthwise one
            depthwise = False
            if weight is not None:
                typed = convert_layout(weight.get_shape(), kernel_layout, canon)
                depthwise = groups > 1 and groups == in_channels == typed[0]
                if not depthwise:
                    check_in_channels(in_channels, typed[1], groups)
                    if known(typed[0]) and typed[0] != channels:
                        raise Reject(
                            f"the weight has {typed[0]} output channels but channels={channels}"
                        )
            if depthwise:
                shape = [in_channels, div(channels, in_channels), *kernel_size]
            else:
                shape = [channels, div(in_channels, groups), *kernel_size]
        element = weight.get_element_type() if weight is not None else call.element(0)
        return [None, tensor_type(element, convert_layout(shape, canon, kernel_layout))]

    return rule


def matmul(dense: bool) -> BackwardRelation:
    """``MatmulRel``: with ``units`` set, the weight is ``(units, K)`` (or
    ``(K, units)`` for ``nn.matmul`` without ``transpose_b``), K being the
    data's reduced axis, of the data's dtype."""

    def rule(call: Call, result: Attribute | None) -> ArgTypes:
        units = call.attr("units")
        if units is None:
            return [None, None]
        data = call.shape(0)
        if not data:
            raise Reject("the data is a scalar")
        transpose_a = False if dense else bool(call.attr("transpose_a"))
        transpose_b = True if dense else bool(call.attr("transpose_b"))
        if transpose_a and len(data) < 2:
            raise Reject("transpose_a needs data of rank 2 or more")
        reduced = data[-2] if transpose_a else data[-1]
        weight = _weight(call, 1)
        if weight is not None and len(weight.get_shape()) == 2:
            weight_reduced = weight.get_shape()[1 if transpose_b else 0]
            if known(reduced, weight_reduced) and reduced != weight_reduced:
                raise Reject(
                    f"the data has {reduced} input features but the weight expects {weight_reduced}"
                )
        shape = [int(units), reduced] if transpose_b else [reduced, int(units)]
        element = weight.get_element_type() if weight is not None else call.element(0)
        return [None, tensor_type(element, shape)]

    return rule


def _channel_vectors(call: Call, axis: int, count: int) -> ArgTypes:
    """`count` parameters of shape ``(data[axis],)`` after the data."""
    shape = call.shape(0)
    if not -len(shape) <= axis < len(shape):
        raise Reject(f"axis={axis} is out of range for data of rank {len(shape)}")
    vector = tensor_type(call.element(0), [shape[axis]])
    return [None] + [vector] * count


def batch_norm(call: Call, result: Attribute | None) -> ArgTypes:
    """``BatchNormRel``: gamma, beta, moving mean and variance are vectors
    over the data's ``axis``."""
    return _channel_vectors(call, call.integer("axis"), 4)


def scale_and_shift(call: Call, result: Attribute | None) -> ArgTypes:
    """``LayerNormRel``, ``GroupNormRel``, ``InstanceNormRel``: gamma and
    beta are vectors over the data's ``axis``."""
    return _channel_vectors(call, call.integer("axis"), 2)


def bias_add(call: Call, result: Attribute | None) -> ArgTypes:
    """``BiasAddRel``: the bias is a vector over the data's ``axis``."""
    return _channel_vectors(call, call.integer("axis"), 1)


RESULT_DRIVEN: frozenset[BackwardRelation] = frozenset({same_type, broadcast})
"""Relations that determine nothing without the result type, so they have
nothing to check on a call whose arguments are all typed."""
