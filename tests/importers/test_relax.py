"""Relax import: live TVM modules become relay-dialect IR that keeps everything.

Each import is checked by exporting it again: ``tvm.ir.assert_structural_equal``
against the original Relax module is the strongest equivalence TVM offers.
"""

from __future__ import annotations

import inspect
from collections import Counter
from io import StringIO

import numpy as np
import pytest
import torch
import torchvision
import tvm
from tvm import relax
from tvm.relax import op as R
from tvm.relax.dpl import is_op, wildcard
from tvm.relax.frontend.torch import from_exported_program
from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, Builtin, ModuleOp
from xdsl.dialects.func import CallOp, Func, FuncOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import relax_mapping as relax_ops
from relay_xdsl.dialects.relay.bindings import returned_values
from relay_xdsl.dialects.relay.names import relay_name
from relay_xdsl.exporters.relax import export_relax
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relax import RelaxImportError, import_relax
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import parameters, run
from relay_xdsl.tvm import models as tvm_models

pytestmark = pytest.mark.tvm


def tensor(*shape: int | tvm.ir.Var, dtype: str = "float32") -> relax.TensorType:
    return relax.TensorType(list(shape), dtype)


def single_op_module(build, *param_types: relax.TensorType) -> tvm.IRModule:
    """``main`` computing ``build(params)`` in one dataflow binding."""
    bb = relax.BlockBuilder()
    params = [relax.Var(f"p{i}", t) for i, t in enumerate(param_types)]
    with bb.function("main", params):
        with bb.dataflow():
            out = bb.emit_output(build(*params), "out")
        bb.emit_func_output(out)
    return bb.get()


def round_trip(mod: tvm.IRModule) -> ModuleOp:
    """Import `mod`, verify it, and check that export gives `mod` back exactly."""
    module = import_relax(mod)
    module.verify()
    tvm.ir.assert_structural_equal(export_relax(module), mod)
    return module


def operators(module: ModuleOp) -> list[relay.OperatorOp]:
    return [op for op in module.walk() if isinstance(op, relay.OperatorOp)]


# ---------------------------------------------------------------------------
# Operators
# ---------------------------------------------------------------------------

F4 = tensor(1, 4, 8, 8)
BN_PARAMS = (F4, tensor(4), tensor(4), tensor(4), tensor(4))

