"""resnet18's body written directly in TOSA (NHWC), for timing the compile schedule.

``resnet18_tosa()`` returns the MLIR text of one function ``@main`` in the generic
form upstream ``mlir-opt-22`` reads, and the list of its arguments: the image
``1x224x224x3`` first, then every weight (conv weights HWIO, or OHWI as
``tosa.conv2d`` wants; batch norm folded into the conv bias; the classifier's weight ``1x512x1000``
for ``tosa.matmul``).  Weights are arguments, not constants, so the text stays
small.  ``reference()`` computes the same network with PyTorch (NCHW) on the same
numbers, the check the benchmark makes before it times anything.

TOSA needs ``(H - 1 + pads - (K - 1)) % stride == 0``: the stem conv and the max
pool get a smaller bottom/right pad, and the 1x1 stride-2 shortcut convs read the
input sliced by one row and column, both giving PyTorch's output size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import torch

Shape = tuple[int, int, int, int]

F32_MAX = "3.40282347E+38"


@dataclass
class Arg:
    name: str
    shape: tuple[int, ...]


@dataclass
class _Emitter:
    lines: list[str] = field(default_factory=list)
    args: list[Arg] = field(default_factory=list)
    counter: int = 0

    def fresh(self) -> str:
        self.counter += 1
        return f"%v{self.counter}"

    def arg(self, shape: tuple[int, ...]) -> str:
        name = f"%a{len(self.args)}"
        self.args.append(Arg(name, shape))
        return name

    def emit(self, text: str) -> str:
        result = self.fresh()
        self.lines.append(f"    {result} = {text}")
        return result


def _ty(shape: tuple[int, ...]) -> str:
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def _fix_pads(size: int, kernel: int, stride: int, pad: int) -> tuple[int, int]:
    """Pads (before, after) TOSA accepts that give PyTorch's output size."""
    out = (size + 2 * pad - kernel) // stride + 1
    after = (out - 1) * stride + kernel - size - pad
    return pad, after


@dataclass
class _Net:
    em: _Emitter
    hwio: bool = True
    zp: str = ""
    specs: list[tuple[str, dict]] = field(default_factory=list)

    def start(self) -> None:
        self.zp = self.em.emit(
            '"tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>'
        )

    def conv(
        self, x: str, shape: Shape, cout: int, k: int, stride: int, pad: int, relu: bool
    ) -> tuple[str, Shape]:
        n, h, w, cin = shape
        if k == 1 and stride == 2 and (h - 1) % 2:
            # a 1x1 stride-2 conv never reads the last row/column of an even input
            start = self.em.emit(
                '"tosa.const_shape"() {values = dense<[0, 0, 0, 0]> : tensor<4xindex>}'
                " : () -> !tosa.shape<4>"
            )
            size = self.em.emit(
                f'"tosa.const_shape"() {{values = dense<[{n}, {h - 1}, {w - 1}, {cin}]>'
                " : tensor<4xindex>} : () -> !tosa.shape<4>"
            )
            sliced = (n, h - 1, w - 1, cin)
            x = self.em.emit(
                f'"tosa.slice"({x}, {start}, {size}) : ({_ty(shape)}, !tosa.shape<4>, '
                f"!tosa.shape<4>) -> {_ty(sliced)}"
            )
            shape = sliced
            n, h, w, cin = shape
        top, bottom = _fix_pads(h, k, stride, pad)
        left, right = _fix_pads(w, k, stride, pad)
        oh = (h - 1 + top + bottom - (k - 1)) // stride + 1
        ow = (w - 1 + left + right - (k - 1)) // stride + 1
        if self.hwio:
            hwio = self.em.arg((k, k, cin, cout))
            wt = self.em.emit(
                f'"tosa.transpose"({hwio}) {{perms = array<i32: 3, 0, 1, 2>}} : ({_ty((k, k, cin, cout))}) '
                f"-> {_ty((cout, k, k, cin))}"
            )
        else:
            wt = self.em.arg((cout, k, k, cin))
        bias = self.em.arg((cout,))
        out: Shape = (n, oh, ow, cout)
        self.specs.append(
            ("conv", {"k": k, "stride": stride, "pad": pad, "cin": cin, "cout": cout})
        )
        y = self.em.emit(
            f'"tosa.conv2d"({x}, {wt}, {bias}, {self.zp}, {self.zp}) {{acc_type = f32, '
            f"dilation = array<i64: 1, 1>, pad = array<i64: {top}, {bottom}, {left}, {right}>, "
            f"stride = array<i64: {stride}, {stride}>}} : ({_ty(shape)}, {_ty((cout, k, k, cin))}, "
            f"tensor<{cout}xf32>, tensor<1xf32>, tensor<1xf32>) -> {_ty(out)}"
        )
        if relu:
            y = self.relu(y, out)
        return y, out

    def relu(self, x: str, shape: Shape) -> str:
        return self.em.emit(
            f'"tosa.clamp"({x}) {{min_val = 0.0 : f32, max_val = {F32_MAX} : f32}}'
            f" : ({_ty(shape)}) -> {_ty(shape)}"
        )

    def add(self, a: str, b: str, shape: Shape) -> str:
        return self.em.emit(f'"tosa.add"({a}, {b}) : ({_ty(shape)}, {_ty(shape)}) -> {_ty(shape)}')

    def block(self, x: str, shape: Shape, cout: int, stride: int) -> tuple[str, Shape]:
        y, s1 = self.conv(x, shape, cout, 3, stride, 1, relu=True)
        y, s2 = self.conv(y, s1, cout, 3, 1, 1, relu=False)
        if stride != 1 or shape[3] != cout:
            x, _ = self.conv(x, shape, cout, 1, stride, 0, relu=False)
        return self.relu(self.add(y, x, s2), s2), s2


