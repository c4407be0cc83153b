"""Relay text import: TVM-printed programs round-trip; bad input is a clean error."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from xdsl.dialects.builtin import FileLineColLoc, StringAttr, TensorType, TupleType
from xdsl.dialects.func import CallOp, FuncOp

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.names import relay_name
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import RelayTextError, parse_relay
from relay_xdsl.relay_text.equivalence import canonical_relay, relay_text_diff
from relay_xdsl.relay_text.metadata import encode_metadata

HERE = Path(__file__).parent
SEED = HERE.parents[1] / "examples" / "seed"
MODULE_TEXTS = sorted(HERE.glob("fixtures/*.relay")) + sorted(SEED.glob("*.relay"))
EXPRESSIONS = sorted(HERE.glob("expressions/*.relay"))

# TVM parser-test expressions that are refused, and why: none since TVM's
# parse_expr, which runs no type inference, reads every one of them.
UNSUPPORTED_EXPRESSIONS: dict[str, str] = {}


def _round_trip(text: str, name: str) -> str:
    module = parse_relay(text, name)
    module.verify()
    printed = print_relay(module)
    again = parse_relay(printed, "printed")
    again.verify()
    assert print_relay(again) == printed, "print(parse(print(x))) is not a fixpoint"
    return printed


# Fixtures written by hand (TVM test sources) in an order TVM's printer does
# not produce, with the text TVM prints for them. TVM binds each argument
# when the walk from the result visits its user (print_order.py), so here the
# two branches' first ops come before either relu chain goes on.
PRINTED_BY_TVM = {
    "collage_fusion_benefit_1": """
      #[version = "0.0.5"]
      def @main(%x: Tensor[(10, 10), float32]) {
        %0 = nn.relu(%x);
        %1 = abs(%x);
        %2 = nn.relu(%0);
        %3 = nn.relu(%1);
        %4 = add(%2, %3);
        %5 = nn.relu(%4);
        abs(%5)
      }
    """,
}


@pytest.mark.parametrize("path", MODULE_TEXTS, ids=lambda p: p.stem)
def test_module_text_round_trips(path: Path):
    text = path.read_text()
    printed = _round_trip(text, str(path))
    expected = PRINTED_BY_TVM.get(path.stem, text)
    assert relay_text_diff(expected, printed) == ""
    # TVM numbers temps in print order, and so does the printer.
    if path.stem not in PRINTED_BY_TVM:
        assert canonical_relay(text, renumber=False) == canonical_relay(printed, renumber=False)
    # The same graph in another order prints the same text.
    assert print_relay(parse_relay(expected)) == printed


@pytest.mark.parametrize("path", EXPRESSIONS, ids=lambda p: p.stem)
def test_expression_imports_or_is_refused_cleanly(path: Path):
    text = path.read_text()
    expected_error = UNSUPPORTED_EXPRESSIONS.get(path.stem)
    if expected_error is not None:
        with pytest.raises(RelayTextError) as error:
            parse_relay(text, path.name)
        assert expected_error in str(error.value)
        assert re.match(rf"{re.escape(path.name)}:\d+:\d+: error: ", str(error.value))
    else:
        _round_trip(text, str(path))


def test_call_attributes_of_a_function_call_round_trip():
    # TVM's parser takes attributes on a call of anything but an operator
    # with the attrs_type_key of their TVM type, and prints the key last.
    path = HERE / "unsupported" / "parser_call_attrs_1.relay"
    printed = _round_trip(path.read_text(), str(path))
    assert '%2(%p0, %p1, name="func_call_attrs", attrs_type_key="attrs.TestAttrs")' in printed
    (fn,) = [op for op in parse_relay(printed).walk() if isinstance(op, relay.FnOp)]
    assert list(fn.attributes[relay.CALL_ATTRS].data) == ["name", "attrs_type_key"]


def test_call_attributes_need_a_type_key():
    text = '#[version = "0.0.5"]\ndef @f(%x: int32) { %x }\ndef @main() { @f(1, name="n") }'
    with pytest.raises(RelayTextError, match="unable to determine the 'attrs_type_key'"):
        parse_relay(text, "attrs.relay")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("parser_init_module_and_metatable_2", "unknown global function @f"),
    ],
)
def test_unsupported_module_is_refused(name: str, message: str):
    path = HERE / "unsupported" / f"{name}.relay"
    with pytest.raises(RelayTextError, match=re.escape(message)):
        parse_relay(path.read_text(), str(path))


def test_seed_fused_module_structure():
    module = parse_relay((SEED / "fused.relay").read_text(), "fused.relay")
    (main,) = module.ops
    assert isinstance(main, FuncOp) and main.sym_name.data == "main"
    assert main.body.block.args[0].name_hint == "data"
    fns = [op for op in main.walk() if isinstance(op, relay.FnOp)]
    assert [fn.attributes["Composite"].data for fn in fns] == ["ccompiler.conv_add_relu"] * 3
    assert [fn.attributes["PartitionedFromPattern"].data for fn in fns] == [
        "nn.conv2d_add_nn.relu_",
        "nn.conv2d_add_nn.relu_",
        "nn.conv2d_add_",
    ]
    assert [relay_name(p) for p in fns[0].params] == [
        "FunctionVar_2_0",
        "FunctionVar_2_1",
        "FunctionVar_2_2",
    ]
    constants = [op for op in main.walk() if isinstance(op, relay.ConstantOp)]
    assert [c.meta_index.value.data for c in constants] == list(range(6))
    conv = next(op for op in main.walk() if isinstance(op, relay.Conv2DOp))
    assert conv.relay_attr("strides") == (2, 2)
    assert conv.relay_attr("padding") == (3, 3, 3, 3)
    assert conv.relay_attr("channels") == 64
    assert conv.relay_attr("data_layout") == "NCHW"  # TVM's default, not stored
    assert "data_layout" not in conv.attributes
    assert isinstance(main.body.block.args[0].type, TensorType)


def test_spans_become_locations():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32]) {
  nn.relu(%x) /* ty=Tensor[(2), float32] span=aten::relu_0:3:7 */
}"""
    module = parse_relay(text)
    relu = next(op for op in module.walk() if isinstance(op, relay.ReluOp))
    assert isinstance(relu.location, FileLineColLoc)
    assert (
        relu.location.filename.data,
        relu.location.line.data,
        relu.location.column.data,
    ) == ("aten::relu_0", 3, 7)
    assert "span=aten::relu_0:3:7" in print_relay(module)