# One call per mapped Relax operator, with non-default attributes where there are any.
MAPPED_CALLS = {
    "relax.nn.conv1d": (
        lambda x, w: R.nn.conv1d(x, w, padding=1),
        tensor(1, 4, 8),
        tensor(4, 4, 3),
    ),
    "relax.nn.conv2d": (
        lambda x, w: R.nn.conv2d(x, w, strides=2, padding=(1, 0), out_dtype="float32"),
        F4,
        tensor(4, 4, 3, 3),
    ),
    "relax.nn.conv3d": (
        lambda x, w: R.nn.conv3d(x, w),
        tensor(1, 4, 8, 8, 8),
        tensor(4, 4, 3, 3, 3),
    ),
    "relax.nn.conv2d_transpose": (
        lambda x, w: R.nn.conv2d_transpose(x, w, strides=2, output_padding=1),
        F4,
        tensor(4, 4, 3, 3),
    ),
    "relax.nn.conv1d_transpose": (
        lambda x, w: R.nn.conv1d_transpose(x, w, strides=2, output_padding=1),
        tensor(1, 4, 8),
        tensor(4, 4, 3),
    ),
    "relax.nn.conv3d_transpose": (
        lambda x, w: R.nn.conv3d_transpose(x, w, padding=1),
        tensor(1, 4, 4, 4, 4),
        tensor(4, 4, 3, 3, 3),
    ),
    "relax.gather_elements": (
        lambda x, i: R.gather_elements(x, i, axis=1),
        F4,
        tensor(1, 2, 8, 8, dtype="int32"),
    ),
    "relax.full": (lambda: R.full((2, 3), relax.const(1.5, "float32")),),
    "relax.zeros": (lambda: R.zeros((2, 3), "int32"),),
    "relax.ones": (lambda: R.ones((2, 3), "float16"),),
    "relax.nn.pad": (lambda x: R.nn.pad(x, [0, 0, 0, 0, 1, 1, 2, 2], pad_value=1.5), F4),
    "relax.arange": (lambda: R.arange(0, 10, 2, "int64"),),
    "relax.slice_scatter": (
        lambda x, s: R.slice_scatter(x, s, 0, 8, 2, axis=2),
        F4,
        tensor(1, 4, 4, 8),
    ),
    "relax.image.grid_sample": (
        lambda x, g: R.image.grid_sample(x, g, align_corners=True),
        F4,
        tensor(1, 2, 4, 4),
    ),
    "relax.nn.max_pool1d": (lambda x: R.nn.max_pool1d(x, 2), tensor(1, 4, 8)),
    "relax.nn.max_pool2d": (
        lambda x: R.nn.max_pool2d(x, (3, 3), strides=2, padding=1, ceil_mode=True),
        F4,
    ),
    "relax.nn.max_pool3d": (lambda x: R.nn.max_pool3d(x, 2), tensor(1, 4, 8, 8, 8)),
    "relax.nn.avg_pool1d": (
        lambda x: R.nn.avg_pool1d(x, 2, count_include_pad=True),
        tensor(1, 4, 8),
    ),
    "relax.nn.avg_pool2d": (lambda x: R.nn.avg_pool2d(x, 2), F4),
    "relax.nn.avg_pool3d": (lambda x: R.nn.avg_pool3d(x, 2), tensor(1, 4, 8, 8, 8)),
    "relax.nn.adaptive_avg_pool2d": (lambda x: R.nn.adaptive_avg_pool2d(x, (1, 1)), F4),
    "relax.nn.softmax": (lambda x: R.nn.softmax(x, axis=1), F4),
    "relax.nn.log_softmax": (lambda x: R.nn.log_softmax(x), F4),
    "relax.nn.leakyrelu": (lambda x: R.nn.leakyrelu(x, 0.2), F4),
    "relax.nn.prelu": (lambda x, a: R.nn.prelu(x, a), F4, tensor(4)),
    "relax.nn.dropout": (lambda x: R.nn.dropout(x, 0.3), F4),
    "relax.nn.batch_norm": (
        lambda *a: R.nn.batch_norm(*a, axis=1, epsilon=1e-3, training=False),
        *BN_PARAMS,
    ),
    "relax.nn.layer_norm": (
        lambda x, g, b: R.nn.layer_norm(x, g, b, axes=[-1]),
        F4,
        tensor(8),
        tensor(8),
    ),
    "relax.sum": (lambda x: R.sum(x, axis=[1], keepdims=True), F4),
    "relax.mean": (lambda x: R.mean(x), F4),
    "relax.max": (lambda x: R.max(x, axis=[-1]), F4),
    "relax.min": (lambda x: R.min(x, axis=[0, 1]), F4),
    "relax.prod": (lambda x: R.prod(x, axis=[2]), F4),
    "relax.permute_dims": (lambda x: R.permute_dims(x, [0, 2, 3, 1]), F4),
    "relax.reshape": (lambda x: R.reshape(x, (1, -1)), F4),
    "relax.broadcast_to": (lambda x: R.broadcast_to(x, (2, 4, 8, 8)), F4),
    "relax.concat": (lambda x, y: R.concat([x, y], axis=1), F4, F4),
    "relax.stack": (lambda x, y: R.stack([x, y], axis=0), F4, F4),
    "relax.split": (lambda x: R.split(x, [1, 3], axis=1), F4),
    "relax.expand_dims": (lambda x: R.expand_dims(x, [1]), F4),
    "relax.squeeze": (lambda x: R.squeeze(x, [0]), F4),
    "relax.take": (lambda x, i: R.take(x, i, axis=1), F4, tensor(2, dtype="int64")),
    "relax.tile": (lambda x: R.tile(x, [1, 2]), F4),
    "relax.flip": (lambda x: R.flip(x, 2), F4),
    "relax.repeat": (lambda x: R.repeat(x, 2, axis=1), F4),
    "relax.astype": (lambda x: R.astype(x, "float16"), F4),
    "relax.clip": (lambda x: R.clip(x, 0.0, 6.0), F4),
    "relax.full_like": (lambda x: R.full_like(x, relax.const(2.0)), F4),
    "relax.matmul": (lambda x, y: R.matmul(x, y), tensor(2, 3, 4), tensor(4, 5)),
    "relax.strided_slice": (
        lambda x: R.strided_slice(x, [1, 2], [0, 1], [4, 8], [2, 3], assume_inbound=True),
        F4,
    ),
    "relax.where": (lambda c, x, y: R.where(c, x, y), tensor(1, 4, 8, 8, dtype="bool"), F4, F4),
}

