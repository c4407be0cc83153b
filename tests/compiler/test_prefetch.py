"""The prefetches of a packed product's next panel or block, in the LLVM IR of a compiled
dense layer, and of a conv epilogue's next residual tile."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from relay_xdsl.compiler import build
from relay_xdsl.compiler.frontend import lower
from relay_xdsl.compiler.pipeline import stages
from relay_xdsl.compiler.prefetch import (
    CONV_LINES_A_STEP,
    DECLARATION,
    EPILOGUE_LINES,
    EPILOGUE_PIXELS_AHEAD,
    EPILOGUE_ROW_FLOATS,
    INPUT_LINES_A_STEP,
    prefetch_next_panels,
)
from relay_xdsl.compiler.runtime import CompiledModel
from relay_xdsl.compiler.schedule import PACKED_FEW_ROWS, PACKED_K_BLOCK, SCHEDULE
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import run
from relay_xdsl.tools.io import load_module

PREFETCH = re.compile(r"call void @llvm\.prefetch\.p0\(ptr %[\w.]+, i32 0, i32 \d, i32 1\)")


def _hex(array: np.ndarray) -> str:
    return '"0x' + np.ascontiguousarray(array, dtype="<f4").tobytes().hex().upper() + '"'


def _dense(tmp_path: Path, rows: int, k: int, n: int) -> tuple[Path, np.ndarray, np.ndarray]:
    """A Relay module of one dense layer, ``x @ weight.T + bias``, by a known
    `n` x `k` weight: its file, the weight and the bias."""
    rng = np.random.default_rng(0)
    weight = rng.standard_normal((n, k), dtype=np.float32)
    bias = rng.standard_normal(n, dtype=np.float32)
    x, w, kn, out = (
        f"tensor<{rows}x{k}xf32>",
        f"tensor<{n}x{k}xf32>",
        f"tensor<{k}x{n}xf32>",
        f"tensor<{rows}x{n}xf32>",
    )
    text = f"""builtin.module {{
  func.func @main(%x: {x}) -> tuple<{out}> {{
    %0 = relay.constant dense<{_hex(weight)}> : {w}
    %1 = relay.transpose(%0) {{axes = array<i32: 1, 0>}} : ({w}) -> {kn}
    %2 = relay.relax.matmul(%x, %1) {{out_dtype = "float32"}} : ({x}, {kn}) -> {out}
    %3 = relay.constant dense<{_hex(bias)}> : tensor<{n}xf32>
    %4 = relay.add(%3, %2) : (tensor<{n}xf32>, {out}) -> {out}
    %5 = relay.tuple(%4) : tuple<{out}>
    func.return %5 : tuple<{out}>
  }}
}}
"""
    path = tmp_path / f"dense_{rows}_{k}_{n}.mlir"
    path.write_text(text)
    return path, weight, bias


def _llvm_ir(path: Path | ModuleOp, random_constants: int | None = None) -> str:
    module = path if isinstance(path, ModuleOp) else load_module(str(path))
    program = lower(module, random_constants=random_constants)
    llvm = build.lower_to_llvm_dialect(build.generic_text(program), stages(SCHEDULE), SCHEDULE)
    return build.translate_to_llvm_ir(llvm)


def test_a_packed_product_of_many_rows_prefetches_the_next_panel(tmp_path: Path) -> None:
    """One prefetch in the reduction loop of its row tiles, K * 32 floats (a
    panel) past the panel the loop reads, at the line the tile's row selects."""
    rows, k = PACKED_FEW_ROWS + 8, 64
    path, _, _ = _dense(tmp_path, rows, k, 96)
    llvm_ir = _llvm_ir(path)
    assert not PREFETCH.search(llvm_ir)
    prefetched = prefetch_next_panels(llvm_ir)
    assert len(PREFETCH.findall(prefetched)) == 1
    assert re.search(rf"= add i64 %[\w.]+, {k * 32}\n", prefetched)
    assert re.search(r"= lshr i64 %[\w.]+, 3\n.*= and i64 %[\w.]+, 15\n", prefetched)
    assert prefetched.count(DECLARATION) == 1
    # the rest as it was
    assert "\n".join(line for line in prefetched.split("\n") if "%next_panel" not in line) == (
        llvm_ir + "\n" + DECLARATION
    )


