"""The operator registry: every operator has all its facts, and nothing drifts.

Each operator is one row (``relay_xdsl.dialects.relay.operators``); these tests
fail when a row lacks a fact (name, arity, schema, fusion pattern, forward type
relation, a Relax mapping or the documented reason for none), when the tables
derived from the rows (op classes, the dialect, the name tables) disagree with
them, and when a type relation or Relax mapping is left without its operator.
"""

from __future__ import annotations

import inspect
import re

import pytest
from xdsl.dialects.builtin import TensorType, f32
from xdsl.utils.test_value import create_ssa_value

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import inference, operators
from relay_xdsl.dialects.relay.registry import NoKernel, NoLowering, NoRelax, Operator, class_name
from relay_xdsl.dialects.relay.relax_mapping import ArgRole, RelaxOp

ROWS = operators.ALL
OPERATOR_CLASSES = (*relay.OPERATOR_OPS, *relay.RELAX_OPERATOR_OPS)


def _row_id(row: Operator) -> str:
    return row.name


@pytest.mark.parametrize("row", ROWS, ids=_row_id)
def test_every_row_has_all_its_facts(row: Operator):
    assert re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*", row.name)
    assert row.summary.strip(), "a summary of what the operator computes"
    assert row.arity is None or (isinstance(row.arity, int) and row.arity >= 0)
    assert isinstance(row.attrs, tuple)
    assert all(isinstance(a, relay.RelayAttr) for a in row.attrs)
    assert all(isinstance(a.kind, relay.AttrKind) for a in row.attrs)
    assert len(row.schema) == len(row.attrs), "attribute names are unique"
    assert isinstance(row.pattern, relay.OpPattern)
    assert callable(row.infer), "a forward type relation"
    assert row.returns_tuple in (True, False, None)
    assert not row.tuple_input or row.arity == 1
    if isinstance(row.relax, RelaxOp):
        assert row.relax.relax_name.startswith("relax.")
    else:
        assert isinstance(row.relax, NoRelax), "a Relax mapping or the reason for none"
        assert len(row.relax.reason) > 10, "the reason says why"
    assert row.backward is None or callable(row.backward)
    for named in (row.kernel, row.lowering):
        if named is not None:
            assert isinstance(named, (NoKernel, NoLowering)), "only the absence is in the row"
            assert len(named.reason) > 10, "the reason says why"


def test_a_row_without_a_relation_or_a_relax_decision_is_refused():
    with pytest.raises(TypeError, match="infer"):
        Operator("f", "F.", pattern=relay.OpPattern.OPAQUE, relax=relay.no_relax("none."))
    with pytest.raises(TypeError, match="relax"):
        Operator("f", "F.", pattern=relay.OpPattern.OPAQUE, infer=inference.same_type)


def test_names_are_unique():
    names = [row.name for row in ROWS]
    assert len(set(names)) == len(names)
    # A Relax operator maps onto at most one Relay operator, and at most one Relax-only one.
    for rows in (operators.RELAY_OPERATORS, operators.RELAX_ONLY_OPERATORS):
        relax_names = [row.relax.relax_name for row in rows if isinstance(row.relax, RelaxOp)]
        assert len(set(relax_names)) == len(relax_names)


@pytest.mark.parametrize("row", [r for r in ROWS if isinstance(r.relax, RelaxOp)], ids=_row_id)
def test_relax_mapping_names_schema_attributes(row: Operator):
    mapping = row.relax
    assert isinstance(mapping, RelaxOp)
    stored = [f.relay_name for f in mapping.fields]
    stored += [a.attr for a in mapping.args or () if a.role is not ArgRole.TENSOR]
    stored += list(mapping.relay_defaults_only)
    assert set(stored) <= set(row.schema)
    tensors = sum(1 for a in mapping.args or () if a.role is ArgRole.TENSOR)
    assert mapping.args is None or row.arity in (None, tensors)


# ---------------------------------------------------------------------------
# The tables derived from the rows
# ---------------------------------------------------------------------------


def test_every_operator_op_of_the_dialect_has_a_row():
    dialect_ops = [
        op
        for op in relay.Relay.operations
        if issubclass(op, relay.OperatorOp) and op is not relay.GenericOperatorOp
    ]
    assert sorted(op.OPERATOR.name for op in dialect_ops) == sorted(row.name for row in ROWS)
    assert {op.OPERATOR for op in dialect_ops} == set(ROWS)