# The same operators with the Relax attribute values a mapping treats specially.
MAPPED_VARIANTS = {
    "adaptive_avg_pool2d without output size": (lambda x: R.nn.adaptive_avg_pool2d(x), F4),
    "permute_dims reversing": (lambda x: R.permute_dims(x), F4),
    "squeeze of all unit axes": (lambda x: R.squeeze(x), F4),
    "reshape to an empty dimension": (lambda x: R.reshape(x, (0, 4)), tensor(0, 2, 2)),
    "split in sections": (lambda x: R.split(x, 2, axis=1), F4),
    "strided_slice without strides": (lambda x: R.strided_slice(x, [1], [0], [2]), F4),
}


def _default_call(relax_name: str):
    """A call of a mapped Relax operator without attributes (elementwise operators)."""
    build = getattr(R, relax_name.removeprefix("relax."), None)
    if build is None:
        build = getattr(R.nn, relax_name.removeprefix("relax.nn."))
    arity = sum(
        1
        for p in inspect.signature(build).parameters.values()
        if p.default is inspect.Parameter.empty
    )
    dtype = "float32"
    if "logical" in relax_name:
        dtype = "bool"
    elif "bitwise" in relax_name or "shift" in relax_name:
        dtype = "int32"
    return (build, *[tensor(1, 4, 8, 8, dtype=dtype)] * arity)


@pytest.mark.parametrize("relax_name", relay.RELAX_MAPPED)
def test_every_mapped_operator_imports_as_its_dialect_op(relax_name: str):
    build, *types = MAPPED_CALLS.get(relax_name) or _default_call(relax_name)
    module = round_trip(single_op_module(build, *types))
    (op,) = (op for op in operators(module))
    assert type(op) is relay.RELAX_MAPPED[relax_name][0]
    op.verify()


# Calls the Relay operator cannot express, imported as the Relax-only operator.
RELAX_ONLY_CALLS = {
    "batch_norm in training": (lambda *a: R.nn.batch_norm(*a, axis=1), *BN_PARAMS),
    "batch_norm with another momentum": (
        lambda *a: R.nn.batch_norm(*a, axis=1, momentum=0.2, training=False),
        *BN_PARAMS,
    ),
}


@pytest.mark.parametrize("case", RELAX_ONLY_CALLS, ids=str)
def test_calls_beyond_the_relay_operator_import_as_the_relax_only_one(case: str):
    build, *types = RELAX_ONLY_CALLS[case]
    (op,) = operators(round_trip(single_op_module(build, *types)))
    assert op.operator_name.startswith("relax.")
    assert not isinstance(op, relay.GenericOperatorOp)


