"""The torchvision model names known without importing torchvision."""

from __future__ import annotations

import pytest

from relay_xdsl.tools.torchvision_names import (
    MODELS,
    TORCHVISION_VERSION,
    installed_torchvision,
    model_names,
    unknown_model_message,
)


def test_the_names_are_the_pinned_torchvisions():
    torchvision = pytest.importorskip("torchvision")
    if installed_torchvision() != TORCHVISION_VERSION:
        pytest.skip(f"torchvision {installed_torchvision()} is not the pinned version")
    assert MODELS == frozenset(torchvision.models.list_models(module=torchvision.models))
    assert model_names() is MODELS


def test_an_unknown_name_gets_the_closest():
    assert unknown_model_message("resnet1", MODELS) == (
        "'resnet1' is not a torchvision model; did you mean resnet18 or resnet152 or resnet101?"
    )
    assert unknown_model_message("qqq", MODELS) == "'qqq' is not a torchvision model"
