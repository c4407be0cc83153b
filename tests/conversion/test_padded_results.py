"""pad_where_made: a group's result padded where the group makes it, for the
depthwise convolutions that pad it, and left alone where another op reads it
or it is small."""

from __future__ import annotations

from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation

from relay_xdsl.compiler.frontend import lower
from relay_xdsl.conversion.linalg import zero_padding
from relay_xdsl.conversion.padded_results import IN_PLACE, PADDED_RESULT_ROWS
from relay_xdsl.conversion.tosa import operation_name
from relay_xdsl.importers.relay_text import parse_relay

EXPAND = (
    "nn.conv2d(%{x}, meta[relay.Constant][{w}], padding=[0, 0, 0, 0], channels=8,"
    ' kernel_size=[1, 1], data_layout="NHWC", kernel_layout="HWIO")'
)
DEPTHWISE = (
    "nn.conv2d(%{x}, meta[relay.Constant][{w}], strides=[{s}, {s}], padding=[1, 1, 1, 1],"
    ' groups=8, channels=8, kernel_size=[3, 3], data_layout="NHWC", kernel_layout="HWOI")'
)


def _program(size: int, body: list[str]) -> ModuleOp:
    """A Relay function of a 1 x `size` x `size` x 4 input and `body` 's lines."""
    text = "\n  ".join(body)
    relay = (
        f'#[version = "0.0.5"]\ndef @main(%x: Tensor[(1, {size}, {size}, 4), float32]) {{\n'
        f"  {text}\n}}\n"
    )
    return lower(parse_relay(relay), random_constants=0).module


def _expand_then_depthwise(size: int) -> list[str]:
    return [
        f"%0 = clip({EXPAND.format(x='x', w=0)}, a_min=0f, a_max=6f);",
        f"clip({DEPTHWISE.format(x=0, w=1, s=1)}, a_min=0f, a_max=6f)",
    ]


def _groups(module: ModuleOp) -> dict[str, func.FuncOp]:
    return {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}


def _result_type(function: func.FuncOp) -> list[int]:
    (result,) = function.function_type.outputs.data
    assert isinstance(result, TensorType)
    return list(result.get_shape())


def _pads_itself(function: func.FuncOp) -> bool:
    return any(zero_padding(op) is not None for op in function.walk())


def test_a_result_that_a_depthwise_conv_pads_is_returned_padded():
    size = PADDED_RESULT_ROWS - 2
    groups = _groups(_program(size, _expand_then_depthwise(size)))
    maker, reader = (groups[name] for name in groups if name != "main")
    assert _result_type(maker) == [1, size + 2, size + 2, 8]
    padded_input = reader.function_type.inputs.data[0]
    assert isinstance(padded_input, TensorType)
    assert list(padded_input.get_shape()) == _result_type(maker)
    assert not _pads_itself(reader)
    inserts = [op for op in maker.walk() if isinstance(op, tensor.InsertSliceOp)]
    # four zero strips (rows before and after, columns before and after), then the result
    assert len(inserts) == 5 and all(IN_PLACE in op.attributes for op in inserts)
    assert list(inserts[-1].static_offsets.get_values()) == [0, 1, 1, 0]
    (call, _) = [op for op in groups["main"].walk() if isinstance(op, func.CallOp)]
    assert list(call.res[0].type.get_shape()) == _result_type(maker)  # type: ignore[attr-defined]


def test_a_smaller_result_is_padded_by_its_reader():
    size = PADDED_RESULT_ROWS - 3
    groups = _groups(_program(size, _expand_then_depthwise(size)))
    maker, reader = (groups[name] for name in groups if name != "main")
    assert _result_type(maker) == [1, size, size, 8]
    assert _pads_itself(reader)


def test_a_result_that_another_op_reads_too_is_padded_by_its_reader():
    size = PADDED_RESULT_ROWS
    body = [
        f"%0 = clip({EXPAND.format(x='x', w=0)}, a_min=0f, a_max=6f);",
        f"%1 = clip({DEPTHWISE.format(x=0, w=1, s=1)}, a_min=0f, a_max=6f);",
        "add(%0, %1)",
    ]
    groups = _groups(_program(size, body))
    assert all(_result_type(group)[1] == size for name, group in groups.items() if name != "main")
    assert any(_pads_itself(group) for group in groups.values())


