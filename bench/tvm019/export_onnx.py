"""Export the TVM-0.19 benchmark models to ONNX (step 1 of make_texts.py).

Runs in relay-xdsl's venv (torch and torchvision) with the ``onnx`` package on
``PYTHONPATH``: torch's TorchScript exporter (``dynamo=False``) needs it to
write the file. make_texts.py installs it with ``pip install --target`` into
``build/tvm019/onnx-export`` rather than into the venv.

    PYTHONPATH=build/tvm019/onnx-export .venv/bin/python bench/tvm019/export_onnx.py OUT_DIR [MODEL...]

Models (random weights, eval mode, batch 1, opset 17):

* ``resnet50``, ``mobilenet_v2``: torchvision, ``weights=None``, 1x3x224x224;
* ``gpt2``: a GPT-2-shaped decoder built here (transformers is not a
  dependency): token and position embeddings, 12 blocks of layer norm,
  causal self-attention (one fused QKV projection, split, reshape and
  transpose to 12 heads, ``q @ k^T`` scaled, masked, softmax, ``@ v``, back
  to 768 wide, output projection) and an MLP (768 -> 3072, tanh GELU as
  GPT-2 has it, -> 768), both residual, a final layer norm and the tied
  language-model head; 64 tokens, a 2048-word vocabulary (the vocabulary
  size changes only the size of two weights, not the graph).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import torch
import torchvision
from torch import nn

HIDDEN, HEADS, LAYERS, VOCAB, TOKENS = 768, 12, 12, 2048, 64


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.ln_1 = nn.LayerNorm(HIDDEN)
        self.c_attn = nn.Linear(HIDDEN, 3 * HIDDEN)
        self.c_proj = nn.Linear(HIDDEN, HIDDEN)
        self.ln_2 = nn.LayerNorm(HIDDEN)
        self.c_fc = nn.Linear(HIDDEN, 4 * HIDDEN)
        self.mlp_proj = nn.Linear(4 * HIDDEN, HIDDEN)
        mask = torch.tril(torch.ones(TOKENS, TOKENS, dtype=torch.bool))
        self.register_buffer("mask", mask.view(1, 1, TOKENS, TOKENS))

    def attention(self, x: torch.Tensor) -> torch.Tensor:
        batch, tokens, width = x.shape
        q, k, v = self.c_attn(x).split(width, dim=2)
        heads = [t.reshape(batch, tokens, HEADS, width // HEADS).transpose(1, 2) for t in (q, k, v)]
        q, k, v = heads
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(width // HEADS)
        scores = scores.masked_fill(~self.get_buffer("mask"), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        out = torch.matmul(weights, v).transpose(1, 2).reshape(batch, tokens, width)
        return self.c_proj(out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attention(self.ln_1(x))
        hidden = nn.functional.gelu(self.c_fc(self.ln_2(x)), approximate="tanh")
        return x + self.mlp_proj(hidden)


class GPT2Like(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.wte = nn.Embedding(VOCAB, HIDDEN)
        self.wpe = nn.Embedding(TOKENS, HIDDEN)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln_f = nn.LayerNorm(HIDDEN)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(ids.shape[1]).unsqueeze(0)
        x = self.wte(ids) + self.wpe(positions)
        for block in self.blocks:
            x = block(x)
        return torch.matmul(self.ln_f(x), self.wte.weight.t())


def model(name: str) -> tuple[nn.Module, torch.Tensor]:
    torch.manual_seed(0)
    if name == "gpt2":
        return GPT2Like().eval(), torch.zeros(1, TOKENS, dtype=torch.int64)
    net = getattr(torchvision.models, name)(weights=None).eval()
    return net, torch.randn(1, 3, 224, 224)


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for name in argv[1:] or ["resnet50", "mobilenet_v2", "gpt2"]:
        net, example = model(name)
        with torch.no_grad():
            torch.onnx.export(
                net,
                (example,),
                str(out / f"{name}.onnx"),
                dynamo=False,
                opset_version=17,
                input_names=["input"],
                output_names=["output"],
            )
        print(f"exported {name}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
