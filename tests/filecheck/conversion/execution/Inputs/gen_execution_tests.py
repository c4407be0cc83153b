"""Writes the execution tests of tests/filecheck/conversion/execution.

Usage::

    .venv/bin/python tests/filecheck/conversion/execution/Inputs/gen_execution_tests.py
    .venv/bin/python tests/filecheck/conversion/execution/Inputs/gen_execution_tests.py --check

Each test file holds small Relay functions (``@conv_add_relu``, ...) whose
weights are ``relay.constant``s, and a hand-written ``func.func @main`` that
calls each with a constant input and prints the result with
``printMemrefF32``. ``convert-relay-to-tosa`` (or ``-linalg``) lowers only
the Relay functions; upstream MLIR compiles the lot and ``mlir-runner``
runs ``@main``. The CHECK lines are the reference interpreter's results
(relay_xdsl.interpreter), printed as ``printMemrefF32`` prints them; inputs
and weights are small integers (and the pools' divisors powers of two), so
every printed value is exact.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.parser import Parser

from relay_xdsl.interpreter import run
from relay_xdsl.tools.mlir_text import relay_context

HERE = Path(__file__).resolve().parent.parent
RNG_SEED = 0


def literal(array: np.ndarray) -> str:
    """`array` as the body of an MLIR ``dense<...>``."""
    if array.ndim == 0:
        return f"{float(array):.1f}"
    return "[" + ", ".join(literal(row) for row in array) + "]"


def tensor_type(shape: tuple[int, ...]) -> str:
    return "tensor<" + "".join(f"{n}x" for n in shape) + "f32>"


def printed_rows(array: np.ndarray, digits: int | None = None) -> list[str]:
    """The rows ``printMemrefF32`` prints for `array`, without their brackets; with
    `digits`, each value to that many significant digits and then any digits (for
    results that are not exact, whose last printed digit may differ)."""
    rows = array.reshape(-1, array.shape[-1]) if array.ndim else array.reshape(1, 1)
    if digits is None:
        return [", ".join(f"{float(v):g}" for v in row) + "]" for row in rows]
    return [", ".join(_leading(float(v), digits) for v in row) + "]" for row in rows]


def _leading(value: float, digits: int) -> str:
    """`value` cut (not rounded) to `digits` significant digits, then a FileCheck regex."""
    text = f"{value:.{digits + 3}g}"
    mantissa = text.lstrip("-")
    significant = 0
    for i, char in enumerate(mantissa):
        if char.isdigit() and (significant or char != "0"):
            significant += 1
            if significant == digits:
                return text[: len(text) - len(mantissa) + i + 1] + "{{[0-9]*}}"
    return text


@dataclass
class Model:
    """A Relay function of one input `%x`, its weights and its body."""

    name: str
    x: np.ndarray
    body: str
    """The ops after the constants; the value `%r` is returned."""
    result: tuple[int, ...]
    constants: dict[str, np.ndarray] = field(default_factory=dict)
    comment: str = ""

    def text(self) -> str:
        lines = [f"func.func @{self.name}(%x: {tensor_type(self.x.shape)}) -> {tensor_type(self.result)} {{"]
        for name, array in self.constants.items():
            lines.append(f"  %{name} = relay.constant dense<{literal(array)}> : {tensor_type(array.shape)}")
        lines += ["  " + line.strip() for line in self.body.strip().splitlines()]
        lines += [f"  func.return %r : {tensor_type(self.result)}", "}"]
        return "\n".join(lines)


@dataclass
class TestFile:
    name: str
    doc: str
    models: list[Model]
    passes: tuple[str, ...] = ("convert-relay-to-tosa",)
    digits: int | None = None
    """Significant digits checked, for results that are not exact (all by default)."""

    def text(self) -> str:
        module_text = "\n".join(m.text() for m in self.models)
        module = Parser(relay_context(), module_text).parse_module()
        out = [f"// {line}" if line else "//" for line in self.doc.strip().splitlines()]
        out.append("// REQUIRES: mlir-runner-22")
        for pass_name in self.passes:
            out.append(
                f"// RUN: xdsl-opt %s -p {pass_name} --print-op-generic | mlir-opt-22 %mlir_pipeline"
                " | %mlir_runner | filecheck %s"
            )
        out.append("")
        out.append("// This file is written by Inputs/gen_execution_tests.py; edit that and rerun it.")
        for model in self.models:
            (expected,) = run(module, {"x": model.x}, function=model.name)
            assert expected.shape == model.result, (model.name, expected.shape)
            out.append("")
            if model.comment:
                out += [f"// {line}" for line in model.comment.strip().splitlines()]
            sizes = ", ".join(str(n) for n in expected.shape)
            out.append(f"// CHECK-LABEL: sizes = [{sizes}]")
            rows = printed_rows(expected, self.digits)
            out.append(f"// CHECK-NEXT: {{{{\\[+}}}}{rows[0]}")
            out += [f"// CHECK-NEXT: {{{{\\[+}}}}{row}" for row in rows[1:]]
            out.append(model.text())
        out.append("")
        out.append("func.func private @printMemrefF32(tensor<*xf32>)")
        out.append("func.func @main() {")
        for i, model in enumerate(self.models):
            x, r = tensor_type(model.x.shape), tensor_type(model.result)
            out.append(f"  %x{i} = arith.constant dense<{literal(model.x)}> : {x}")
            out.append(f"  %r{i} = func.call @{model.name}(%x{i}) : ({x}) -> {r}")
            out.append(f"  %p{i} = tensor.cast %r{i} : {r} to tensor<*xf32>")
            out.append(f"  func.call @printMemrefF32(%p{i}) : (tensor<*xf32>) -> ()")
        out.append("  func.return")
        out.append("}")
        return "\n".join(out) + "\n"


def ints(rng: np.random.Generator, shape: tuple[int, ...], low: int = -3, high: int = 3) -> np.ndarray:
    return rng.integers(low, high + 1, shape).astype(np.float32)


def conv(name: str, x: str, w: str, xs, ws, rs, attrs: str, r: str = "r") -> str:
    return (
        f"%{r} = relay.nn.conv2d(%{x}, %{w}) {{{attrs}}} : "
        f"({tensor_type(xs)}, {tensor_type(ws)}) -> {tensor_type(rs)}"
    )


def unary(op: str, x: str, xs, rs, attrs: str = "", r: str = "r") -> str:
    braces = f" {{{attrs}}}" if attrs else ""
    return f"%{r} = relay.{op}(%{x}){braces} : ({tensor_type(xs)}) -> {tensor_type(rs)}"


def binary(op: str, a: str, b: str, as_, bs, rs, r: str = "r") -> str:
    return f"%{r} = relay.{op}(%{a}, %{b}) : ({tensor_type(as_)}, {tensor_type(bs)}) -> {tensor_type(rs)}"


def conv_attrs(kernel: int, channels: int, extra: str = "") -> str:
    attrs = f"channels = {channels} : i32, kernel_size = array<i32: {kernel}, {kernel}>"
    return f"{extra}, {attrs}" if extra else attrs


def pool(op: str, x: str, xs, rs, attrs: str, r: str = "r") -> str:
    return unary(f"nn.{op}", x, xs, rs, attrs, r)


def test_files() -> list[TestFile]:
    rng = np.random.default_rng(RNG_SEED)
    files = []

    x = ints(rng, (1, 2, 4, 4))
    w = ints(rng, (3, 2, 3, 3), -1, 1)
    b = np.array([[[1.0]], [[2.0]], [[3.0]]], np.float32)
    files.append(
        TestFile(
            "conv_add_relu.mlir",
            "A 3x3 convolution (padding 1), a per-channel bias added as a (C, 1, 1) constant,\n"
            "and relu, compiled and run: the activation is NHWC inside, NCHW at the result.",
            [
                Model(
                    "conv_add_relu",
                    x,
                    "\n".join(
                        [
                            conv("", "x", "w", x.shape, w.shape, (1, 3, 4, 4),
                                 conv_attrs(3, 3, "padding = array<i32: 1, 1, 1, 1>"), "c"),
                            binary("add", "c", "b", (1, 3, 4, 4), (3, 1, 1), (1, 3, 4, 4), "a"),
                            unary("nn.relu", "a", (1, 3, 4, 4), (1, 3, 4, 4)),
                        ]
                    ),
                    (1, 3, 4, 4),
                    {"w": w, "b": b},
                )
            ],
        )
    )

    x = ints(rng, (2, 6))
    w = ints(rng, (4, 6), -2, 2)
    b = np.array([1.0, -1.0, 0.5, 0.0], np.float32)
    files.append(
        TestFile(
            "dense.mlir",
            "nn.dense (x @ w.T, the weight transposed when compiling) and nn.bias_add, run.",
            [
                Model(
                    "dense",
                    x,
                    f"""
                    %d = relay.nn.dense(%x, %w) {{units = 4 : i32}} : ({tensor_type(x.shape)}, {tensor_type(w.shape)}) -> tensor<2x4xf32>
                    %r = relay.nn.bias_add(%d, %b) {{axis = 1 : i32}} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
                    """,
                    (2, 4),
                    {"w": w, "b": b},
                )
            ],
        )
    )

    x4 = ints(rng, (1, 2, 4, 4), 0, 7)
    x5 = ints(rng, (1, 2, 5, 5), 0, 7)
    x6 = ints(rng, (1, 2, 6, 6), 0, 7)
    s4, s5, s6 = (1, 2, 4, 4), (1, 2, 5, 5), (1, 2, 6, 6)
    files.append(
        TestFile(
            "pool.mlir",
            "Max, average, global and adaptive pools, run: average pools with and without\n"
            "the padding in the count, ceil_mode, and a pool of an NHWC input.",
            [
                Model("max_pool", x5, pool("max_pool2d", "x", s5, (1, 2, 3, 3),
                      "pool_size = array<i32: 3, 3>, strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>"),
                      (1, 2, 3, 3)),
                Model("avg_pool", x4, pool("avg_pool2d", "x", s4, (1, 2, 2, 2),
                      "pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>"), (1, 2, 2, 2)),
                Model("avg_pool_padding_excluded", x4, pool("avg_pool2d", "x", s4, (1, 2, 3, 3),
                      "pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>"),
                      (1, 2, 3, 3), comment="The corners average one element, the edges two."),
                Model("avg_pool_count_include_pad", x4, pool("avg_pool2d", "x", s4, (1, 2, 3, 3),
                      "pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, count_include_pad = true"),
                      (1, 2, 3, 3), comment="Every window divides by four."),
                Model("avg_pool_count_include_pad_batch", ints(rng, (2, 1, 4, 4), 0, 7), pool("avg_pool2d", "x", (2, 1, 4, 4), (2, 1, 3, 3),
                      "pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, count_include_pad = true"),
                      (2, 1, 3, 3), comment="Two images: the zeros are padded one dimension at a time."),
                Model("max_pool_ceil_mode", x5, pool("max_pool2d", "x", s5, (1, 2, 3, 3),
                      "pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, ceil_mode = true"),
                      (1, 2, 3, 3), comment="The last window holds one row (column) of the input."),
                Model("avg_pool_ceil_mode", x5, pool("avg_pool2d", "x", s5, (1, 2, 3, 3),
                      "pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, ceil_mode = true"),
                      (1, 2, 3, 3), comment="The last window divides by the elements it holds."),
                Model("avg_pool_ceil_mode_count_include_pad", x4, pool("avg_pool2d", "x", s4, (1, 2, 3, 3),
                      "pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 0, 0>, ceil_mode = true, count_include_pad = true"),
                      (1, 2, 3, 3), comment="Padding before only. The padding counts, the row and column ceil_mode adds do not\n"
                      "(TVM's rule): the first window divides by four, the last by one."),
                Model("global_avg_pool", x4, pool("global_avg_pool2d", "x", s4, (1, 2, 1, 1), ""), (1, 2, 1, 1)),
                Model("global_max_pool", x6, pool("global_max_pool2d", "x", s6, (1, 2, 1, 1), ""), (1, 2, 1, 1)),
                Model("adaptive_avg_pool", x4, pool("adaptive_avg_pool2d", "x", s4, (1, 2, 1, 1),
                      "output_size = array<i32: 1, 1>"), (1, 2, 1, 1)),
                Model("adaptive_avg_pool_2x2", x4, pool("adaptive_avg_pool2d", "x", s4, (1, 2, 2, 2),
                      "output_size = array<i32: 2, 2>"), (1, 2, 2, 2)),
                Model("adaptive_max_pool_2x1", x4, pool("adaptive_max_pool2d", "x", s4, (1, 2, 2, 1),
                      "output_size = array<i32: 2, 1>"), (1, 2, 2, 1)),
                Model("adaptive_avg_pool_overlapping", x6, pool("adaptive_avg_pool2d", "x", s6, (1, 2, 4, 4),
                      "output_size = array<i32: 4, 4>"), (1, 2, 4, 4),
                      comment="6 to 4: windows [0, 2), [1, 3), [3, 5), [4, 6), which overlap."),
                Model("adaptive_max_pool_uneven", ints(rng, (1, 2, 5, 5), -20, 20), pool("adaptive_max_pool2d", "x", s5, (1, 2, 3, 2),
                      "output_size = array<i32: 3, 2>"), (1, 2, 3, 2),
                      comment="Rows 5 to 3: windows [0, 2), [1, 4), [3, 5); columns 5 to 2: [0, 3), [2, 5)."),
                Model("max_pool_nhwc", ints(rng, (1, 4, 4, 2), 0, 7), pool("max_pool2d", "x", (1, 4, 4, 2), (1, 2, 2, 2),
                      'pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, layout = "NHWC"'), (1, 2, 2, 2)),
            ],
        )
    )

    x = ints(rng, (1, 2, 3, 3))
    w = ints(rng, (2, 2, 1, 1), -1, 2)
    k = ints(rng, (1, 1, 3, 3))
    t = lambda *shape: tensor_type(shape)  # noqa: E731
    files.append(
        TestFile(
            "concatenate.mlir",
            "Concatenation on channels, run: of the NCHW input with a convolution's NHWC\n"
            "result (the input is transposed to join it), and of a constant with both.",
            [
                Model(
                    "concat_input_conv",
                    x,
                    f"""
                    {conv("", "x", "w", x.shape, w.shape, (1, 2, 3, 3), conv_attrs(1, 2), "c")}
                    %t = relay.tuple(%x, %c) : tuple<{t(1, 2, 3, 3)}, {t(1, 2, 3, 3)}>
                    %r = relay.concatenate(%t) {{axis = 1 : i32}} : (tuple<{t(1, 2, 3, 3)}, {t(1, 2, 3, 3)}>) -> {t(1, 4, 3, 3)}
                    """,
                    (1, 4, 3, 3),
                    {"w": w},
                ),
                Model(
                    "concat_constant",
                    x,
                    f"""
                    {conv("", "x", "w", x.shape, w.shape, (1, 2, 3, 3), conv_attrs(1, 2), "c")}
                    %t = relay.tuple(%k, %c, %x) : tuple<{t(1, 1, 3, 3)}, {t(1, 2, 3, 3)}, {t(1, 2, 3, 3)}>
                    %r = relay.concatenate(%t) {{axis = -3 : i32}} : (tuple<{t(1, 1, 3, 3)}, {t(1, 2, 3, 3)}, {t(1, 2, 3, 3)}>) -> {t(1, 5, 3, 3)}
                    """,
                    (1, 5, 3, 3),
                    {"w": w, "k": k},
                ),
            ],
        )
    )

    x = ints(rng, (1, 4, 5, 5))
    w_grouped = ints(rng, (6, 2, 3, 3), -2, 2)
    w_depthwise = ints(rng, (4, 1, 3, 3), -2, 2)
    w_multiplier = ints(rng, (8, 1, 3, 3), -2, 2)
    x_nhwc = ints(rng, (1, 4, 4, 4))
    w_hwio = ints(rng, (3, 3, 2, 4), -2, 2)
    x_batch = ints(rng, (2, 4, 3, 3))
    w_hwoi = ints(rng, (3, 3, 4, 1), -2, 2)
    files.append(
        TestFile(
            "grouped_conv.mlir",
            "Grouped convolutions, run, through both conversions: convert-relay-to-tosa\n"
            "slices the groups apart, convert-relay-to-linalg writes one linalg.generic;\n"
            "depthwise ones (groups = channels) are tosa.depthwise_conv2d in both.",
            [
                Model(
                    "grouped",
                    x,
                    conv("", "x", "w", x.shape, w_grouped.shape, (1, 6, 3, 3),
                         conv_attrs(3, 6, "strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, groups = 2 : i32")),
                    (1, 6, 3, 3),
                    {"w": w_grouped},
                    comment="Two groups of two channels in, three out; stride 2.",
                ),
                Model(
                    "depthwise",
                    x,
                    conv("", "x", "w", x.shape, w_depthwise.shape, (1, 4, 5, 5),
                         conv_attrs(3, 4, "padding = array<i32: 1, 1, 1, 1>, groups = 4 : i32")),
                    (1, 4, 5, 5),
                    {"w": w_depthwise},
                ),
                Model(
                    "depthwise_multiplier",
                    x,
                    conv("", "x", "w", x.shape, w_multiplier.shape, (1, 8, 3, 3),
                         conv_attrs(3, 8, "groups = 4 : i32")),
                    (1, 8, 3, 3),
                    {"w": w_multiplier},
                    comment="Two output channels per input channel.",
                ),
                Model(
                    "grouped_batch",
                    x_batch,
                    conv("", "x", "w", x_batch.shape, w_grouped.shape, (2, 6, 2, 2),
                         conv_attrs(3, 6, "padding = array<i32: 0, 0, 1, 1>, groups = 2 : i32")),
                    (2, 6, 2, 2),
                    {"w": w_grouped},
                    comment="Two images, padding after only.",
                ),
                Model(
                    "grouped_nhwc_hwio",
                    x_nhwc,
                    conv("", "x", "w", x_nhwc.shape, w_hwio.shape, (1, 2, 2, 4),
                         conv_attrs(3, 4, 'groups = 2 : i32, data_layout = "NHWC", kernel_layout = "HWIO"')),
                    (1, 2, 2, 4),
                    {"w": w_hwio},
                    comment="An NHWC input with an HWIO weight.",
                ),
                Model(
                    "depthwise_nhwc_hwoi",
                    x_nhwc,
                    conv("", "x", "w", x_nhwc.shape, w_hwoi.shape, (1, 4, 4, 4),
                         conv_attrs(3, 4, 'padding = array<i32: 1, 1, 1, 1>, groups = 4 : i32, data_layout = "NHWC", kernel_layout = "HWOI"')),
                    (1, 4, 4, 4),
                    {"w": w_hwoi},
                    comment="TVM's depthwise layout in NHWC: an HWOI weight.",
                ),
            ],
            passes=("convert-relay-to-tosa", "convert-relay-to-linalg"),
        )
    )

    x = ints(rng, (1, 2, 3, 3))
    w = ints(rng, (2, 2, 3, 3), -1, 1)
    wd = ints(rng, (3, 18), -1, 1)
    gamma, beta = np.array([2.0, 0.5], np.float32), np.array([1.0, -1.0], np.float32)
    mean, var = np.array([1.0, -2.0], np.float32), np.array([3.0, 15.0], np.float32)
    c = conv("", "x", "w", x.shape, w.shape, (1, 2, 3, 3),
             conv_attrs(3, 2, "padding = array<i32: 1, 1, 1, 1>"), "c")
    x_nhwc = ints(rng, (1, 3, 3, 2))
    w_hwio = ints(rng, (3, 3, 2, 2), -1, 1)
    files.append(
        TestFile(
            "layouts.mlir",
            "Layouts, run: a convolution's result is NHWC inside and meets operators that\n"
            "need Relay's order (a reshape, batch_flatten: transposed back), that do not\n"
            "(a reshape of 1x1xC, elementwise operators, reductions, concatenation: kept\n"
            "in NHWC), a transpose (composed with the layout), and NHWC inputs.",
            [
                Model("batch_flatten", x, f"""
                    {c}
                    %r = relay.nn.batch_flatten(%c) : ({t(1, 2, 3, 3)}) -> {t(1, 18)}
                    """, (1, 18), {"w": w}, comment="NCHW order: the first channel's nine values, then the second's."),
                Model("reshape", x, f"""
                    {c}
                    %r = relay.reshape(%c) {{newshape = array<i32: 2, 9>}} : ({t(1, 2, 3, 3)}) -> {t(2, 9)}
                    """, (2, 9), {"w": w}),
                Model("pool_reshape_dense", x, f"""
                    {c}
                    %p = relay.nn.global_avg_pool2d(%c) : ({t(1, 2, 3, 3)}) -> {t(1, 2, 1, 1)}
                    %f = relay.reshape(%p) {{newshape = array<i32: 1, -1>}} : ({t(1, 2, 1, 1)}) -> {t(1, 2)}
                    %k = relay.constant dense<[[1.0, 2.0], [-1.0, 0.0], [0.0, 9.0]]> : {t(3, 2)}
                    %r = relay.nn.dense(%f, %k) : ({t(1, 2)}, {t(3, 2)}) -> {t(1, 3)}
                    """, (1, 3), {"w": w}, comment="The 1x1xC pool result needs no transpose before the reshape."),
                Model("transpose", x, f"""
                    {c}
                    %r = relay.transpose(%c) {{axes = array<i32: 0, 3, 1, 2>}} : ({t(1, 2, 3, 3)}) -> {t(1, 3, 2, 3)}
                    """, (1, 3, 2, 3), {"w": w}),
                Model("residual_add", x, f"""
                    {c}
                    %r = relay.add(%c, %x) : ({t(1, 2, 3, 3)}, {t(1, 2, 3, 3)}) -> {t(1, 2, 3, 3)}
                    """, (1, 2, 3, 3), {"w": w}, comment="The NCHW input is transposed to meet the NHWC convolution."),
                Model("broadcast", x, f"""
                    {c}
                    %s = relay.constant dense<[[[1.0, 2.0, 3.0]], [[10.0, 20.0, 30.0]]]> : {t(2, 1, 3)}
                    %m = relay.multiply(%c, %s) : ({t(1, 2, 3, 3)}, {t(2, 1, 3)}) -> {t(1, 2, 3, 3)}
                    %h = relay.constant dense<0.5> : tensor<f32>
                    %r = relay.subtract(%m, %h) : ({t(1, 2, 3, 3)}, tensor<f32>) -> {t(1, 2, 3, 3)}
                    """, (1, 2, 3, 3), {"w": w}, comment="Operands of lower rank broadcast against the NHWC result."),
                Model("batch_norm", x, f"""
                    {c}
                    %bn = relay.nn.batch_norm(%c, %gamma, %beta, %mean, %var) : ({t(1, 2, 3, 3)}, {t(2)}, {t(2)}, {t(2)}, {t(2)}) -> tuple<{t(1, 2, 3, 3)}, {t(2)}, {t(2)}>
                    %r = relay.tuple_get_item %bn[0] : tuple<{t(1, 2, 3, 3)}, {t(2)}, {t(2)}>
                    """, (1, 2, 3, 3), {"w": w, "gamma": gamma, "beta": beta, "mean": mean, "var": var},
                      comment="(x - mean) / sqrt(var + 1e-5) * gamma + beta, variances 3 and 15 plus epsilon:\n"
                      "not exact, so the values print rounded."),
                Model("mean_channels", x, f"""
                    {c}
                    %r = relay.mean(%c) {{axis = array<i32: 1>, keepdims = true}} : ({t(1, 2, 3, 3)}) -> {t(1, 1, 3, 3)}
                    """, (1, 1, 3, 3), {"w": w}),
                Model("sum_spatial", x, f"""
                    {c}
                    %r = relay.sum(%c) {{axis = array<i32: 2, 3>}} : ({t(1, 2, 3, 3)}) -> {t(1, 2)}
                    """, (1, 2), {"w": w}),
                Model("dense_after_flatten", x, f"""
                    {c}
                    %f = relay.nn.batch_flatten(%c) : ({t(1, 2, 3, 3)}) -> {t(1, 18)}
                    %k = relay.constant dense<{literal(wd)}> : {t(3, 18)}
                    %r = relay.nn.dense(%f, %k) : ({t(1, 18)}, {t(3, 18)}) -> {t(1, 3)}
                    """, (1, 3), {"w": w}),
                Model("nhwc_input", x_nhwc, f"""
                    %c = relay.nn.conv2d(%x, %w) {{padding = array<i32: 1, 1, 1, 1>, channels = 2 : i32, kernel_size = array<i32: 3, 3>, data_layout = "NHWC", kernel_layout = "HWIO"}} : ({t(1, 3, 3, 2)}, {t(3, 3, 2, 2)}) -> {t(1, 3, 3, 2)}
                    %r = relay.nn.relu(%c) : ({t(1, 3, 3, 2)}) -> {t(1, 3, 3, 2)}
                    """, (1, 3, 3, 2), {"w": w_hwio}, comment="NHWC data with an HWIO weight: no transposes at all."),
            ],
        )
    )

    files.append(
        TestFile(
            "padding.mlir",
            "TOSA's exact-size rule, run: where Relay's output size leaves input rows the\n"
            "window never reaches, the padding after shrinks, or the input is sliced.",
            [
                Model("stem_7x7_stride_2", x8 := ints(rng, (1, 1, 8, 8)),
                      conv("", "x", "w", (1, 1, 8, 8), (1, 1, 7, 7), (1, 1, 4, 4),
                           conv_attrs(7, 1, "strides = array<i32: 2, 2>, padding = array<i32: 3, 3, 3, 3>")),
                      (1, 1, 4, 4), {"w": ints(rng, (1, 1, 7, 7), -1, 1)},
                      comment="resnet's stem: 7x7, stride 2, padding 3 on an even size: padding 2 after."),
                Model("conv_1x1_stride_2", ints(rng, (1, 2, 4, 4)),
                      conv("", "x", "w", (1, 2, 4, 4), (2, 2, 1, 1), (1, 2, 2, 2),
                           conv_attrs(1, 2, "strides = array<i32: 2, 2>")),
                      (1, 2, 2, 2), {"w": ints(rng, (2, 2, 1, 1), -1, 2)},
                      comment="resnet's downsampling 1x1, stride 2 on an even size: the last row and column sliced off."),
                Model("conv_3x3_stride_2", ints(rng, (1, 1, 6, 6)),
                      conv("", "x", "w", (1, 1, 6, 6), (1, 1, 3, 3), (1, 1, 3, 3),
                           conv_attrs(3, 1, "strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>")),
                      (1, 1, 3, 3), {"w": ints(rng, (1, 1, 3, 3), -1, 1)},
                      comment="3x3, stride 2, padding 1 on an even size: no padding after."),
                Model("conv_asymmetric", ints(rng, (1, 1, 4, 4)),
                      conv("", "x", "w", (1, 1, 4, 4), (1, 1, 2, 2), (1, 1, 4, 5),
                           conv_attrs(2, 1, "padding = array<i32: 0, 1, 1, 1>")),
                      (1, 1, 4, 5), {"w": ints(rng, (1, 1, 2, 2), -1, 1)},
                      comment="Padding (top, left, bottom, right) = (0, 1, 1, 1)."),
                Model("conv_dilated", ints(rng, (1, 1, 6, 6)),
                      conv("", "x", "w", (1, 1, 6, 6), (1, 1, 3, 3), (1, 1, 2, 2),
                           conv_attrs(3, 1, "strides = array<i32: 2, 2>, dilation = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>")),
                      (1, 1, 2, 2), {"w": ints(rng, (1, 1, 3, 3), -1, 1)},
                      comment="Dilation 2, stride 2, padding 1 on an even size: no padding after."),
                Model("max_pool_3x3_stride_2", ints(rng, (1, 1, 6, 6)),
                      pool("max_pool2d", "x", (1, 1, 6, 6), (1, 1, 3, 3),
                           "pool_size = array<i32: 3, 3>, strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>"),
                      (1, 1, 3, 3), comment="resnet's max pool on an even size: no padding after."),
                Model("avg_pool_stride_3", ints(rng, (1, 1, 7, 7)),
                      pool("avg_pool2d", "x", (1, 1, 7, 7), (1, 1, 2, 2),
                           "pool_size = array<i32: 2, 2>, strides = array<i32: 3, 3>"),
                      (1, 1, 2, 2), comment="Windows that never reach the last two rows and columns: sliced off."),
            ],
        )
    )
    x = ints(rng, (2, 5), -2, 2)
    files.append(
        TestFile(
            "softmax.mlir",
            "nn.softmax and nn.log_softmax along the last axis, and softmax of an NCHW\n"
            "activation along its channels (held NHWC after the convolution), run.",
            [
                Model("softmax", x, unary("nn.softmax", "x", (2, 5), (2, 5), "axis = -1 : i32"), (2, 5)),
                Model("log_softmax", x, unary("nn.log_softmax", "x", (2, 5), (2, 5), "axis = 1 : i32"), (2, 5)),
                Model(
                    "conv_softmax",
                    ints(rng, (1, 2, 3, 3)),
                    "\n".join(
                        [
                            conv("", "x", "w", (1, 2, 3, 3), (3, 2, 1, 1), (1, 3, 3, 3), conv_attrs(1, 3), "c"),
                            unary("nn.softmax", "c", (1, 3, 3, 3), (1, 3, 3, 3), "axis = 1 : i32"),
                        ]
                    ),
                    (1, 3, 3, 3),
                    {"w": ints(rng, (3, 2, 1, 1), -1, 1)},
                ),
            ],
            digits=4,
        )
    )
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if a file is stale")
    args = parser.parse_args()
    stale = []
    for test in test_files():
        path = HERE / test.name
        text = test.text()
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(test.name)
        else:
            path.write_text(text)
    if stale:
        print("stale: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