def test_missing_annotations_are_inferred():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) {
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);
  %1 = nn.batch_norm(%0, meta[relay.Constant][0] /* ty=Tensor[(4), float32] */, meta[relay.Constant][1] /* ty=Tensor[(4), float32] */, meta[relay.Constant][2] /* ty=Tensor[(4), float32] */, meta[relay.Constant][3] /* ty=Tensor[(4), float32] */);
  %2 = %1.0;
  %3 = nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2]);
  sum(%3, axis=[1], keepdims=True)
}"""
    module = parse_relay(text)
    (main,) = module.ops
    batch_norm = next(op for op in module.walk() if isinstance(op, relay.BatchNormOp))
    assert isinstance(batch_norm.result.type, TupleType)
    assert (
        str(main.function_type)
        == "(tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x1x4x4xf32>"
    )


def test_calls_between_globals_in_any_order():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(2, 2), float32]) -> Tensor[(2, 2), float32] {
  @helper(%x, %x)
}
def @helper(%a: Tensor[(2, 2), float32], %b: Tensor[(2, 2), float32], Compiler="ccompiler", global_symbol="helper") -> Tensor[(2, 2), float32] {
  add(%a, %b)
}"""
    module = parse_relay(text)
    main, helper = module.ops
    assert [op.sym_name.data for op in module.ops] == ["main", "helper"]
    assert helper.attributes["Compiler"].data == "ccompiler"
    assert helper.attributes["global_symbol"].data == "helper"
    call = next(op for op in main.walk() if isinstance(op, CallOp))
    assert call.callee.string_value() == "helper"