def resnet18_tosa(
    image: int = 224, classes: int = 1000, hwio: bool = True
) -> tuple[str, list[Arg]]:
    """The TOSA text of resnet18 (batch norm folded) and its arguments in order.

    With ``hwio`` the conv weights are HWIO arguments, each put into OHWI by a
    ``tosa.transpose`` that the schedule cancels against its own transpose to
    HWCF (``relay_xdsl.compiler.schedule``); without it they are OHWI arguments.
    """
    em = _Emitter()
    net = _Net(em, hwio=hwio)
    x = em.arg((1, image, image, 3))
    net.start()
    y, shape = net.conv(x, (1, image, image, 3), 64, 7, 2, 3, relu=True)
    n, h, w, c = shape
    top, bottom = _fix_pads(h, 3, 2, 1)
    ph = (h - 1 + top + bottom - 2) // 2 + 1
    pooled = (n, ph, ph, c)
    y = em.emit(
        f'"tosa.max_pool2d"({y}) {{kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, '
        f"pad = array<i64: {top}, {bottom}, {top}, {bottom}>}} : ({_ty(shape)}) -> {_ty(pooled)}"
    )
    shape = pooled
    for cout, stride in [
        (64, 1),
        (64, 1),
        (128, 2),
        (128, 1),
        (256, 2),
        (256, 1),
        (512, 2),
        (512, 1),
    ]:
        y, shape = net.block(y, shape, cout, stride)
    n, h, w, c = shape
    summed = em.emit(
        f'"tosa.avg_pool2d"({y}, {net.zp}, {net.zp}) {{acc_type = f32, kernel = array<i64: {h}, {w}>, '
        f"stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}} : ({_ty(shape)}, tensor<1xf32>, "
        f"tensor<1xf32>) -> {_ty((1, 1, 1, c))}"
    )
    flat_shape = em.emit(
        f'"tosa.const_shape"() {{values = dense<[1, 1, {c}]> : tensor<3xindex>}} : () -> !tosa.shape<3>'
    )
    flat = em.emit(
        f'"tosa.reshape"({summed}, {flat_shape}) : ({_ty((1, 1, 1, c))}, !tosa.shape<3>) -> {_ty((1, 1, c))}'
    )
    fc_w = em.arg((1, c, classes))
    fc_b = em.arg((1, 1, classes))
    mm = em.emit(
        f'"tosa.matmul"({flat}, {fc_w}, {net.zp}, {net.zp}) : ({_ty((1, 1, c))}, {_ty((1, c, classes))}, '
        f"tensor<1xf32>, tensor<1xf32>) -> {_ty((1, 1, classes))}"
    )
    out = em.emit(
        f'"tosa.add"({mm}, {fc_b}) : ({_ty((1, 1, classes))}, {_ty((1, 1, classes))}) -> {_ty((1, 1, classes))}'
    )
    params = ", ".join(f"{a.name}: {_ty(a.shape)}" for a in em.args)
    text = (
        f"func.func @main({params}) -> {_ty((1, 1, classes))} attributes {{llvm.emit_c_interface}} {{\n"
        + "\n".join(em.lines)
        + f"\n    func.return {out} : {_ty((1, 1, classes))}\n}}\n"
    )
    return text, em.args