def test_repeated_calls_beyond_the_relay_operator_import_alike():
    """The second call's attributes, encoded once, go to the same Relax-only op."""

    def build(x, *params):
        first = R.nn.batch_norm(x, *params, axis=1, momentum=0.2, training=False)
        return R.nn.batch_norm(first[0], *params, axis=1, momentum=0.2, training=False)

    ops = operators(round_trip(single_op_module(build, *BN_PARAMS)))
    names = [op.operator_name for op in ops]
    assert names == ["relax.nn.batch_norm", "relax.nn.batch_norm"]


@pytest.mark.parametrize("case", MAPPED_VARIANTS, ids=str)
def test_special_attribute_values_stay_mapped(case: str):
    build, *types = MAPPED_VARIANTS[case]
    (op,) = operators(round_trip(single_op_module(build, *types)))
    assert not isinstance(op, relay.GenericOperatorOp)


def test_tuple_types_are_ordinary_attributes():
    """A tuple type from Relax hashes and equals the one the Relay text parser makes."""
    module = round_trip(single_op_module(lambda x: R.split(x, [1, 3], axis=1), F4))
    (op,) = operators(module)
    (reparsed,) = operators(parse_relay(print_relay(module)))
    assert hash(op.result.type) == hash(reparsed.result.type)
    assert op.result.type == reparsed.result.type


def test_conv2d_attributes_follow_the_relay_schema():
    w = tensor(4, 4, 3, 3)
    build = lambda x, w: R.nn.conv2d(x, w, strides=2, padding=1, out_dtype="float32")
    (op,) = operators(round_trip(single_op_module(build, F4, w)))
    assert isinstance(op, relay.Conv2DOp)
    assert op.relay_attr("strides") == (2, 2)
    assert op.relay_attr("padding") == (1, 1, 1, 1)
    assert op.relay_attr("groups") == 1
    assert op.relay_attr("out_dtype") == "float32"
    assert op.relay_attr("out_layout") == "NCHW"
    # Relay's own fields that Relax lacks stay at their defaults.
    assert "channels" not in op.attributes and "kernel_size" not in op.attributes


# Calls that a mapping cannot express exactly, and unknown operators: relay.op.
GENERIC_CALLS = {
    "max_pool2d counting padding": (lambda x: R.nn.max_pool2d(x, 2, count_include_pad=True), F4),
    "zeros_like with a dtype": (lambda x: R.zeros_like(x, "int32"), F4),
    "layer_norm over two axes": (
        lambda x, g, b: R.nn.layer_norm(x, g, b, axes=[-2, -1]),
        F4,
        tensor(8, 8),
        tensor(8, 8),
    ),
    "expand_dims of two axes": (lambda x: R.expand_dims(x, [0, 2]), F4),
    "softplus": (lambda x: R.nn.softplus(x, 2.0, 10.0), F4),
    "cumsum": (lambda x: R.cumsum(x, axis=1, exclusive=True), F4),
    "argmax": (lambda x: R.argmax(x, 1, keepdims=True), F4),
    "one_hot (typed scalar arguments)": (
        lambda i: R.one_hot(
            i,
            relax.prim_value(tvm.tirx.FloatImm("float32", 1.0)),
            relax.prim_value(tvm.tirx.FloatImm("float32", 0.0)),
            5,
            -1,
        ),
        tensor(4, dtype="int32"),
    ),
}


@pytest.mark.parametrize("case", GENERIC_CALLS, ids=str)
def test_unmappable_calls_import_generically_and_losslessly(case: str):
    build, *types = GENERIC_CALLS[case]
    mod = single_op_module(build, *types)
    (op,) = operators(round_trip(mod))
    assert isinstance(op, relay.GenericOperatorOp)
    call = mod["main"].body.blocks[0].bindings[0].value
    assert op.operator_name == call.op.name
    if call.attrs is not None:
        fields = type(call.attrs).__tvm_ffi_type_info__.fields
        assert {f.name for f in fields} <= set(op.attributes)


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        3,
        -(2**40),
        2.5,
        "NCHW",
        [1, 2],
        ["a", 1],
        {"k": [1]},
        relax_ops.PrimValue(7, "int32"),
        relax_ops.PrimValue(1, "int64"),
    ],
    ids=repr,
)
def test_schema_free_attribute_values_round_trip(value):
    assert relax_ops.decode_value(relax_ops.encode_value(value)) == value


