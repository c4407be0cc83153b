"""Binary operators that broadcast their operands: arithmetic, comparisons,
logical and bitwise.
"""

from __future__ import annotations

from relay_xdsl.dialects.relay import backward, inference
from relay_xdsl.dialects.relay.attributes import OpPattern
from relay_xdsl.dialects.relay.registry import NoRelax, Operator, Relation, no_relax
from relay_xdsl.dialects.relay.relax_mapping import RelaxOp


def _binary(
    name: str,
    summary: str,
    relax: RelaxOp | NoRelax,
    infer: Relation = inference.broadcast,
) -> Operator:
    """Two arguments broadcast together (``BROADCAST``); by default the result
    keeps their element type."""
    return Operator(
        name,
        summary,
        arity=2,
        pattern=OpPattern.BROADCAST,
        infer=infer,
        backward=backward.broadcast,
        relax=relax,
    )


def _comparison(name: str, summary: str, relax: RelaxOp | NoRelax) -> Operator:
    """A broadcasting comparison: the result is bool."""
    return _binary(name, summary, relax, inference.broadcast_comparison)


# fmt: off
ARITHMETIC: tuple[Operator, ...] = (
    _binary("add", "Elementwise addition with NumPy-style broadcasting.", RelaxOp("relax.add")),
    _binary("subtract", "Elementwise subtraction with broadcasting.", RelaxOp("relax.subtract")),
    _binary("multiply", "Elementwise multiplication with broadcasting.", RelaxOp("relax.multiply")),
    _binary("divide", "Elementwise division with broadcasting (integer division truncates like C).",
        RelaxOp("relax.divide")),
    _binary("floor_divide", "Elementwise floor(lhs / rhs) with broadcasting.",
        RelaxOp("relax.floor_divide")),
    _binary("trunc_divide", "Elementwise trunc(lhs / rhs) with broadcasting.",
        no_relax("Relax has no trunc_divide to import")),
    _binary("power", "Elementwise lhs ** rhs with broadcasting.", RelaxOp("relax.power")),
    _binary("mod", "Elementwise remainder (truncated, C semantics) with broadcasting.",
        RelaxOp("relax.mod")),
    _binary("floor_mod",
        "Elementwise remainder with floor semantics (sign follows divisor) with broadcasting.",
        RelaxOp("relax.floor_mod")),
    _binary("trunc_mod", "Elementwise truncated remainder with broadcasting.",
        no_relax("Relax has no trunc_mod to import; relax.mod imports as mod")),
    _binary("maximum", "Elementwise maximum of two tensors with broadcasting.",
        RelaxOp("relax.maximum")),
    _binary("minimum", "Elementwise minimum of two tensors with broadcasting.",
        RelaxOp("relax.minimum")),
)
# fmt: on


# fmt: off
COMPARISONS: tuple[Operator, ...] = (
    _comparison("equal", "Elementwise lhs == rhs with broadcasting, bool result.",
        RelaxOp("relax.equal")),
    _comparison("not_equal", "Elementwise lhs != rhs with broadcasting, bool result.",
        RelaxOp("relax.not_equal")),
    _comparison("less", "Elementwise lhs < rhs with broadcasting, bool result.",
        RelaxOp("relax.less")),
    _comparison("less_equal", "Elementwise lhs <= rhs with broadcasting, bool result.",
        RelaxOp("relax.less_equal")),
    _comparison("greater", "Elementwise lhs > rhs with broadcasting, bool result.",
        RelaxOp("relax.greater")),
    _comparison("greater_equal", "Elementwise lhs >= rhs with broadcasting, bool result.",
        RelaxOp("relax.greater_equal")),
)
# fmt: on


# fmt: off
LOGICAL_AND_BITWISE: tuple[Operator, ...] = (
    _binary("logical_and", "Elementwise boolean AND with broadcasting.",
        RelaxOp("relax.logical_and")),
    _binary("logical_or", "Elementwise boolean OR with broadcasting.", RelaxOp("relax.logical_or")),
    _binary("logical_xor", "Elementwise boolean XOR with broadcasting.",
        RelaxOp("relax.logical_xor")),
    _binary("bitwise_and", "Elementwise bitwise AND with broadcasting.",
        RelaxOp("relax.bitwise_and")),
    _binary("bitwise_or", "Elementwise bitwise OR with broadcasting.", RelaxOp("relax.bitwise_or")),
    _binary("bitwise_xor", "Elementwise bitwise XOR with broadcasting.",
        RelaxOp("relax.bitwise_xor")),
    _binary("left_shift", "Elementwise lhs << rhs with broadcasting.", RelaxOp("relax.left_shift")),
    _binary("right_shift", "Elementwise lhs >> rhs with broadcasting.",
        RelaxOp("relax.right_shift")),
)
# fmt: on
