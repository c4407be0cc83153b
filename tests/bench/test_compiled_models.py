"""bench.compiled_models: a transformer's input and output, and unknown names."""

from __future__ import annotations

import pytest

from bench.compiled_models import check_name, model
from bench.tvm019.export_onnx import TOKENS, VOCAB


def test_gpt2_takes_token_ids_and_gives_logits():
    gpt2 = model("gpt2")
    ids = gpt2.example.numpy()
    assert ids.shape == (1, TOKENS)
    assert ids.dtype.name == "int64"
    assert 0 <= ids.min() and ids.max() < VOCAB and len(set(ids.ravel())) > 1
    assert gpt2.expected().shape == (1, TOKENS, VOCAB)


def test_an_unknown_name_is_named():
    check_name("resnet18")
    with pytest.raises(
        ValueError, match="unknown model resnet1: neither a torchvision classifier nor bert or gpt2"
    ):
        check_name("resnet1")