def test_unrepresentable_attribute_is_an_error():
    build = lambda x: R.layout_transform(x, index_map=lambda a, b, c, d: (a, c, d, b))
    with pytest.raises(RelaxImportError, match="IndexMap"):
        import_relax(single_op_module(build, F4))


# ---------------------------------------------------------------------------
# Values, names, constants, types
# ---------------------------------------------------------------------------


def test_names_visibility_and_function_attributes():
    x = relax.Var("data", F4)
    bb = relax.BlockBuilder()
    with bb.function("main", [x], {"my_flag": 3}):
        with bb.dataflow():
            relu = bb.emit(R.nn.relu(x), "activated")
            pair = bb.emit(relax.Tuple([relu, x]), "pair")
            first = bb.emit(relax.TupleGetItem(pair, 0), "first_1")
            out = bb.emit_output(R.add(first, relu), "out")
        bb.emit_func_output(out)
    module = round_trip(bb.get())
    (func,) = module.ops
    assert isinstance(func, FuncOp)
    assert func.sym_visibility is None
    assert func.attributes["global_symbol"].data == "main"
    assert func.attributes["my_flag"].value.data == 3
    assert relay_name(func.body.block.args[0]) == "data"
    named = [op for op in func.body.block.ops if op.results and relay_name(op.results[0])]
    assert [relay_name(op.results[0]) for op in named] == ["activated", "pair", "first_1", "out"]
    # A bound tuple is a relay.let; the rest are dataflow variables, but for
    # the returned value, bound to the output Var without a relay.let.
    assert [op.name for op in named] == [
        "relay.nn.relu",
        "relay.let",
        "relay.tuple_get_item",
        "relay.add",
    ]
    assert [op.dataflow is not None for op in named if isinstance(op, relay.LetOp)] == [True]
    assert named[-1].results[0] in returned_values(func.body.block)


CONSTANTS = {
    "float32 specials": np.array([np.nan, -np.inf, np.inf, -0.0, 1e-45], dtype="float32"),
    "NaN payload": np.array([0x7FC00001, 0xFFC00123], dtype="uint32").view("float32"),
    "float16": np.array([[1.5, -2.25], [65504.0, 6e-8]], dtype="float16"),
    "float64": np.array([np.pi, -1e-300], dtype="float64"),
    "int64": np.array([-(2**62), 7], dtype="int64"),
    "int8": np.array([-128, 127], dtype="int8"),
    "uint8": np.array([0, 255], dtype="uint8"),
    "bool": np.array([True, False, True]),
    "scalar": np.array(-np.inf, dtype="float32"),
}


@pytest.mark.parametrize("case", CONSTANTS, ids=str)
def test_constants_are_bit_exact(case: str):
    value = CONSTANTS[case]
    build = lambda x: relax.Tuple([x, relax.const(value, value.dtype.name)])
    module = round_trip(single_op_module(build, F4))
    (const,) = [op for op in module.walk() if isinstance(op, relay.ConstantOp)]
    assert const.value.data.data == value.tobytes()
    assert const.result.type.get_shape() == value.shape


def test_shared_constant_is_one_op_and_inline():
    shared = relax.const(np.ones((1, 4, 1, 1), "float32"))
    bb = relax.BlockBuilder()
    x = relax.Var("x", F4)
    with bb.function("main", [x]):
        with bb.dataflow():
            scaled = bb.emit(R.multiply(x, shared))
            out = bb.emit_output(R.add(scaled, shared))
        bb.emit_func_output(out)
    module = round_trip(bb.get())
    (const,) = [op for op in module.walk() if isinstance(op, relay.ConstantOp)]
    assert const.result.name_hint is None  # inline, not bound to a variable
    assert len(list(const.result.uses)) == 2