def test_a_group_called_twice_is_copied_for_the_call_it_pads_for():
    """Two expansions alike (one group), their results padded for a stride of 1
    (58 rows) and of 2 (57: the last row is never read): each call its own group."""
    size = PADDED_RESULT_ROWS - 1
    project = (
        "nn.conv2d(%1, meta[relay.Constant][2], padding=[0, 0, 0, 0], channels=4,"
        ' kernel_size=[1, 1], data_layout="NHWC", kernel_layout="HWIO")'
    )
    body = [
        f"%0 = clip({EXPAND.format(x='x', w=0)}, a_min=0f, a_max=6f);",
        f"%1 = clip({DEPTHWISE.format(x=0, w=1, s=1)}, a_min=0f, a_max=6f);",
        f"%2 = {project};",
        f"%3 = clip({EXPAND.format(x=2, w=3)}, a_min=0f, a_max=6f);",
        f"clip({DEPTHWISE.format(x=3, w=4, s=2)}, a_min=0f, a_max=6f)",
    ]
    groups = _groups(_program(size, body))
    calls = [op for op in groups["main"].walk() if isinstance(op, func.CallOp)]
    first, second = (groups[calls[i].callee.root_reference.data] for i in (0, 3))
    assert first is not second
    assert len(groups) == len(calls) + 1  # the expansion's one group, copied
    assert [_result_type(first)[1], _result_type(second)[1]] == [size + 2, size + 1]
    assert not any(_pads_itself(groups[call.callee.root_reference.data]) for call in calls)


def _expand_then_conv(size: int, dilation: int) -> tuple[func.FuncOp, func.FuncOp]:
    """The groups of an expansion and a 3x3 convolution of stride one, dilated
    by `dilation` and padded as much, of its result (`size` pixels)."""
    conv = (
        f"nn.conv2d(%0, meta[relay.Constant][1], padding=[{dilation}, {dilation}, {dilation},"
        f" {dilation}], dilation=[{dilation}, {dilation}], channels=8, kernel_size=[3, 3],"
        ' data_layout="NHWC", kernel_layout="HWIO")'
    )
    body = [f"%0 = nn.relu({EXPAND.format(x='x', w=0)});", f"nn.relu({conv})"]
    groups = _groups(_program(size, body))
    maker, reader = (groups[name] for name in groups if name != "main")
    return maker, reader


def test_a_result_that_a_convolution_pads_is_returned_padded_and_its_pad_goes():
    """A 3x3 convolution (dilated: not Winograd's) pads by its ``tosa.conv2d`` 's
    ``pad``: it reads the padded result with a pad of zeros."""
    size = PADDED_RESULT_ROWS - 4
    maker, reader = _expand_then_conv(size, 2)
    assert _result_type(maker) == [1, size + 4, size + 4, 8]
    (padded_conv,) = [op for op in reader.walk() if operation_name(op) == "tosa.conv2d"]
    assert padded_conv.operands[0] is reader.body.block.args[0]
    assert list(padded_conv.attributes["pad"].get_values()) == [0, 0, 0, 0]  # type: ignore[attr-defined]


def test_a_result_that_winograds_convolution_pads_is_returned_padded_to_whole_blocks():
    """Winograd's 3x3 convolution (conversion/winograd.py) pads its input by
    one, and by one more row and column where its output's are odd (whole 2x2
    blocks): the result is returned so padded, and the reader pads nothing."""
    size = PADDED_RESULT_ROWS - 2
    maker, reader = _expand_then_conv(size, 1)
    assert size % 2 == 1 and _result_type(maker) == [1, size + 3, size + 3, 8]
    assert not _pads_itself(reader)
    assert not [op for op in reader.walk() if operation_name(op) == "tosa.conv2d"]


def _nchw_conv(size: int) -> tuple[Operation, Operation]:
    """The conv of a 1 x 3 x `size` x `size` NCHW image padded by 1, its one
    group's, and what it reads."""
    relay = (
        f'#[version = "0.0.5"]\ndef @main(%x: Tensor[(1, 3, {size}, {size}), float32]) {{\n'
        "  nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(8, 3, 3, 3), float32] */,"
        " padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3])\n}\n"
    )
    groups = _groups(lower(parse_relay(relay), random_constants=0).module)
    (group,) = (group for name, group in groups.items() if name != "main")
    (conv,) = [op for op in group.walk() if operation_name(op) == "tosa.conv2d"]
    read = conv.operands[0].owner
    assert isinstance(read, Operation)
    return conv, read


def test_a_transpose_that_a_convolution_pads_is_inserted_inside_the_zero_borders():
    """An NCHW image made NHWC by a ``tosa.transpose`` in the conv's own group."""
    size = PADDED_RESULT_ROWS - 2
    conv, inside = _nchw_conv(size)
    assert isinstance(inside, tensor.InsertSliceOp) and IN_PLACE in inside.attributes
    assert operation_name(inside.source.owner) == "tosa.transpose"  # type: ignore[arg-type]
    assert list(inside.result.type.get_shape()) == [1, size + 2, size + 2, 3]
    assert list(conv.attributes["pad"].get_values()) == [0, 0, 0, 0]  # type: ignore[attr-defined]


def test_a_smaller_transpose_is_padded_by_its_convolution():
    conv, read = _nchw_conv(PADDED_RESULT_ROWS - 3)
    assert operation_name(read) == "tosa.transpose"
    assert list(conv.attributes["pad"].get_values()) == [1, 1, 1, 1]  # type: ignore[attr-defined]
