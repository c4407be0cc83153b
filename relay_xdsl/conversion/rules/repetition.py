"""Repetition and reversal: ``tosa.tile`` and ``tosa.reverse``.

``tile`` and ``reverse`` work in the operand's layout; ``repeat`` gives the
repeated axis a dimension of one after it, tiles that, and merges the two
(in Relay's order, which the reshapes need).
"""

from __future__ import annotations

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.values import Tensor
from relay_xdsl.interpreter.kernels.common import axis as normal_axis


@lowering("tile")
def tile(call: RuleCall) -> Tensor:
    """`x` repeated ``reps[i]`` times along dimension ``i``; the shorter of `x`'s
    shape and ``reps`` is read with leading ones."""
    x = call.tensor(0)
    reps = call.call.ints("reps")
    rank = call.result_type.get_num_dims()
    reps = [1] * (rank - len(reps)) + list(reps)
    if x.rank == rank:
        value = call.emit.tile(call.value(x, x.perm), [reps[p] for p in x.perm])
        return call.result(value, x.perm)
    value = call.emit.reshape(call.value(x), (1,) * (rank - x.rank) + x.shape)
    return call.result(call.emit.tile(value, reps))


@lowering("repeat")
def repeat(call: RuleCall) -> Tensor:
    """Each element of `x` ``repeats`` times along ``axis``."""
    x = call.tensor(0)
    axis = normal_axis(int(call.call.attr("axis")), x.rank)
    repeats = int(call.call.attr("repeats"))
    shape = list(x.shape)
    value = call.emit.reshape(call.value(x), shape[: axis + 1] + [1] + shape[axis + 1 :])
    multiples = [1] * (x.rank + 1)
    multiples[axis + 1] = repeats
    value = call.emit.tile(value, multiples)
    return call.result(call.emit.reshape(value, call.result_type.get_shape()))


@lowering("reverse")
def reverse(call: RuleCall) -> Tensor:
    """`x` with the elements along ``axis`` in reverse order."""
    x = call.tensor(0)
    axis = normal_axis(int(call.call.attr("axis")), x.rank)
    return call.result(call.emit.reverse(call.value(x, x.perm), x.perm.index(axis)), x.perm)