def test_symbolic_dimensions_become_dynamic_and_come_back():
    n = tvm.tirx.Var("n", "int64")
    build = lambda x, y: R.add(x, y)
    module = round_trip(single_op_module(build, tensor(n, 4), tensor(n, 4)))
    (func,) = module.ops
    assert isinstance(func, FuncOp)
    assert func.body.block.args[0].type.get_shape() == (DYNAMIC_INDEX, 4)
    assert [s.data for s in func.attributes[relax_ops.SHAPE_VARS].data] == ["n", "n"]


def test_symbolic_expression_in_a_parameter_is_an_error():
    n = tvm.tirx.Var("n", "int64")
    with pytest.raises(RelaxImportError, match="parameter 'p0' of function 'main'"):
        import_relax(single_op_module(lambda x: R.nn.relu(x), tensor(n * 2, 4)))


def test_mlir_text_keeps_everything_export_needs():
    """Print the import as MLIR, parse it back, export: still the original module."""
    n = tvm.tirx.Var("n", "int64")
    x = relax.Var("x", tensor(n, 4))
    y = relax.Var("y", tensor(2, 3))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, y]):
        with bb.dataflow():
            a = bb.emit(R.nn.relu(x), "a")
            c = bb.emit(R.add(y, relax.const(np.array([[1.5, -0.0, 1e-45]], "float32"))), "c")
            m = bb.emit(R.equal(y, relax.const(np.array([True, False, True]))), "m")
            t = bb.emit(relax.Tuple([a, c]), "t")
            t1 = bb.emit(relax.TupleGetItem(t, 1), "t1")
            r = bb.emit(R.arange(0, 10, 2, "int64"), "r")
            s = bb.emit(R.strided_slice(y, [1], [0], [2]), "s")
            out = bb.emit_output(relax.Tuple([t1, m, r, s]), "out")
        bb.emit_func_output(out)
    mod = bb.get()
    stream = StringIO()
    Printer(stream=stream).print_op(import_relax(mod))
    context = Context()
    for dialect in (Builtin, Func, relay.Relay):
        context.load_dialect(dialect)
    parsed = Parser(context, stream.getvalue()).parse_module()
    parsed.verify()
    tvm.ir.assert_structural_equal(export_relax(parsed), mod)


# ---------------------------------------------------------------------------
# Functions: fused globals, local functions
# ---------------------------------------------------------------------------


