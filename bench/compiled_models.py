"""The models ``python -m bench.compiled`` compares, as PyTorch holds them and as each
compiler takes them.

* torchvision classifiers (``resnet18``, ``resnet50``, ``mobilenet_v2``,
  ``vit_b_16``, any other of relay_xdsl.tvm.models): seeded, calibrated random
  weights and the seeded 1x3x224x224 input of relay_xdsl.tvm.models;
* ``bert``, a BERT-base-shaped encoder, and ``gpt2``, a GPT-2-shaped decoder,
  as bench/tvm019/export_onnx.py builds them (12 layers, 768 wide, 12 heads,
  a 2048-word vocabulary, 64 tokens; transformers is not a dependency),
  seeded weights, on seeded random token ids (int64).

A `Model` gives one network and one input to every compiler: its Relax module
(``torch.export`` and TVM's ``from_exported_program``) for relay-xdsl, IREE
and TVM, its ONNX file (``torch.onnx.export``, TorchScript exporter, opset 17)
for ONNX Runtime, and PyTorch's own output, which every compiler's must match.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import tvm
from tvm.relax.frontend.torch import from_exported_program

from bench.tvm019.export_onnx import TOKENS, VOCAB, BertLike, GPT2Like
from relay_xdsl.tvm import models as tvm_models

TOKEN_MODELS = {"bert": BertLike, "gpt2": GPT2Like}
"""The transformers, by name; their input is token ids."""
ONNX_OPSET = 17


@dataclass(frozen=True)
class Model:
    """A network in eval mode and its one input."""

    name: str
    network: torch.nn.Module
    example: torch.Tensor

    def expected(self) -> np.ndarray:
        """PyTorch's output on the example."""
        with torch.no_grad():
            return self.network(self.example).numpy()

    def relax_module(self) -> tvm.IRModule:
        """The network as TVM's PyTorch frontend imports its ``torch.export``."""
        return from_exported_program(torch.export.export(self.network, (self.example,)))

    def export_onnx(self, path: Path) -> None:
        """The network as an ONNX file at `path`, its input named ``input``."""
        fastpath = torch.backends.mha.get_fastpath_enabled()
        # nn.MultiheadAttention's fast path (vit_b_16 in eval mode) is one fused
        # operator that the exporter cannot write; the plain path exports.
        torch.backends.mha.set_fastpath_enabled(False)
        try:
            self._export_onnx(path)
        finally:
            torch.backends.mha.set_fastpath_enabled(fastpath)

    def _export_onnx(self, path: Path) -> None:
        with torch.no_grad(), warnings.catch_warnings():
            # The TorchScript exporter is deprecated, but needs no onnxscript.
            warnings.simplefilter("ignore", DeprecationWarning)
            torch.onnx.export(
                self.network,
                (self.example,),
                str(path),
                dynamo=False,
                opset_version=ONNX_OPSET,
                input_names=["input"],
                output_names=["output"],
            )


def check_name(name: str) -> None:
    """A ValueError unless `name` is a torchvision classifier, ``bert`` or ``gpt2``."""
    if name not in TOKEN_MODELS and not tvm_models.is_torchvision_model(name):
        others = " or ".join(TOKEN_MODELS)
        raise ValueError(f"unknown model {name}: neither a torchvision classifier nor {others}")


def model(name: str) -> Model:
    """Model `name`: a torchvision classifier, ``bert`` or ``gpt2``."""
    check_name(name)
    if name in TOKEN_MODELS:
        torch.manual_seed(0)
        ids = torch.randint(0, VOCAB, (1, TOKENS), generator=torch.Generator().manual_seed(1))
        return Model(name, TOKEN_MODELS[name]().eval(), ids)
    return Model(name, tvm_models.torch_model(name), tvm_models.example_input())
