"""The importer's op builders: the very ops their constructors make."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import (
    ArrayAttr,
    TensorType,
    TupleType,
    f32,
)
from xdsl.ir import Operation

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.type_agreement import agreement_record
from relay_xdsl.importers.relay_ops import CheckedCalls, tuple_get_item_op

T = TensorType(f32, [2, 3])


def test_tuple_get_item_op_is_what_its_constructor_makes(
    op_fields: Callable[[Operation], tuple[object, ...]],
):
    pair = TupleType(ArrayAttr([T, TensorType(f32, [4])]))
    source = xdsl_test.TestOp(result_types=(pair, relay.IncompleteType()))
    for value in source.results:
        for index in (0, 1, 2):  # 2: out of range, the tuple's type (the verifier rejects it)
            made = tuple_get_item_op(value, index)
            by_init = relay.TupleGetItemOp(value, index)
            assert op_fields(made)[1:] == op_fields(by_init)[1:]
            assert type(made) is relay.TupleGetItemOp
    assert tuple_get_item_op(source.results[0], 1).result.type == TensorType(f32, [4])


def test_checked_calls_share_one_record_per_signature():
    check = CheckedCalls()
    add = relay.OPERATORS["add"].OPERATOR
    inferred, problem, record = check(add, [T, T], {})
    assert (inferred, problem) == (T, None)
    assert record == agreement_record(T, [T, T], {})
    assert check(add, [T, T], {})[2] is record
