"""A per-channel bias added to a convolution's result, found so that the
convolution starts its sums from it.

A convolution followed by ``nn.bias_add`` (or by ``add`` of a tensor that
varies along the channel axis only, as a folded batch norm leaves it) would
otherwise sum into zeros and then pass over its whole result again to add
the bias. The convolution's rule looks at the one call that uses its result;
when it is such an add, the rule gives the convolution the bias as its
initial sums and stands for the add's result too (`with_following_bias`),
so the add is not lowered on its own. Only the order of the additions
changes: the bias comes first instead of last.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.values import Tensor
from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp


def with_following_bias(
    call: RuleCall, channel_axis: int, compute: Callable[[SSAValue | None], Tensor]
) -> Tensor:
    """`compute(bias)`: the call's result, computed with the per-channel bias
    (an IR vector) that the only user of the result adds along `channel_axis`
    (of the result's Relay layout), then standing for that add's result too;
    ``compute(None)`` where there is no such add."""
    found = _following_bias(call, channel_axis)
    if found is None:
        return compute(None)
    add, vector = found
    result = compute(call.lowering.materialize(vector))
    call.lowering.values[add.result] = result
    return result


def _following_bias(
    call: RuleCall, channel_axis: int
) -> tuple[RegisteredOperatorOp, Tensor] | None:
    """The only user of the call's result and the bias it adds (as a vector), if
    that user adds a bias along `channel_axis` that is known or already
    lowered; None otherwise."""
    uses = list(call.op.result.uses)
    if len(uses) != 1:
        return None
    add, index = uses[0].operation, uses[0].index
    if (
        not isinstance(add, RegisteredOperatorOp)
        or add.OPERATOR.name not in ("add", "nn.bias_add")
        or add.result.type != call.op.result.type
    ):
        return None
    bias = call.lowering.lowered(add.operands[1 - index])
    if not isinstance(bias, Tensor) or bias.element_type != call.result_type.get_element_type():
        return None
    rank = call.result_type.get_num_dims()
    if add.OPERATOR.name == "nn.bias_add":
        axis = Call(add.OPERATOR.schema, [], add.attributes).attr("axis")
        if index != 0 or bias.rank != 1 or int(axis) % rank != channel_axis:
            return None
        aligned = tuple(bias.shape[0] if i == channel_axis else 1 for i in range(rank))
    else:
        aligned = (1,) * (rank - bias.rank) + bias.shape  # Relay broadcasts from the right
    if aligned != _channel_shape(call, channel_axis):
        return None
    return add, _vector(call, bias)


def _channel_shape(call: RuleCall, channel_axis: int) -> tuple[int, ...]:
    """The shape of a tensor of the result's rank holding one value per channel."""
    shape = call.result_type.get_shape()
    return tuple(n if i == channel_axis else 1 for i, n in enumerate(shape))


def _vector(call: RuleCall, bias: Tensor) -> Tensor:
    """`bias`, one value per channel, as a vector."""
    channels = int(np.prod(bias.shape))
    type_ = TensorType(bias.element_type, [channels])
    if bias.rank == 1:
        return bias
    if bias.array is not None:
        return Tensor(type_, array=np.ascontiguousarray(bias.array.reshape(channels)))
    return Tensor(type_, call.emit.reshape(call.value(bias), [channels]))
