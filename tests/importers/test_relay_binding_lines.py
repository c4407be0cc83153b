"""Binding lines read whole build what the general rules build from their
tokens: the same IR, and for wrong text the same error."""

from __future__ import annotations

import io

import pytest
from xdsl.dialects.builtin import DenseArrayBase
from xdsl.printer import Printer

from relay_xdsl.importers import relay_binding_lines
from relay_xdsl.importers.relay_scope import Scope
from relay_xdsl.importers.relay_text import RelayTextError, parse_relay
from relay_xdsl.relay_text.binding_lines import BindingLineReader
from relay_xdsl.relay_text.lexer import Token

T = "Tensor[(2, 3), float32]"
BODY = [
    f"%0 = add(%x, 1f /* ty=float32 span=c:1:1 */) /* ty={T} span=a:1:2 */;",
    f"%1 = nn.relu(%0) /* ty={T} span=b:1:2 */;",
    f"%2 = nn.relu(%1) /* ty={T} span=b:1:2 */;",
    "%3 = reshape(%2, newshape=[3, 2]) /* ty=Tensor[(3, 2), float32] */;",
    "%4 = reshape(%3, newshape=[2, 3]) /* ty=Tensor[(2, 3), float32] */;",
    f"%5 = (%x, %4) /* ty=({T}, {T}) */;",
    f"%9 = %5.1 /* ty={T} */;",
    f"%6 = add(%4, meta[relay.Constant][0] /* ty={T} span=w:0:0 */) /* ty={T} */;",
    f"%7 = where(True /* ty=bool */, -inff /* ty=float32 */, %6) /* ty={T} */;",
    f"%8 = add(%7, %9) /* ty={T} */;",
]
"""A body in which every line but the first of each operator is read whole."""


def _program(body: list[str]) -> str:
    lines = "\n  ".join(body)
    return f'#[version = "0.0.5"]\ndef @main(%x: {T}) -> {T} {{\n  {lines}\n  %8\n}}\n'


def _imported(text: str) -> str:
    """The module in generic form with locations, or the error's message."""
    try:
        module = parse_relay(text, "t.relay")
    except RelayTextError as error:
        return f"error: {error}"
    out = io.StringIO()
    Printer(stream=out, print_generic_format=True, print_debuginfo=True).print_op(module)
    return out.getvalue()


def _both(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, int]:
    """What the text imports to with binding lines read whole and without,
    and how many lines were built whole."""
    built = 0
    build = relay_binding_lines.BindingLineBuilder.build

    def counted(self: relay_binding_lines.BindingLineBuilder, token: Token, scope: Scope) -> bool:
        nonlocal built
        done = build(self, token, scope)
        built += done
        return done

    with monkeypatch.context() as patch:
        patch.setattr(relay_binding_lines.BindingLineBuilder, "build", counted)
        whole = _imported(text)
    with monkeypatch.context() as patch:
        patch.setattr(BindingLineReader, "read", lambda self, source, start, end: None)
        general = _imported(text)
    return whole, general, built


def test_the_lines_after_the_first_of_each_operator_are_built_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole, general, built = _both(_program(BODY), monkeypatch)
    assert not whole.startswith("error"), whole
    assert whole == general
    # All but those of a parameter, the first nn.relu, reshape and where, and the tuple.
    assert built == 5


def _replaced(index: int, line: str) -> list[str]:
    return [line if i == index else old for i, old in enumerate(BODY)]


WRONG = {
    "unknown variable": _replaced(2, f"%2 = nn.relu(%9) /* ty={T} */;"),
    "annotation": _replaced(2, "%2 = nn.relu(%1) /* ty=Tensor[(2, 4), float32] */;"),
    "unknown attribute": _replaced(4, "%4 = reshape(%3, newshap=[2, 3]) /* ty={T} */;"),
    "duplicate attribute": _replaced(
        4, f"%4 = reshape(%3, newshape=[2, 3], newshape=[2, 3]) /* ty={T} */;"
    ),
    "attribute value": _replaced(4, f"%4 = reshape(%3, newshape=a.b) /* ty={T} */;"),
    "arity": _replaced(2, f"%2 = nn.relu(%1, %1) /* ty={T} */;"),
    "projection out of range": _replaced(6, f"%9 = %5.2 /* ty={T} */;"),
    "projection of a tensor": _replaced(6, f"%9 = %4.0 /* ty={T} */;"),
    "type in a comment": _replaced(
        2, "%2 = nn.relu(%1) /* ty=Tensor[(2, 3), float32 span=a:1:1 */;"
    ),
    "constant's annotation": _replaced(
        7, f"%7 = where(True /* ty=bool */, -inff /* ty=int8 */, %6) /* ty={T} */;"
    ),
    "meta out of range": BODY,  # with a metadata section of no constants, below
}


@pytest.mark.parametrize("name", list(WRONG))
def test_wrong_lines_are_the_errors_the_general_rules_give(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _program(WRONG[name])
    if name == "meta out of range":
        text += '#[metadata]\n{"root": 1, "nodes": [{"type_key": ""}], "b64ndarrays": [], "attrs": {"tvm_version": "0.19.0"}}\n'
    whole, general, _ = _both(text, monkeypatch)
    assert whole.startswith("error"), whole
    assert whole == general


def test_a_bare_expression_is_read_as_the_general_rules_read_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = (
        f"free_var %x: {T};\nfree_var %y: Tensor[(4, 5), float32];\n"
        f"%0 = add(%x, %x) /* ty={T} */;\n%1 = add(%0, %0) /* ty={T} */;\n"
        "%2 = reshape(%y, newshape=[5, 4]) /* ty=Tensor[(5, 4), float32] */;\n"
        f"%3 = add(%1, %2) /* ty={T} */;\n%3"
    )
    whole, general, built = _both(text, monkeypatch)
    assert whole == general
    assert built == 2


def test_a_line_in_a_function_literal_sees_no_outer_value(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _program(
        [
            f"%0 = nn.relu(%x) /* ty={T} */;",
            (
                f"%1 = fn (%y: {T}) {{\n    %9 = nn.relu(%y) /* ty={T} */;\n"
                f"    %10 = nn.relu(%0) /* ty={T} */;\n    %10\n  }};"
            ),
            f"%8 = %1(%x) /* ty={T} */;",
        ]
    )
    whole, general, _ = _both(text, monkeypatch)
    assert whole == general


def test_lines_of_one_attribute_text_fill_in_each_its_own_split_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The lines share their checked attributes; each split's points come from its own type.
    points = "indices_or_sections=[meta[runtime.BoxInt][0], meta[runtime.BoxInt][1]], axis=-1"
    fields = [(2, 3, 4), (3, 3, 3), (4, 1, 4)]
    splits = [
        f"%{i} = split(%0, {points}) /* ty=("
        + ", ".join(f"Tensor[(2, {n}), float32]" for n in sizes)
        + ") */;"
        for i, sizes in enumerate(fields, 1)
    ]
    text = (
        '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2, 9), float32]) {\n  '
        + "\n  ".join(["%0 = copy(%x) /* ty=Tensor[(2, 9), float32] */;", *splits])
        + "\n  (%1.2, %2.2, %3.2)\n}\n"
    )
    whole, general, built = _both(text, monkeypatch)
    assert whole == general and built == 2
    filled = [
        op.attributes["indices_or_sections"]
        for op in parse_relay(text).walk()
        if getattr(op, "operator_name", "") == "split"
    ]
    assert [points.get_values() for points in filled if isinstance(points, DenseArrayBase)] == [
        (2, 5),
        (3, 6),
        (4, 5),
    ]