def test_function_literal_called_twice_becomes_two_fn_ops():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32], %y: Tensor[(2), float32]) {
  %0 = fn (%p: Tensor[(2), float32], Primitive=1) -> Tensor[(2), float32] { exp(%p) };
  %1 = %0(%x);
  %2 = %0(%y);
  add(%1, %2)
}"""
    module = parse_relay(text)
    fns = [op for op in module.walk() if isinstance(op, relay.FnOp)]
    assert len(fns) == 2
    assert fns[0].body is not fns[1].body
    assert fns[0].literal == fns[1].literal is not None  # ... from one literal
    printed = print_relay(module)
    assert printed.count("= fn (") == 1  # the literal prints once, as the text had it
    assert relay_text_diff(text, printed) == ""


def test_identical_literals_print_as_often_as_the_text_has_them():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32], %y: Tensor[(2), float32]) -> Tensor[(2), float32] {
  %0 = fn (%p: Tensor[(2), float32], Primitive=1) -> Tensor[(2), float32] { exp(%p) };
  %1 = fn (%p1: Tensor[(2), float32], Primitive=1) -> Tensor[(2), float32] { exp(%p1) };
  %2 = %0(%x);
  %3 = %1(%y);
  add(%2, %3)
}"""
    module = parse_relay(text)
    assert [op.literal for op in module.walk() if isinstance(op, relay.FnOp)] == [None, None]
    printed = print_relay(module)
    assert printed.count("= fn (") == 2
    assert canonical_relay(text, renumber=False) == canonical_relay(printed, renumber=False)


def test_a_shared_literal_changed_in_one_place_prints_twice():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32], %y: Tensor[(2), float32]) -> Tensor[(2), float32] {
  %0 = fn (%p: Tensor[(2), float32], Primitive=1) -> Tensor[(2), float32] { exp(%p) };
  %1 = %0(%x);
  %2 = %0(%y);
  add(%1, %2)
}"""
    module = parse_relay(text)
    second = [op for op in module.walk() if isinstance(op, relay.FnOp)][1]
    second.attributes["Composite"] = StringAttr("changed")  # as a pass might
    printed = print_relay(module)
    assert printed.count("= fn (") == 2
    assert 'Composite="changed"' in printed
    assert print_relay(parse_relay(printed)).count("= fn (") == 2


def test_free_var_program_becomes_main():
    module = parse_relay(
        "free_var %x: Tensor[(3), float32];\nfree_var %y: Tensor[(3), float32];\nadd(%x, %y)"
    )
    (main,) = module.ops
    assert [a.name_hint for a in main.body.block.args] == ["x", "y"]


def test_metadata_section_gives_constants_their_values():
    from xdsl.dialects.builtin import (
        BytesAttr,
        DenseIntOrFPElementsAttr,
        Float32Type,
        IntegerType,
    )

    weights = DenseIntOrFPElementsAttr(
        TensorType(Float32Type(), [2]), BytesAttr(struct.pack("<2f", 1.0, 2.0))
    )
    index = DenseIntOrFPElementsAttr(
        TensorType(IntegerType(64), [3]), BytesAttr(struct.pack("<3q", 5, -1, 7))
    )
    text = (
        '#[version = "0.0.5"]\n'
        "def @main(%x: Tensor[(2), float32]) {\n"
        "  %0 = add(%x, meta[relay.Constant][0]);\n"
        "  (%0, meta[relay.Constant][1])\n"
        "}\n#[metadata]\n" + "".join(encode_metadata([weights, index]))
    )
    module = parse_relay(text)
    values = [op.value for op in module.walk() if isinstance(op, relay.ConstantOp)]
    assert values == [weights, index]
    printed = print_relay(module)
    assert "#[metadata]" in printed
    assert relay_text_diff(text, printed) == ""


def _error(text: str) -> str:
    with pytest.raises(RelayTextError) as error:
        parse_relay(text, "bad.relay")
    return str(error.value)


@pytest.mark.parametrize(
    ("text", "location", "message"),
    [
        (
            '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  nn.relu(%y)\n}',
            "3:11",
            "unknown variable %y",
        ),
        (
            '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  nn.relu(%x\n}',
            "4:1",
            "expected ')' to close the argument list, found '}'",
        ),
        (
            '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  match (%x) { Nil => %x }\n}',
            "3:16",
            "undefined constructor name `Nil`; a pattern variable is written `%Nil`",
        ),
        (
            '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  ref_read(%x)\n}',
            "3:3",
            "'ref_read' needs a reference, got a Tensor[(2), float32]",
        ),
        (
            '#[version = "0.0.5"]\ntype List[A] { Nil }\ntype Option[A] { Nil }',
            "3:18",
            "a constructor with the name `Nil` was previously defined",
        ),
        (
            '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  nn.conv2d(%x, %x, stride=[1, 1])\n}',
            "3:21",
            "'nn.conv2d' has no attribute 'stride'; did you mean 'strides'?",
        ),
        (
            '#[version = "0.0.5"]\ndef @main(%x: Tensor[(-3, 2), float32]) {\n  %x\n}',
            "2:23",
            "a tensor dimension cannot be negative, found -3",
        ),
        (
            '#[version = "0.0.5"]\ndef @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 5, 3, 3), float32]) {\n  nn.conv2d(%x, %w)\n}',
            "3:3",
            "nn.conv2d: the data has 3 input channels but the weight expects 5 (groups=1)",
        ),
        (
            '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  %x\n}\n#[metadata]\n{"root": 1, "nodes": [',
            "6:23",
            "bad #[metadata] section: invalid JSON",
        ),
        (
            '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  add(%x, 1.5)\n}',
            "3:11",
            "invalid integer '1.5' (floats need an 'f' suffix",
        ),
        (
            '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float64]) {\n  nn.relu(%x) /* ty=Tensor[(2), float32] */\n}',
            "3:3",
            "'nn.relu' is annotated as Tensor[(2), float32] but its arguments and attributes give Tensor[(2), float64]",
        ),
    ],
)
def test_errors_point_at_the_problem(text: str, location: str, message: str):
    error = _error(text)
    first_line = error.splitlines()[0]
    assert first_line.startswith(f"bad.relay:{location}: error: "), error
    assert message in first_line, error
    assert "^" in error.splitlines()[2]


def test_nested_literal_called_twice_inside_a_literal():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32]) {
  %2 = fn (%a: Tensor[(2), float32], Primitive=1) {
    %0 = fn (%b: Tensor[(2), float32], Composite="inner") { exp(%b) };
    %1 = %0(%a);
    %0(%1)
  };
  %2(%x)
}"""
    module = parse_relay(text)
    outer = next(op for op in module.walk() if isinstance(op, relay.FnOp))
    inner = [op for op in outer.body.walk() if isinstance(op, relay.FnOp)]
    assert len(inner) == 2 and all(op.parent_op() is outer for op in inner)
    assert relay_text_diff(text, print_relay(module)) == ""


