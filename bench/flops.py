"""Floating-point operations of a model: its convolutions and matrix products.

`flops` counts, in a relay-dialect module, two operations (a multiply and an
add) per multiply-accumulate of each

* convolution (``nn.conv1d/2d/3d``): each output element sums
  ``I/groups x kernel`` products, that is, the weight's elements per output
  channel;
* transposed convolution (``nn.conv*d_transpose``): each input element is
  multiplied by the weight's elements per input channel;
* matrix product (``nn.dense``, ``nn.matmul``, ``nn.batch_matmul``,
  ``relax.matmul``): each output element sums ``K`` products, ``K`` being
  the first operand's last axis (its second last with ``transpose_a``).

Everything else (element-wise operators, normalisations, pooling, softmax) is
left out, as model FLOP counts usually do: it is a few percent of a
convolutional network or a transformer. Each op counts once where it is
written; the models measured are single flat functions.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation

from relay_xdsl.dialects.relay import operator_ops as ops
from relay_xdsl.dialects.relay.inference import Call

CONVOLUTIONS = (ops.Conv1DOp, ops.Conv2DOp, ops.Conv3DOp)
TRANSPOSED_CONVOLUTIONS = (ops.Conv1DTransposeOp, ops.Conv2DTransposeOp, ops.Conv3DTransposeOp)
MATRIX_PRODUCTS = (ops.DenseOp, ops.MatmulOp, ops.BatchMatmulOp, ops.RelaxMatmulOp)


def flops(module: ModuleOp) -> int:
    """Twice the multiply-accumulates of `module` 's convolutions and matrix products."""
    return sum(op_flops(op) for op in module.walk())


def op_flops(op: Operation) -> int:
    """Twice the multiply-accumulates of `op` (0 for an op of none of the kinds counted)."""
    if not isinstance(op, CONVOLUTIONS + TRANSPOSED_CONVOLUTIONS + MATRIX_PRODUCTS):
        return 0
    call = Call(op.OPERATOR.schema, [a.type for a in op.args], op.attributes)
    first, second = (_shape(a.type, op) for a in op.args)
    if isinstance(op, MATRIX_PRODUCTS):
        reduced = first[-2] if call.attr("transpose_a") else first[-1]
        return 2 * prod(_shape(op.result.type, op)) * reduced
    layout = call.string("kernel_layout")
    if isinstance(op, CONVOLUTIONS):
        per_output = prod(second) // second[layout.index("O")]
        return 2 * prod(_shape(op.result.type, op)) * per_output
    per_input = prod(second) // second[layout.index("I")]
    return 2 * prod(first) * per_input


def _shape(type_: Attribute, op: Operation) -> tuple[int, ...]:
    """The static shape of the tensor type `type_`; a ValueError names `op` otherwise."""
    shape = tuple(type_.get_shape()) if isinstance(type_, TensorType) else (-1,)
    if any(d < 0 for d in shape):
        raise ValueError(f"{op.name}: cannot count the FLOPs of {type_}, not a static tensor")
    return shape
