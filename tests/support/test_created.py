"""`created`: the very ops ``Operation.create`` makes."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr, TensorType, f32
from xdsl.ir import Attribute, Operation, SSAValue

from relay_xdsl.dialects import relay
from relay_xdsl.support.created import created

T = TensorType(f32, [2, 3])


def _both(
    op_class: type[relay.OperatorOp | relay.LetOp | relay.ConstantOp],
    operands: tuple[SSAValue, ...],
    attributes: dict[str, Attribute],
    location: FileLineColLoc | None = None,
) -> tuple[Operation, Operation]:
    made = created(op_class, operands, T, attributes, location)
    by_create = op_class.create(
        operands=operands, result_types=(T,), attributes=attributes, location=location
    )
    return made, by_create


def test_created_is_what_create_makes_for_every_operator_class(
    op_fields: Callable[[Operation], tuple[object, ...]],
):
    source = xdsl_test.TestOp(result_types=(T, T))
    x, y = source.results
    location = FileLineColLoc(StringAttr("/layer"), IntAttr(0), IntAttr(0))
    for op_class in {*relay.OPERATORS.values(), relay.LetOp, relay.ConstantOp}:
        made, by_create = _both(op_class, (x, y, x), {}, location)
        assert op_fields(made)[1:] == op_fields(by_create)[1:], op_class.name
        assert type(made) is op_class
    # `x` is the first and third operand of every op made, both ways
    uses = [(u.operation, u.index) for u in x.uses]
    assert all(index in (0, 2) for _, index in uses)
    assert len(uses) == 4 * (len(set(relay.OPERATORS.values())) + 2)


def test_created_copies_attributes_and_defaults_the_location():
    attributes: dict[str, Attribute] = {"meta_index": IntAttr(1)}
    made, by_create = _both(relay.ConstantOp, (), attributes)
    assert list(made.attributes.items()) == list(by_create.attributes.items())
    assert made.attributes is not attributes
    assert made.location == by_create.location