def _nested(depth: int) -> str:
    text = '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n'
    return text + "nn.relu(" * depth + "%x" + ")" * depth + "\n}"


def _nested_literals(depth: int) -> str:
    """`depth` function literals, each defined and called in the one before."""
    t = "Tensor[(2), float32]"
    lines = ['#[version = "0.0.5"]', f"def @main(%x: {t}) {{"]
    lines += [f"%{level} = fn (%p{level}: {t}) {{" for level in range(depth)]
    lines.append(f"nn.relu(%p{depth - 1})")
    for level in reversed(range(depth)):
        lines += ["};", f"%{level}(%p{level - 1})" if level else "%0(%x)"]
    return "\n".join(lines) + "\n}\n"


def test_deep_nesting_imports_within_the_opt_in_and_too_deep_nesting_is_a_clean_error():
    from relay_xdsl.support.depth import MAX_NESTING, run_deep

    module = run_deep(parse_relay, _nested(5000))
    assert sum(isinstance(op, relay.ReluOp) for op in module.walk()) == 5000
    assert run_deep(print_relay, module).count("nn.relu(") == 5000
    with pytest.raises(RelayTextError, match="nested too deeply"):
        run_deep(parse_relay, _nested(MAX_NESTING + 1))


def test_deep_nesting_without_the_opt_in_says_how_to_opt_in():
    import sys

    from relay_xdsl.support.depth import NestingTooDeepError, run_deep

    limit = sys.getrecursionlimit()
    for text in (_nested(5000), _nested_literals(1000)):
        with pytest.raises(NestingTooDeepError, match=r"the Relay text .* relay_xdsl\.run_deep"):
            parse_relay(text)
    module = run_deep(parse_relay, _nested_literals(1000))
    with pytest.raises(NestingTooDeepError, match=r"the module .* relay_xdsl\.run_deep"):
        print_relay(module)
    assert run_deep(print_relay, module).count("= fn (") == 1000
    assert sys.getrecursionlimit() == limit  # the library calls changed nothing