def _two_conv_relu() -> tvm.IRModule:
    x = relax.Var("x", F4)
    w = relax.const(np.random.RandomState(0).rand(4, 4, 3, 3).astype("float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            first = bb.emit(R.nn.relu(R.nn.conv2d(x, w, padding=1)))
            out = bb.emit_output(R.nn.relu(R.nn.conv2d(first, w, padding=1)))
        bb.emit_func_output(out)
    return relax.transform.Normalize()(bb.get())


def _conv_relu_patterns():
    return [
        ("demo.conv_relu", is_op("relax.nn.relu")(is_op("relax.nn.conv2d")(wildcard(), wildcard())))
    ]


def test_fused_function_becomes_a_relay_fn_at_each_call_site():
    fused = relax.transform.FuseOpsByPattern(_conv_relu_patterns(), bind_constants=False)(
        _two_conv_relu()
    )
    names = [gv.name_hint for gv in fused.functions]
    assert len(names) == 2, "TVM deduplicates the two identical groups"
    module = round_trip(fused)
    assert [f.sym_name.data for f in module.ops] == ["main"]
    fns = [op for op in module.walk() if isinstance(op, relay.FnOp)]
    assert len(fns) == 2
    assert fns[0].body is not fns[1].body
    for fn in fns:
        assert fn.attributes["Composite"].data == "demo.conv_relu"
        assert relay.attr_value(fn.attributes["Primitive"]) is True
        assert fn.attributes[relax_ops.GLOBAL_NAME].data in names
        # The fused function's output binding `gv = relu(...)` is the returned relu.
        assert [type(op) for op in fn.body.block.ops] == [
            relay.Conv2DOp,
            relay.ReluOp,
            relay.ReturnOp,
        ]
        relu = fn.body.block.ops.last.prev_op
        assert relay_name(relu.results[0]) == "gv"


def test_codegen_local_functions_become_relay_fns():
    fused = relax.transform.FuseOpsByPattern(
        _conv_relu_patterns(), bind_constants=False, annotate_codegen=True
    )(_two_conv_relu())
    module = round_trip(fused)
    outer = [f for f in module.ops if "Codegen" in f.attributes]
    assert outer and all(relax_ops.BINDING_BLOCK in f.attributes for f in outer)
    for func in outer:
        (fn,) = [op for op in func.walk() if isinstance(op, relay.FnOp)]
        assert fn.attributes[relax_ops.LOCAL_NAME].data == "local_func"
    calls = [op for op in module.walk() if isinstance(op, CallOp)]
    assert {c.callee.string_value() for c in calls} == {f.sym_name.data for f in outer}


def test_merged_composite_functions_round_trip():
    fused = relax.transform.FuseOpsByPattern(_conv_relu_patterns(), bind_constants=False)(
        _two_conv_relu()
    )
    merged = relax.transform.MergeCompositeFunctions()(fused)
    module = round_trip(merged)
    fns = [op for op in module.walk() if isinstance(op, relay.FnOp)]
    assert len(fns) == 2, "the local function is called twice"
    assert {fn.attributes[relax_ops.LOCAL_NAME].data for fn in fns} == {"gv"}


def test_alias_bindings_round_trip():
    x = relax.Var("x", F4)
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            y = bb.emit(R.nn.relu(x), "y")
            z = bb.emit(y, "z")  # z = y: an alias between dataflow variables
            out = bb.emit_output(z, "out")  # out = z: an output aliasing one
            both = bb.emit_output(R.add(z, out), "both")
            again = bb.emit_output(both, "again")  # an output aliasing an output
        bb.emit_func_output(relax.Tuple([again, out]))
    x2 = relax.Var("x", F4)
    with bb.function("params", [x2]):
        with bb.dataflow():
            alias = bb.emit_output(x2, "alias")  # a parameter's alias
        bb.emit_func_output(alias)
    mod = bb.get()
    module = round_trip(mod)
    assert len(operators(module)) == 2
    main = next(f for f in module.ops if isinstance(f, FuncOp) and f.sym_name.data == "main")
    lets = [op for op in main.walk() if isinstance(op, relay.LetOp)]
    # y becomes explicit (a let of relu) so that z is read as its alias.
    assert [(relay_name(op.result), op.dataflow is not None) for op in lets] == [
        ("y", True),
        ("z", True),
        ("out", False),
        ("both", False),
        ("again", False),
    ]
    with pytest.raises(ValueError):
        tvm.ir.assert_structural_equal(
            export_relax(module), relax.transform.CanonicalizeBindings()(mod)
        )


def test_returned_outputs_are_implicit_and_other_outputs_are_lets():
    x = relax.Var("x", F4)
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            y = bb.emit_output(R.nn.relu(x), "y")  # returned, and used below
            z = bb.emit_output(R.add(y, x), "z")  # an output not returned
            w = bb.emit_output(y, "w")  # an output aliasing a returned one
            u = bb.emit_output(R.multiply(z, z), "u")
            v = bb.emit_output(R.exp(u), "v")  # returned, and aliased before any use
            a = bb.emit_output(v, "a")
        bb.emit_func_output(relax.Tuple([y, w, u, v, a]))
    module = round_trip(bb.get())
    (func,) = module.ops
    lets = [op for op in func.walk() if isinstance(op, relay.LetOp)]
    assert [(relay_name(op.result), op.dataflow is not None) for op in lets] == [
        ("z", False),
        ("w", False),
        ("v", False),
        ("a", False),
    ]
    returned = {relay_name(r) for r in returned_values(func.body.block)}
    assert {"y", "u", "v", "w", "a"} <= returned


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


def test_if_is_an_error_naming_the_function():
    cond = relax.Var("cond", tensor(dtype="bool"))
    x = relax.Var("x", F4)
    bb = relax.BlockBuilder()
    with bb.function("choose", [cond, x]):
        then = relax.SeqExpr([], R.nn.relu(x))
        other = relax.SeqExpr([], x)
        out = bb.emit(relax.If(cond, then, other))
        bb.emit_func_output(out)
    with pytest.raises(RelaxImportError, match=r"function 'choose': If"):
        import_relax(bb.get())


def test_match_cast_is_an_error():
    x = relax.Var("x", F4)
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            cast = bb.match_cast(x, F4)
            out = bb.emit_output(R.nn.relu(cast))
        bb.emit_func_output(out)
    with pytest.raises(RelaxImportError, match="MatchCast"):
        import_relax(bb.get())


def test_tir_functions_are_an_error():
    legalized = relax.transform.LegalizeOps()(single_op_module(lambda x: R.nn.relu(x), F4))
    with pytest.raises(RelaxImportError, match="PrimFunc"):
        import_relax(legalized)


def test_several_binding_blocks_are_an_error():
    x = relax.Var("x", F4)
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            y = bb.emit_output(R.nn.relu(x))
        z = bb.emit(R.add(y, y))
        bb.emit_func_output(z)
    with pytest.raises(RelaxImportError, match="2 binding blocks"):
        import_relax(bb.get())


# ---------------------------------------------------------------------------
# Torchvision models
# ---------------------------------------------------------------------------


# Models whose Relax modules hold operators beyond MODELS': hard swish and squeeze-excite
# (mobilenet_v3_small, mnasnet0_5), shifted windows (swin_t, swin_v2_t: pad, mod, arange,
# full, slice_scatter), and maxvit_t's batch norms of another momentum.
MORE_MODELS = ("mobilenet_v3_small", "mnasnet0_5", "swin_t", "swin_v2_t", "maxvit_t")


@pytest.mark.slow
@pytest.mark.parametrize("name", (*tvm_models.MODELS, *MORE_MODELS))
def test_model_imports_with_dialect_ops_only(name: str):
    mod = tvm_models.relax_module(name)
    module = import_relax(mod)
    module.verify()
    generic = [
        op.operator_name for op in operators(module) if isinstance(op, relay.GenericOperatorOp)
    ]
    assert generic == []
    relax_calls: Counter[str] = Counter()

    def count(node) -> None:
        if isinstance(node, tvm.ir.Call) and isinstance(node.op, tvm.ir.Op):
            relax_calls[node.op.name] += 1

    relax.analysis.post_order_visit(mod["main"], count)
    imported = Counter(op.OPERATOR.relax.relax_name for op in operators(module))
    assert imported == relax_calls


@pytest.mark.slow
def test_mobilenet_v3_small_as_torchvision_builds_it_imports_and_runs():
    """Its batch norms have momentum 0.01, which Relay's nn.batch_norm cannot hold."""
    model = torchvision.models.mobilenet_v3_small(weights=None).eval()
    x = tvm_models.example_input()
    mod = from_exported_program(torch.export.export(model, (x,)))
    module = import_relax(mod)
    module.verify()
    names = Counter(op.operator_name for op in operators(module))
    assert names["relax.nn.batch_norm"] == 34
    assert not any(isinstance(op, relay.GenericOperatorOp) for op in operators(module))
    tvm.ir.assert_structural_equal(export_relax(module), mod)
    (name, _), *_ = parameters(module)
    (got,) = run(module, {name: x.numpy()})
    with torch.no_grad():
        expected = model(x).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())
