"""Torchvision models as TVM Relax modules, and the seed's fusion recipe for Relax.

Shared by the tests, the CLI and the demo:

* :func:`relax_module` exports a torchvision model (``weights=None`` with
  seeded, calibrated random weights, see :func:`torch_model`; eval mode; a
  1x3x224x224 input) with ``torch.export`` and imports it with
  ``tvm.relax.frontend.torch.from_exported_program``;
* :func:`fold` runs ``FoldBatchnormToConv2D`` + ``FoldConstant`` so that
  batch norms become conv2d + add;
* :func:`fuse` outlines conv2d(+add)(+relu) groups with
  ``FuseOpsByPattern``, using :func:`conv_add_relu_patterns`, the seed's
  ``conv_add_relu`` pattern spelled out for Relax's pattern language, which
  has no ``.optional()``;
* :func:`run` compiles with ``relax.build(..., target="llvm")`` and runs the
  module on TVM's virtual machine.

Model building is cached per process: each model is exported once per input shape.
"""

from __future__ import annotations

import functools

import numpy as np
import torch
import torchvision
import tvm
from tvm import relax
from tvm.relax.dpl import DFPattern, is_op, wildcard
from tvm.relax.frontend.torch import from_exported_program

MODELS = (
    "resnet18",
    "resnet50",
    "mobilenet_v2",
    "squeezenet1_0",
    "densenet121",
    "efficientnet_b0",
    "vit_b_16",
)
"""The torchvision models the Relax bridge is tested on."""

INPUT_SHAPE = (1, 3, 224, 224)
COMPOSITE = "ccompiler.conv_add_relu"
"""The seed's composite name (``f"{compiler_name}.conv_add_relu"``)."""


@functools.cache
def torch_model(name: str) -> torch.nn.Module:
    """Torchvision model `name` with deterministic random weights, in eval mode.

    ``weights=None`` alone makes a poor numerical test: batch norms keep
    their initial statistics (mean 0, variance 1), so folding them changes
    nothing, and outputs drift to 1e-14 (EfficientNet), 1e2 (ResNet-50) or
    exactly 0 (ViT zero-initialises its head). So batch-norm affine
    parameters are randomised, their statistics calibrated on random images,
    and zero-initialised linear layers get random weights, all seeded.
    """
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None)
    _randomize(model)
    return model.eval()


def _randomize(model: torch.nn.Module) -> None:
    generator = torch.Generator().manual_seed(2)
    norms = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.Linear) and not module.weight.any():
                module.weight.normal_(0.0, module.in_features**-0.5, generator=generator)
        for norm in norms:
            norm.weight.uniform_(0.5, 1.5, generator=generator)
            norm.bias.normal_(0.0, 0.1, generator=generator)
            norm.reset_running_stats()
            norm.momentum = None  # a cumulative average over the calibration batch
        if norms:
            model.train()
            model(torch.randn(4, *INPUT_SHAPE[1:], generator=generator))
        for norm in norms:
            norm.momentum = 0.1


def is_torchvision_model(name: str) -> bool:
    """Whether torchvision has a classification model called `name`."""
    return name in torchvision.models.list_models(module=torchvision.models)


def example_input(shape: tuple[int, ...] = INPUT_SHAPE) -> torch.Tensor:
    """The deterministic input the models are exported and checked with."""
    return _example_input(tuple(shape))


def torch_output(name: str, shape: tuple[int, ...] = INPUT_SHAPE) -> np.ndarray:
    """PyTorch's output of model `name` on :func:`example_input`."""
    return _torch_output(name, tuple(shape))


def relax_module(name: str, shape: tuple[int, ...] = INPUT_SHAPE) -> tvm.IRModule:
    """Model `name` as TVM's PyTorch frontend imports it (exported once per process)."""
    return _relax_module(name, tuple(shape))


def main_input_shape(mod: tvm.IRModule) -> tuple[int, ...]:
    """The static shape of the first parameter of `mod`'s ``main``."""
    return tuple(int(d) for d in mod["main"].params[0].ty.shape.values)


@functools.cache
def _example_input(shape: tuple[int, ...]) -> torch.Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(1))


@functools.cache
def _torch_output(name: str, shape: tuple[int, ...]) -> np.ndarray:
    with torch.no_grad():
        return torch_model(name)(_example_input(shape)).numpy()


@functools.cache
def _relax_module(name: str, shape: tuple[int, ...]) -> tvm.IRModule:
    exported = torch.export.export(torch_model(name), (_example_input(shape),))
    return from_exported_program(exported)


def fold(mod: tvm.IRModule) -> tvm.IRModule:
    """Batch norms folded into the preceding conv2d (conv2d + add), constants folded."""
    mod = relax.transform.FoldBatchnormToConv2D()(mod)
    return relax.transform.FoldConstant()(mod)


def conv_add_relu_patterns(name: str = COMPOSITE) -> list[tuple[str, DFPattern]]:
    """The seed's conv2d(+add)(+relu) pattern as Relax alternatives, most specific first.

    The seed writes ``add(conv, bias) | conv`` and ``.optional(relu)``; Relax's
    pattern language has no ``optional``, so the four combinations are listed.
    """
    conv = is_op("relax.nn.conv2d")(wildcard(), wildcard())
    conv_add = is_op("relax.add")(conv, wildcard())
    return [
        (name, is_op("relax.nn.relu")(conv_add)),
        (name, conv_add),
        (name, is_op("relax.nn.relu")(conv)),
        (name, conv),
    ]


def fuse(mod: tvm.IRModule, *, annotate_codegen: bool = False) -> tvm.IRModule:
    """conv2d(+add)(+relu) groups outlined into private ``Composite`` functions."""
    return relax.transform.FuseOpsByPattern(
        conv_add_relu_patterns(),
        bind_constants=False,
        annotate_codegen=annotate_codegen,
    )(mod)


@functools.cache
def folded_module(name: str) -> tvm.IRModule:
    return fold(relax_module(name))


@functools.cache
def fused_module(name: str) -> tvm.IRModule:
    return fuse(folded_module(name))


def run(mod: tvm.IRModule, *inputs: np.ndarray) -> list[np.ndarray]:
    """`mod`'s ``main`` on `inputs`, compiled for LLVM and run on the Relax VM.

    Batch norms are decomposed into arithmetic first: TVM's legalization of a
    float16 ``relax.nn.batch_norm`` computes a float32 result that the next
    operator then rejects."""
    mod = relax.transform.DecomposeOpsForInference()(mod)
    executable = relax.build(mod, target="llvm")
    vm = relax.VirtualMachine(executable, tvm.cpu())
    # np.asarray, not np.ascontiguousarray, which makes a rank-0 input rank 1.
    result = vm["main"](*(tvm.runtime.tensor(np.asarray(x, order="C")) for x in inputs))
    if isinstance(result, tvm.runtime.Tensor):
        return [result.numpy()]
    return [r.numpy() for r in result]