def random_arguments(args: list[Arg], seed: int = 0) -> list[np.ndarray]:
    """Inputs with He-scaled weights, so activations stay O(1) through 20 convs."""
    rng = np.random.default_rng(seed)
    values = []
    for i, a in enumerate(args):
        if i == 0:
            values.append(rng.standard_normal(a.shape, dtype=np.float32))
        elif len(a.shape) == 4:
            fan_in = int(np.prod(a.shape)) // max(a.shape[0], a.shape[3])
            values.append(
                rng.standard_normal(a.shape, dtype=np.float32) * np.float32(np.sqrt(1.0 / fan_in))
            )
        elif len(a.shape) == 3 and a.shape[1] > 1:
            values.append(
                rng.standard_normal(a.shape, dtype=np.float32)
                * np.float32(np.sqrt(1.0 / a.shape[1]))
            )
        else:
            values.append(rng.standard_normal(a.shape, dtype=np.float32) * np.float32(0.1))
    return values


def torch_model(
    values: list[np.ndarray], hwio: bool = True
) -> Callable[[torch.Tensor], torch.Tensor]:
    """The same network as a PyTorch callable on an NCHW image, for reference and timing."""
    import torch
    import torch.nn.functional as F

    weights = iter(values[1:])

    def conv_params() -> tuple[torch.Tensor, torch.Tensor]:
        w = next(weights)
        filt = torch.from_numpy(
            np.ascontiguousarray(w.transpose(3, 2, 0, 1) if hwio else w.transpose(0, 3, 1, 2))
        )
        return filt, torch.from_numpy(next(weights))

    stem = conv_params()
    Conv = tuple[torch.Tensor, torch.Tensor]
    blocks: list[tuple[Conv, Conv, Conv | None, int]] = []
    cin = 64
    for cout, stride in [
        (64, 1),
        (64, 1),
        (128, 2),
        (128, 1),
        (256, 2),
        (256, 1),
        (512, 2),
        (512, 1),
    ]:
        c1, c2 = conv_params(), conv_params()
        down = conv_params() if stride != 1 or cin != cout else None
        blocks.append((c1, c2, down, stride))
        cin = cout
    fc_w = torch.from_numpy(np.ascontiguousarray(next(weights)[0].T))
    fc_b = torch.from_numpy(next(weights).reshape(-1))

    def forward(x: torch.Tensor) -> torch.Tensor:
        y = F.relu(F.conv2d(x, stem[0], stem[1], stride=2, padding=3))
        y = F.max_pool2d(y, 3, 2, 1)
        for c1, c2, down, stride in blocks:
            z = F.relu(F.conv2d(y, c1[0], c1[1], stride=stride, padding=1))
            z = F.conv2d(z, c2[0], c2[1], padding=1)
            if down is not None:
                y = F.conv2d(y, down[0], down[1], stride=stride)
            y = F.relu(z + y)
        y = torch.flatten(F.adaptive_avg_pool2d(y, 1), 1)
        return F.linear(y, fc_w, fc_b)

    return forward


def reference(values: list[np.ndarray], hwio: bool = True) -> np.ndarray:
    """PyTorch's output for the same arguments, as ``1x1xclasses``."""
    import torch

    with torch.no_grad():
        x = torch.from_numpy(np.ascontiguousarray(values[0].transpose(0, 3, 1, 2)))
        out = torch_model(values, hwio)(x)
    return out.numpy().reshape(1, 1, -1)