def test_a_product_of_few_rows_gets_no_prefetches(tmp_path: Path) -> None:
    """Its reduction runs in blocks of ``PACKED_K_BLOCK`` panel rows, which the
    hardware's prefetchers fetch in time."""
    path, _, _ = _dense(tmp_path, PACKED_FEW_ROWS // 2, 2 * PACKED_K_BLOCK, 96)
    llvm_ir = _llvm_ir(path)
    assert prefetch_next_panels(llvm_ir) == llvm_ir


def test_a_conv_reading_its_taps_in_place_prefetches_the_next_panel(
    known_conv: Callable[..., ModuleOp],
) -> None:
    """One prefetch in the loop of a tile's channel steps (a stride-1 conv of
    14x14 pixels, 3x3 taps of 64 channels, dilated: not Winograd's), a panel
    (9 * 64 * 32 floats) on,
    at the line among the step's that the tile's output row selects."""
    llvm_ir = _llvm_ir(known_conv(14, 64, 64, dilation=2))
    prefetched = prefetch_next_panels(llvm_ir)
    assert len(PREFETCH.findall(prefetched)) == 1
    assert re.search(rf"%next_taps0.step = add i64 %[\w.]+, {9 * 64 * 32}\n", prefetched)
    assert re.search(rf"%next_taps0.line = and i64 %[\w.]+, {CONV_LINES_A_STEP - 1}\n", prefetched)
    assert "\n".join(line for line in prefetched.split("\n") if "%next_taps" not in line) == (
        llvm_ir + "\n" + DECLARATION
    )


def test_a_short_reduction_of_many_rows_gets_no_prefetches(tmp_path: Path) -> None:
    """Its panel (at most 8 KiB) is fetched quickly enough."""
    path, _, _ = _dense(tmp_path, PACKED_FEW_ROWS + 8, 32, 96)
    llvm_ir = _llvm_ir(path)
    assert prefetch_next_panels(llvm_ir) == llvm_ir


@pytest.mark.parametrize("rows", [PACKED_FEW_ROWS // 2 + 3, PACKED_FEW_ROWS + 13])
def test_a_built_library_with_prefetches_computes_the_product(tmp_path: Path, rows: int) -> None:
    """Of few rows (blocked) and of many, each with a last partial row tile."""
    k = 96
    path, weight, bias = _dense(tmp_path, rows, k, 70)
    library = tmp_path / "dense.so"
    build.build(lower(load_module(str(path))), library, schedule=SCHEDULE, cache=False)
    if shutil.which("objdump"):
        assert "prefetcht1" in _disassembly(library)
    x = np.random.default_rng(1).standard_normal((rows, k), dtype=np.float32)
    (result,) = CompiledModel.load(library)(x)
    np.testing.assert_allclose(result, x @ weight.T + bias, rtol=1e-4, atol=1e-4)


def _disassembly(library: Path) -> str:
    return subprocess.run(
        ["objdump", "-d", str(library)], capture_output=True, text=True, check=True
    ).stdout


def _residual_block(width: int, channels: int) -> ModuleOp:
    """relu(conv1x1(x) + r) at 16 x `width` pixels, to `channels` channels, `r` an input."""
    return parse_relay(
        '#[version = "0.0.5"]\n'
        f"def @main(%x: Tensor[(1, 16, {width}, 32), float32],"
        f" %r: Tensor[(1, 16, {width}, {channels}), float32]) {{\n"
        "  %0 = nn.conv2d(%x, meta[relay.Constant][0]"
        f" /* ty=Tensor[(1, 1, 32, {channels}), float32] */, padding=[0, 0, 0, 0],"
        f' channels={channels}, kernel_size=[1, 1], data_layout="NHWC", kernel_layout="HWIO");\n'
        "  nn.relu(add(%0, %r))\n}\n"
    )


def test_a_conv_epilogue_prefetches_the_next_tiles_residual() -> None:
    """Rows of `EPILOGUE_ROW_FLOATS` floats: each pixel's read of the residual
    prefetches the same pixel of the next tile, one prefetch a line."""
    channels = EPILOGUE_ROW_FLOATS // 16
    llvm_ir = _llvm_ir(_residual_block(16, channels), random_constants=0)
    prefetched = prefetch_next_panels(llvm_ir)
    assert len(PREFETCH.findall(prefetched)) == EPILOGUE_LINES
    ahead = EPILOGUE_PIXELS_AHEAD * channels
    assert re.search(rf"%next_pixels0.at = add i64 %[\w.]+, {ahead}\n", prefetched)
    assert "\n".join(line for line in prefetched.split("\n") if "%next_pixels" not in line) == (
        llvm_ir + "\n" + DECLARATION
    )


def test_a_conv_epilogue_of_shorter_rows_gets_no_prefetches() -> None:
    llvm_ir = _llvm_ir(_residual_block(16, EPILOGUE_ROW_FLOATS // 32), random_constants=0)
    assert prefetch_next_panels(llvm_ir) == llvm_ir


@pytest.mark.parametrize("kind", ["residual", "input"])
def test_a_built_conv_with_prefetches_computes_it(tmp_path: Path, kind: str) -> None:
    """15 columns: a last tile of one; the prefetches past the row's end fall in
    the next row, past the tensor's end nowhere (a prefetch never faults)."""
    channels = 560  # 15 x 560 floats a row, at least EPILOGUE_ROW_FLOATS
    module = _residual_block(15, channels) if kind == "residual" else _conv1x1(channels, 15)
    library = tmp_path / f"{kind}.so"
    build.build(lower(module, random_constants=0), library, schedule=SCHEDULE, cache=False)
    if shutil.which("objdump"):
        assert "prefetcht1" in _disassembly(library)
    rng = np.random.default_rng(2)
    inputs = {"x": rng.standard_normal((1, 16, 15, 32 if kind == "residual" else channels))}
    if kind == "residual":
        inputs["r"] = rng.standard_normal((1, 16, 15, channels))
    inputs = {name: value.astype(np.float32) for name, value in inputs.items()}
    (expected,) = run(module, inputs, random_constants=0)
    (result,) = CompiledModel.load(library)(*inputs.values())
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-5)


def _conv1x1(channels: int, width: int = 16) -> ModuleOp:
    """relu(conv1x1(x)) of 16 x `width` pixels of `channels` channels to 64."""
    return parse_relay(
        '#[version = "0.0.5"]\n'
        f"def @main(%x: Tensor[(1, 16, {width}, {channels}), float32]) {{\n"
        "  nn.relu(nn.conv2d(%x, meta[relay.Constant][0]"
        f" /* ty=Tensor[(1, 1, {channels}, 64), float32] */, padding=[0, 0, 0, 0],"
        ' channels=64, kernel_size=[1, 1], data_layout="NHWC", kernel_layout="HWIO"))\n}\n'
    )


def test_a_1x1_conv_of_long_input_rows_prefetches_the_next_tiles_input() -> None:
    """Each channel step of a tile prefetches its share of the next tile's 7
    pixels, which follow the tile's own."""
    channels = EPILOGUE_ROW_FLOATS // 16
    llvm_ir = _llvm_ir(_conv1x1(channels), random_constants=0)
    prefetched = prefetch_next_panels(llvm_ir)
    assert len(PREFETCH.findall(prefetched)) == INPUT_LINES_A_STEP
    assert re.search(rf"%next_input0.next = add i64 %[\w.]+, {7 * channels}\n", prefetched)
    assert re.search(r"%next_input0.rest = mul i64 %[\w.]+, 7\n", prefetched)
    assert "\n".join(line for line in prefetched.split("\n") if "%next_input" not in line) == (
        llvm_ir + "\n" + DECLARATION
    )
    short = _llvm_ir(_conv1x1(channels // 2), random_constants=0)
    assert prefetch_next_panels(short) == short
