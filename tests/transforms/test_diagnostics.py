"""Pass options out of range are errors; options that match nothing are warnings."""

from __future__ import annotations

import warnings

import pytest
from xdsl.context import Context
from xdsl.passes import ModulePass

from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.transforms.defuse import RelayDefusePass
from relay_xdsl.transforms.diagnostics import PassOptionError, RelayPassWarning
from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass
from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass
from relay_xdsl.transforms.patterns import is_op, wildcard

FUSED = """\
#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  %0 = fn (%p: Tensor[(4), float32], Composite="a.relu") { nn.relu(%p) };
  %0(%x)
}
"""

PLAIN = """\
#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  nn.relu(%x)
}
"""

TABLE = [
    ("t.relu", is_op("nn.relu")(wildcard())),
    ("t.tanh", is_op("tanh")(wildcard())),
]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_depth": -1}, "option 'max-depth' of relay-fuse-ops must be at least 1, found -1"),
        ({"max_depth": 0}, "must be at least 1, found 0"),
        (
            {"fuse_opt_level": -3},
            "option 'fuse-opt-level' of relay-fuse-ops must be at least 0, found -3",
        ),
    ],
)
def test_numeric_options_out_of_range(options: dict, message: str):
    with pytest.raises(PassOptionError, match=message):
        RelayFuseOpsPass(**options)


def test_numeric_options_in_range():
    RelayFuseOpsPass(fuse_opt_level=0, max_depth=1)


def _warnings(pass_: ModulePass, text: str) -> list[str]:
    module = parse_relay(text)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pass_.apply(Context(), module)
    return [str(w.message) for w in caught if issubclass(w.category, RelayPassWarning)]


def test_a_composite_that_names_no_function_is_a_warning():
    message = "relay-defuse: composite=typo.name names no function in the module; nothing"
    assert _warnings(RelayDefusePass(composite=("typo.name", "a.relu")), FUSED) == [
        f"{message} inlined for it"
    ]


def test_composites_present_and_no_option_give_no_warning():
    assert _warnings(RelayDefusePass(composite=("a.relu",)), FUSED) == []
    assert _warnings(RelayDefusePass(), PLAIN) == []


def test_a_user_pattern_that_matches_nothing_is_a_warning(monkeypatch: pytest.MonkeyPatch):
    import sys
    import types

    module = types.ModuleType("warning_patterns")
    module.TABLE = TABLE  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "warning_patterns", module)
    assert _warnings(RelayMergeCompositePass(patterns="warning_patterns:TABLE"), PLAIN) == [
        "relay-merge-composite: pattern 't.tanh' of warning_patterns:TABLE matches nothing"
    ]


def test_a_builtin_table_that_matches_nothing_is_a_warning():
    assert _warnings(RelayMergeCompositePass(), PLAIN) == [
        "relay-merge-composite: no pattern of table conv2d-add-relu matches anything"
    ]
