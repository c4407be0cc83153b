"""Export the TVM-0.19 benchmark models to ONNX (step 1 of make_texts.py).

Runs in relay-xdsl's venv (torch and torchvision) with the ``onnx`` package on
``PYTHONPATH``: torch's TorchScript exporter (``dynamo=False``) needs it to
write the file. make_texts.py installs it with ``pip install --target`` into
``build/tvm019/onnx-export`` rather than into the venv.

    PYTHONPATH=build/tvm019/onnx-export .venv/bin/python bench/tvm019/export_onnx.py OUT_DIR [MODEL...]

Models (random weights, eval mode, batch 1, opset 17):

* ``resnet50``, ``mobilenet_v2``, ``squeezenet1_1``, ``efficientnet_b0``,
  ``convnext_tiny``: torchvision classifiers, ``weights=None``, 1x3x224x224;
* ``lraspp_mobilenet_v3_large``: torchvision's semantic segmentation model
  (its ``"out"`` map, bilinear upsampling back to 1x21x224x224);
* ``mnist``: a LeNet-5-shaped digit classifier on 1x1x28x28, its first
  convolution's padding written as an explicit ``F.pad`` (an ONNX ``Pad``);
* ``gpt2``: a GPT-2-shaped decoder built here (transformers is not a
  dependency): token and position embeddings, 12 blocks of layer norm,
  causal self-attention (one fused QKV projection, split, reshape and
  transpose to 12 heads, ``q @ k^T`` scaled, masked, softmax, ``@ v``, back
  to 768 wide, output projection) and an MLP (768 -> 3072, tanh GELU as
  GPT-2 has it, -> 768), both residual, a final layer norm and the tied
  language-model head; 64 tokens, a 2048-word vocabulary (the vocabulary
  size changes only the size of two weights, not the graph);
* ``bert``: a BERT-base-shaped encoder built here: word, position and
  token-type embeddings, layer norm, 12 post-norm layers of bidirectional
  self-attention (separate Q, K and V projections) and an MLP with erf GELU,
  and the pooler (``tanh`` of a dense layer on the first token); 64 tokens.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import torch
import torchvision
from torch import nn
from torch.nn import functional

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


class BertLayer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.query = nn.Linear(HIDDEN, HIDDEN)
        self.key = nn.Linear(HIDDEN, HIDDEN)
        self.value = nn.Linear(HIDDEN, HIDDEN)
        self.attention_output = nn.Linear(HIDDEN, HIDDEN)
        self.attention_norm = nn.LayerNorm(HIDDEN, eps=1e-12)
        self.intermediate = nn.Linear(HIDDEN, 4 * HIDDEN)
        self.output = nn.Linear(4 * HIDDEN, HIDDEN)
        self.output_norm = nn.LayerNorm(HIDDEN, eps=1e-12)

    def heads(self, x: torch.Tensor) -> torch.Tensor:
        batch, tokens, width = x.shape
        return x.reshape(batch, tokens, HEADS, width // HEADS).permute(0, 2, 1, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, tokens, width = x.shape
        q, k, v = (self.heads(f(x)) for f in (self.query, self.key, self.value))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(width // HEADS)
        context = torch.matmul(torch.softmax(scores, dim=-1), v)
        context = context.permute(0, 2, 1, 3).reshape(batch, tokens, width)
        x = self.attention_norm(x + self.attention_output(context))
        hidden = functional.gelu(self.intermediate(x))
        return self.output_norm(x + self.output(hidden))


class BertLike(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.word = nn.Embedding(VOCAB, HIDDEN)
        self.position = nn.Embedding(TOKENS, HIDDEN)
        self.token_type = nn.Embedding(2, HIDDEN)
        self.norm = nn.LayerNorm(HIDDEN, eps=1e-12)
        self.layers = nn.ModuleList(BertLayer() for _ in range(LAYERS))
        self.pooler = nn.Linear(HIDDEN, HIDDEN)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(ids.shape[1]).unsqueeze(0)
        x = self.word(ids) + self.position(positions) + self.token_type(torch.zeros_like(ids))
        x = self.norm(x)
        for layer in self.layers:
            x = layer(x)
        return torch.tanh(self.pooler(x[:, 0]))


class LeNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = functional.max_pool2d(torch.relu(self.conv1(functional.pad(x, (2, 2, 2, 2)))), 2)
        x = functional.max_pool2d(torch.relu(self.conv2(x)), 2)
        x = torch.relu(self.fc1(x.reshape(x.shape[0], -1)))
        return torch.softmax(self.fc3(torch.relu(self.fc2(x))), dim=-1)


class SegmentationMap(nn.Module):
    """A torchvision segmentation model's ``"out"`` map (the model returns a dict)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.net = getattr(torchvision.models.segmentation, name)(
            weights=None, weights_backbone=None
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)["out"]


IMAGE = (1, 3, 224, 224)
INPUT_SHAPES = {
    "resnet50": IMAGE,
    "mobilenet_v2": IMAGE,
    "squeezenet1_1": IMAGE,
    "efficientnet_b0": IMAGE,
    "convnext_tiny": IMAGE,
    "lraspp_mobilenet_v3_large": IMAGE,
    "mnist": (1, 1, 28, 28),
    "gpt2": (1, TOKENS),
    "bert": (1, TOKENS),
}
"""Each model's one input (``"input"``); the token models take int64 ids."""


def model(name: str) -> tuple[nn.Module, torch.Tensor]:
    torch.manual_seed(0)
    shape = INPUT_SHAPES[name]
    if name in ("gpt2", "bert"):
        net: nn.Module = GPT2Like() if name == "gpt2" else BertLike()
        return net.eval(), torch.zeros(*shape, dtype=torch.int64)
    if name == "mnist":
        net = LeNet()
    elif name.startswith("lraspp"):
        net = SegmentationMap(name)
    else:
        net = getattr(torchvision.models, name)(weights=None)
    return net.eval(), torch.randn(*shape)


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