@pytest.mark.parametrize(
    "text",
    [
        # Formerly refused as unsupported ADT constructs. (A complete `match (%x) {}`
        # handles no value: TVM rejects it, and so does the importer.)
        '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  match? (%x) {}\n}',
        '#[version = "0.0.5"]\ntype List[A] { Nil }',
    ],
)
def test_adt_constructs_round_trip(text: str):
    printed = _round_trip(text, "adt.relay")
    assert ("match? (%x) {" in printed) or ("type List[A] {\n  Nil,\n}" in printed)


@pytest.mark.parametrize(
    ("text", "value", "width"),
    [
        ("-42i", -42, 32),  # a bare `i` is int32, as TVM's tokenizer reads it
        ("-42i16", -42, 16),
        ("4294967296i", 4294967296, 64),  # out of int32 range without a width: int64
        ("7", 7, 32),
    ],
)
def test_integer_suffixes(text: str, value: int, width: int):
    module = parse_relay(text, "int.relay")
    (constant,) = [op for op in module.walk() if isinstance(op, relay.ConstantOp)]
    assert constant.result.type.get_element_type().width.data == width
    assert int.from_bytes(constant.value.data.data, "little", signed=True) == value


def test_body_takes_a_declared_return_type_with_dynamic_dimensions():
    # TVM's type solver unifies a size with `?` to `?`: TVM v0.19 prints this
    # module (test_pass_lower_te.py) with the body typed as the declared
    # Tensor[(?, ?), float32] (its output, spans left out, below).
    text = """#[version = "0.0.5"]
def @main(%a: Tensor[(5, 7), float32]) -> Tensor[(?, ?), float32] {
  @my_dyn(%a, %a)
}
def @my_dyn(%x : Tensor[(5, 7), float32], %y : Tensor[(5, 7), float32], Extern=1) -> Tensor[(?, ?), float32] {
  add(%x, %y)
}
"""
    printed_by_tvm = """#[version = "0.0.5"]
def @main(%a: Tensor[(5, 7), float32]) -> Tensor[(?, ?), float32] {
  @my_dyn(%a, %a) /* ty=Tensor[(?, ?), float32] */
}
def @my_dyn(%x: Tensor[(5, 7), float32], %y: Tensor[(5, 7), float32], Extern=1) -> Tensor[(?, ?), float32] {
  add(%x, %y) /* ty=Tensor[(?, ?), float32] */
}
"""
    assert relay_text_diff(printed_by_tvm, _round_trip(text, "dyn.relay")) == ""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 < 1 == 1", "equal: the arguments have different dtypes (bool and int32)"),
        ("free_var %x: float32; %x(%x)", "a value of type float32 is not a function"),
        ("@foo", "@foo is not defined in the module"),
    ],
)
def test_expression_is_read_unchecked_as_tvm_parse_expr_reads_it(text: str, message: str):
    # TVM's parse_expr runs no type inference: the expression imports, prints
    # back as an expression, and relay-infer-type rejects it where it is wrong.
    from xdsl.context import Context

    from relay_xdsl.transforms.diagnostics import PassFailedAtError
    from relay_xdsl.transforms.infer_type import RelayInferTypePass

    printed = _round_trip(text, "expr.relay")
    assert "def @main" not in printed
    module = parse_relay(text, "expr.relay")
    (main,) = module.ops
    assert relay.EXPRESSION in main.attributes
    with pytest.raises(PassFailedAtError, match=re.escape(message)) as error:
        RelayInferTypePass().apply(Context(), module)
    assert str(error.value).startswith("expr.relay:1:")


def test_a_module_is_checked_as_tvm_parse_checks_it():
    text = '#[version = "0.0.5"]\ndef @main() { 1 < 1 == 1 }'
    with pytest.raises(RelayTextError, match="equal: the arguments have different dtypes"):
        parse_relay(text, "module.relay")


