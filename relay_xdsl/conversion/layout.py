"""Bringing operands into one layout, and reshapes that need no transpose.

Elementwise operators run in whatever layout their largest operand is
held in; the smaller operands are first given the result's rank (leading
ones, as Relay's broadcasting reads them) and then the same layout. Known
operands are reshaped and transposed when compiling.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from relay_xdsl.conversion.lowering import FunctionLowering
from relay_xdsl.conversion.values import Tensor, identity


def common_perm(tensors: Sequence[Tensor], rank: int) -> tuple[int, ...]:
    """The layout of the first full-rank tensor computed at run time (Relay's if none)."""
    for tensor in tensors:
        if tensor.rank == rank and tensor.array is None:
            return tensor.perm
    return identity(rank)


def broadcast_rank(tensor: Tensor, rank: int) -> tuple[int, ...]:
    """`tensor`'s shape with leading ones up to `rank`."""
    return (1,) * (rank - tensor.rank) + tensor.shape


def aligned(
    lowering: FunctionLowering, tensor: Tensor, rank: int, perm: tuple[int, ...]
) -> SSAValue:
    """`tensor` at rank `rank` (leading ones) in layout `perm`."""
    if tensor.rank == rank:
        return lowering.materialize(tensor, perm)
    shape = broadcast_rank(tensor, rank)
    type_ = TensorType(tensor.element_type, shape)
    if tensor.array is not None:
        return lowering.materialize(Tensor(type_, array=tensor.array.reshape(shape)), perm)
    value = lowering.builder.reshape(lowering.materialize(tensor), shape)
    return lowering.builder.transpose(value, perm)


def keeps_order(tensor: Tensor) -> bool:
    """Whether `tensor`'s physical layout holds its elements in Relay's order:
    its layout moves only dimensions of size one."""
    moved = [p for p in tensor.perm if tensor.shape[p] != 1]
    return moved == sorted(moved)


def reshaped(lowering: FunctionLowering, tensor: Tensor, shape: Sequence[int]) -> SSAValue:
    """`tensor` reshaped to `shape` (Relay's row-major order), transposing only if needed."""
    if keeps_order(tensor) and tensor.value is not None and tensor.perm in tensor.in_layout:
        source = tensor.in_layout[tensor.perm]
    else:
        source = lowering.materialize(tensor)
    return lowering.builder.reshape(source, shape)