@pytest.mark.parametrize("op", OPERATOR_CLASSES, ids=lambda op: op.__name__)
def test_op_class_is_generated_from_its_row(op: type[relay.RegisteredOperatorOp]):
    row = op.OPERATOR
    assert row is not None
    assert op.name == row.op_name == f"relay.{row.name}"
    assert op.__name__ == class_name(row.name)
    assert getattr(relay, op.__name__) is op
    assert " ".join((op.__doc__ or "").split()) == " ".join(row.summary.split())
    operands = [name for name, _ in op.get_irdl_definition().operands]
    assert operands == (["args"] if row.operand_names is None else list(row.operand_names))
    # The row is the op's only class variable: nothing of it is copied onto the class.
    constants = {name for cls in op.__mro__ for name in vars(cls) if name.isupper()}
    assert constants == {"OPERATOR"}


@pytest.mark.parametrize(
    "row", [r for r in ROWS if r.arity is not None and r.arity > 2], ids=_row_id
)
def test_rows_of_three_or_more_arguments_name_them(row: Operator):
    assert row.operands is not None, "TVM's add_argument names, as operands=(...)"


def test_named_operands_are_the_arguments_in_order():
    x = create_ssa_value(TensorType(f32, [1, 3, 8, 8]))
    w = create_ssa_value(TensorType(f32, [4, 3, 3, 3]))
    op = relay.Conv2DOp([x, w], TensorType(f32, [1, 4, 6, 6]))
    assert (op.data, op.weight) == (x, w)
    assert op.args == (x, w)
    op.verify()


def test_operand_names_must_match_the_arity():
    with pytest.raises(ValueError, match="'f' names 2 operand"):
        Operator(
            "f",
            "F.",
            operands=("a", "b"),
            pattern=relay.OpPattern.OPAQUE,
            infer=inference.same_type,
            relax=relay.no_relax("none."),
        )


def test_name_tables_follow_the_rows():
    assert list(relay.OPERATORS) == [row.name for row in operators.RELAY_OPERATORS]
    assert list(relay.RELAX_OPERATORS) == [row.name for row in operators.RELAX_ONLY_OPERATORS]
    mapped: dict[str, tuple[object, ...]] = {}
    for row in ROWS:  # Relay rows come first, so import tries them first
        if isinstance(row.relax, RelaxOp):
            mapped[row.relax.relax_name] = (*mapped.get(row.relax.relax_name, ()), row)
    assert {
        name: tuple(op.OPERATOR for op in ops) for name, ops in relay.RELAX_MAPPED.items()
    } == mapped


def test_groups_hold_every_row_once():
    grouped = [row for group in operators.GROUPS for row in group.rows]
    assert grouped == list(ROWS)
    assert len({group.title for group in operators.GROUPS}) == len(operators.GROUPS)


@pytest.mark.parametrize(
    "name, expected",
    [
        ("nn.conv2d", "Conv2DOp"),
        ("nn.max_pool2d", "MaxPool2DOp"),
        ("nn.relu", "ReluOp"),
        ("add", "AddOp"),
        ("gather_nd", "GatherNdOp"),
        ("nn.l2_normalize", "L2NormalizeOp"),
        ("log10", "Log10Op"),
        ("nn.upsampling3d", "Upsampling3DOp"),
        ("image.resize2d", "Resize2DOp"),
        ("relax.nn.gelu_tanh", "RelaxGeluTanhOp"),
    ],
)
def test_class_names_derive_from_operator_names(name: str, expected: str):
    assert class_name(name) == expected


# ---------------------------------------------------------------------------
# Nothing left over: every relation serves an operator
# ---------------------------------------------------------------------------


def _relations() -> dict[str, object]:
    """The public functions of inference.py that are relations or make them."""
    return {
        name: value
        for name, value in vars(inference).items()
        if not name.startswith("_")
        and inspect.isfunction(value)
        and value.__module__ == inference.__name__
        and name != "infer_type"
    }


@pytest.mark.parametrize("name", sorted(_relations()))
def test_every_relation_serves_an_operator(name: str):
    relation = _relations()[name]
    made_by = f"{getattr(relation, '__name__', '')}.<locals>."
    assert any(
        row.infer is relation or row.infer.__qualname__.startswith(made_by) for row in ROWS
    ), f"inference.{name} is the relation of no operator"
