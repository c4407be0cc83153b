"""The type solver: unknown types from unification and operator relations
run both ways, as TVM's InferType; contradictions in the operators' terms."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType, TupleType
from xdsl.dialects.func import FuncOp
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay.type_solver import (
    TYPING_RULES,
    TypeInferenceError,
    TypeSolver,
    infer_types,
    rule_for,
)
from relay_xdsl.dialects.relay.types import IncompleteType
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import RelayTextError, parse_relay


def t(*shape: int, dtype: str = "float32") -> TensorType:
    return TensorType(dtypes.element_type(dtype), list(shape))


def _module(body: str, params: str = "") -> ModuleOp:
    return parse_relay(f'#[version = "0.0.5"]\ndef @main({params}) {{\n{body}\n}}\n')


def _constants(module: ModuleOp) -> list[relay.ConstantOp]:
    return [op for op in module.walk() if isinstance(op, relay.ConstantOp)]


def _types_round_trip(module: ModuleOp) -> str:
    module.verify()
    printed = print_relay(module)
    again = parse_relay(printed)
    again.verify()
    assert print_relay(again) == printed
    return printed


# -- unification ---------------------------------------------------------------


def test_unify_binds_unknowns_through_tuples():
    solver = TypeSolver()
    unknown = solver.term_of_type(TupleType((t(2), IncompleteType())))
    solver.unify(unknown, TupleType((t(2), t(3))))
    assert solver.type_of_term(unknown) == TupleType((t(2), t(3)))


def test_unify_accepts_a_dynamic_dimension():
    solver = TypeSolver()
    solver.unify(TensorType(dtypes.element_type("float32"), [DYNAMIC_INDEX, 3]), t(2, 3))


def test_unify_refuses_different_types():
    solver = TypeSolver()
    with pytest.raises(Exception):  # noqa: B017 - the solver's private mismatch
        solver.unify(t(2), t(3))


# -- backward relations --------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "weight"),
    [
        ("nn.conv2d(%x, meta[relay.Constant][0], channels=8, kernel_size=[3, 3])", t(8, 4, 3, 3)),
        (
            (
                "nn.conv2d(%x, meta[relay.Constant][0], channels=8, kernel_size=[3, 1], "
                'kernel_layout="HWIO")'
            ),
            t(3, 1, 4, 8),
        ),
        (
            (
                "nn.conv2d_transpose(%x, meta[relay.Constant][0], channels=6, kernel_size=[2, 2], "
                "groups=2)"
            ),
            t(4, 3, 2, 2),
        ),
    ],
)
def test_convolution_weight_from_channels_and_kernel_size(call: str, weight: TensorType):
    module = _module(call, "%x: Tensor[(1, 4, 8, 8), float32]")
    (constant,) = _constants(module)
    assert constant.result.type == weight
    _types_round_trip(module)


def test_conv1d_and_conv3d_weights():
    module = _module(
        "nn.conv1d(%x, meta[relay.Constant][0], channels=2, kernel_size=[5])",
        "%x: Tensor[(1, 3, 10), float32]",
    )
    assert _constants(module)[0].result.type == t(2, 3, 5)
    module = _module(
        "nn.conv3d(%x, meta[relay.Constant][0], channels=2, kernel_size=[1, 2, 3])",
        "%x: Tensor[(1, 3, 4, 4, 4), float16]",
    )
    assert _constants(module)[0].result.type == t(2, 3, 1, 2, 3, dtype="float16")


def test_dense_weight_from_units():
    module = _module(
        "nn.dense(%x, meta[relay.Constant][0], units=10)", "%x: Tensor[(2, 7), float32]"
    )
    assert _constants(module)[0].result.type == t(10, 7)


@pytest.mark.parametrize(
    ("call", "count", "vector"),
    [
        (
            (
                "%0 = nn.batch_norm(%x, meta[relay.Constant][0], meta[relay.Constant][1], "
                "meta[relay.Constant][2], meta[relay.Constant][3]);\n%0.0"
            ),
            4,
            t(4),
        ),
        ("nn.layer_norm(%x, meta[relay.Constant][0], meta[relay.Constant][1])", 2, t(8)),
        (
            "nn.group_norm(%x, meta[relay.Constant][0], meta[relay.Constant][1], num_groups=2)",
            2,
            t(4),
        ),
        ("nn.instance_norm(%x, meta[relay.Constant][0], meta[relay.Constant][1])", 2, t(4)),
        ("nn.bias_add(%x, meta[relay.Constant][0])", 1, t(4)),
    ],
)
def test_normalisation_parameters_from_the_data(call: str, count: int, vector: TensorType):
    module = _module(call, "%x: Tensor[(1, 4, 8, 8), float32]")
    constants = _constants(module)
    assert [c.result.type for c in constants] == [vector] * count
    _types_round_trip(module)


def test_broadcast_with_a_scalar_determines_the_other_argument():
    module = _module(
        "%0 = add(meta[relay.Constant][0], 1f);\nnn.conv2d(%0, %w)",
        "%w: Tensor[(2, 3, 1, 1), float32]",
    )
    # conv2d's result is unknown, so nothing determines the sum: it stays unknown.
    assert isinstance(_constants(module)[0].result.type, IncompleteType)
    module = _module(
        "%0 = add(meta[relay.Constant][0], 1f) /* ty=Tensor[(2, 3), float32] */;\nnn.relu(%0)"
    )
    assert _constants(module)[0].result.type == t(2, 3)


def test_elementwise_result_types_its_argument():
    module = _module(
        "%0 = nn.relu(meta[relay.Constant][0]);\nadd(%0, %x)", "%x: Tensor[(3), float32]"
    )
    # add gives no type backwards when its other argument is not all ones.
    assert isinstance(_constants(module)[0].result.type, IncompleteType)
    module = _module("nn.relu(meta[relay.Constant][0]) /* ty=Tensor[(3), float32] */")
    assert _constants(module)[0].result.type == t(3)


# -- across functions ----------------------------------------------------------


def test_global_parameters_from_call_sites():
    module = parse_relay(
        '#[version = "0.0.5"]\n'
        "def @f(%a) { nn.relu(%a) }\n"
        "def @main(%x: Tensor[(2, 2), float32]) { @f(%x) }\n"
    )
    f = next(op for op in module.ops if isinstance(op, FuncOp) and op.sym_name.data == "f")
    assert f.function_type.inputs.data == (t(2, 2),)
    assert f.function_type.outputs.data == (t(2, 2),)
    printed = _types_round_trip(module)
    assert (
        "def @f(%a: Tensor[(2, 2), float32] /* ty=Tensor[(2, 2), float32] */)"
        " -> Tensor[(2, 2), float32]" in printed
    )


def test_undetermined_types_stay_incomplete_and_print_untyped():
    module = parse_relay("fn (%x, %y) { %x + %y }")
    (main,) = module.ops
    assert all(isinstance(a.type, IncompleteType) for a in main.body.block.args)
    printed = _types_round_trip(module)
    assert "def @main(%x, %y) {" in printed


@pytest.mark.parametrize(
    "call",
    [
        "split(meta[relay.Constant][0], indices_or_sections=[2, 4], axis=1)",
        "nn.batch_norm(meta[relay.Constant][0], %g, %g, %g, %g)",
        "concatenate(meta[relay.Constant][0])",
    ],
)
def test_undetermined_tuple_results_stay_incomplete(call: str):
    # TVM cannot type these either without the constant's metadata; the
    # result is neither known to be a tuple nor a tensor until then.
    module = _module(f"%0 = {call};\n%0", "%g: Tensor[(4), float32]")
    printed = _types_round_trip(module)
    # Only the parameter's declaration has a type comment.
    assert "/* ty=" not in printed.replace(
        "%g: Tensor[(4), float32] /* ty=Tensor[(4), float32] */", ""
    )


def test_let_annotation_types_an_unknown_value():
    module = _module("let %c: Tensor[(5), int32] = meta[relay.Constant][0];\n%c")
    assert _constants(module)[0].result.type == t(5, dtype="int32")


# -- contradictions ------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "body", "message"),
    [
        (
            "%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 5, 3, 3), float32]",
            "nn.conv2d(%x, %w, channels=4, kernel_size=[3, 3])",
            "nn.conv2d: the data has 3 input channels but the weight expects 5 (groups=1)",
        ),
        (
            "%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(6, 3, 3, 3), float32]",
            "nn.conv2d(%x, %w, channels=4, kernel_size=[3, 3])",
            "nn.conv2d: the weight has 6 output channels but channels=4",
        ),
        (
            "%x: Tensor[(2, 7), float32], %w: Tensor[(10, 6), float32]",
            "nn.dense(%x, %w, units=10)",
            "nn.dense: the data has 7 input features but the weight expects 6",
        ),
        (
            "%x: Tensor[(1, 4), float32], %g: Tensor[(3), float32]",
            "%0 = nn.batch_norm(%x, %g, %g, %g, %g);\n%0.0",
            (
                "nn.batch_norm: argument #1 has type Tensor[(3), float32] but the call requires "
                "Tensor[(4), float32]"
            ),
        ),
        (
            "%x: Tensor[(2, 3), float32], %y: Tensor[(4), float32]",
            "add(%x, %y)",
            "add: the shapes (2, 3) and (4) do not broadcast",
        ),
        (
            "%x",
            (
                "%0 = nn.relu(%x) /* ty=Tensor[(3), float32] */;\n"
                "add(%0, %x) /* ty=Tensor[(4), float32] */"
            ),
            (
                "'add' is annotated as Tensor[(4), float32] but its arguments and attributes give "
                "Tensor[(3), float32]"
            ),
        ),
        (
            "",
            (
                "%0 = (meta[relay.Constant][0], meta[relay.Constant][0]);\n"
                "%1 = nn.relu(%0.0) /* ty=Tensor[(3), float32] */;\n"
                "nn.relu(%0.1) /* ty=Tensor[(4), float32] */"
            ),
            "nn.relu: argument #0 does not have the type the call requires",
        ),
    ],
)
def test_contradictions_are_errors_with_a_position(params: str, body: str, message: str):
    with pytest.raises(RelayTextError) as error:
        parse_relay(f'#[version = "0.0.5"]\ndef @main({params}) {{\n{body}\n}}\n', "bad.relay")
    assert message in str(error.value)
    assert str(error.value).startswith("bad.relay:")


def test_solver_error_names_the_op():
    module = _module("nn.relu(meta[relay.Constant][0]) /* ty=Tensor[(3), float32] */")
    relu = next(op for op in module.walk() if isinstance(op, relay.ReluOp))
    # An edit that breaks the types: the relu now claims another type.
    Rewriter.replace_value_with_new_type(relu.result, t(4))
    with pytest.raises(TypeInferenceError) as error:
        infer_types(module)
    assert "Tensor[(4), float32] and Tensor[(3), float32] differ" in error.value.message
    assert error.value.op is not None


# -- the rule registry ---------------------------------------------------------


def test_rules_are_found_by_class():
    assert rule_for(relay.Conv2DOp) is TYPING_RULES[relay.RegisteredOperatorOp]
    assert rule_for(relay.GenericOperatorOp) is None
    assert rule_for(relay.TupleOp) is TYPING_RULES[relay.TupleOp]