def test_split_points_without_their_metadata_come_from_the_annotated_result():
    # TVM's ONNX frontend prints a Split's points as runtime.BoxInt references.
    module = parse_relay(
        '#[version = "0.0.5"]\n'
        "def @main(%x: Tensor[(2, 9), float32]) {\n"
        "  %0 = split(%x, indices_or_sections=[meta[runtime.BoxInt][0], meta[runtime.BoxInt][1]],"
        " axis=-1) /* ty=(Tensor[(2, 2), float32], Tensor[(2, 3), float32],"
        " Tensor[(2, 4), float32]) */;\n"
        "  %0.2\n}\n"
    )
    (split,) = [op for op in module.walk() if getattr(op, "operator_name", "") == "split"]
    assert split.attributes["indices_or_sections"].get_values() == (2, 5)


def test_equal_split_points_filled_in_are_one_attribute_as_an_int_array_literal_is():
    # One attribute for equal points lets repeated splits share their checked signature.
    split = (
        "split(%x, indices_or_sections=[meta[runtime.BoxInt][{}], meta[runtime.BoxInt][{}]],"
        " axis=-1) /* ty=(Tensor[(2, 2), float32], Tensor[(2, 3), float32],"
        " Tensor[(2, 4), float32]) */"
    )
    module = parse_relay(
        '#[version = "0.0.5"]\n'
        "def @main(%x: Tensor[(2, 9), float32]) {\n"
        f"  %0 = {split.format(0, 1)};\n"
        f"  %1 = {split.format(2, 3)};\n"
        "  %2 = split(%x, indices_or_sections=[2, 5], axis=-1);\n"
        "  (%0.2, %1.2, %2.2)\n}\n"
    )
    points = [
        op.attributes["indices_or_sections"]
        for op in module.walk()
        if getattr(op, "operator_name", "") == "split"
    ]
    assert len(points) == 3
    assert points[0] is points[1] is points[2]


@pytest.mark.parametrize(
    ("whole", "by_token"),
    [
        ("newshape=[1, -1, 6]", "newshape=[1,-1,6]"),
        ("newshape=[-2147483648, 2147483647]", "newshape=[ -2147483648, 2147483647 ]"),
        ("newshape=[]", "newshape=[ ]"),
    ],
)
def test_an_int_array_read_whole_is_the_attribute_read_a_token_at_a_time(whole: str, by_token: str):
    def call(attribute: str) -> relay.OperatorOp:
        text = f"fn (%x: float32) {{ my_op(%x, {attribute}) /* ty=float32 */ }}"
        (op,) = [o for o in parse_relay(text).walk() if isinstance(o, relay.OperatorOp)]
        return op

    assert call(whole).attributes == call(by_token).attributes
    assert "newshape" in call(whole).attributes


def test_an_int_array_where_an_expression_is_expected_is_named_by_its_bracket():
    with pytest.raises(
        RelayTextError, match=r"<input>:1:25: error: expected an expression, found '\['"
    ):
        parse_relay("fn (%x: float32) { %0 = [1, 2]; %0 }")


def test_a_binding_call_reads_as_the_same_call_in_parentheses():
    """A binding's call of an operator already seen is read from its call
    on; with a projection or an infix operator after it, it is the module
    that the general path reads from the same call in parentheses."""
    calls = (
        ("add(%0, %x) * %x", "(add(%0, %x)) * %x"),
        ("split(%2, indices_or_sections=2).1 + %x", "(split(%2, indices_or_sections=2)).1 + %x"),
        ("add(%3, %3)", "(add(%3, %3))"),
    )
    texts = []
    for variant in (0, 1):
        lines = [
            "def @main(%x: Tensor[(2), float32]) {",
            "  %0 = add(%x, %x);",
            "  %1 = split(%x, indices_or_sections=2);",
        ]
        lines += [f"  %{i + 2} = {call[variant]};" for i, call in enumerate(calls)]
        texts.append("\n".join([*lines, "  %4", "}"]))
    fast, general = (str(parse_relay(text)) for text in texts)
    assert fast == general
    assert fast.count("relay.split") == 2 and "relay.tuple_get_item" in fast
    assert fast.count("relay.add") == 4 and "relay.multiply" in fast
