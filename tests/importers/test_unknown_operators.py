"""A call the parser cannot type names the operator as unknown, with the closest names."""

from __future__ import annotations

import pytest

from relay_xdsl.importers.relay_text import RelayTextError, parse_relay
from relay_xdsl.importers.unknown_operators import untyped_operator_message


def test_a_misspelt_operator_gets_suggestions():
    message = untyped_operator_message("nn.reluu")
    assert message.startswith("unknown operator 'nn.reluu'; did you mean 'nn.relu'")


def test_an_unknown_operator_without_close_names():
    assert untyped_operator_message("zzz.qqq").startswith("unknown operator 'zzz.qqq' (")


def test_the_parser_reports_it_at_the_call():
    text = '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  nn.reluu(%x)\n}\n'
    with pytest.raises(RelayTextError, match="unknown operator 'nn.reluu'; did you mean 'nn.relu'"):
        parse_relay(text, "m.relay")


def test_an_annotated_unknown_operator_is_kept():
    text = (
        '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n'
        "  nn.reluu(%x) /* ty=Tensor[(2), float32] */\n}\n"
    )
    assert 'relay.op "nn.reluu"' in str(parse_relay(text))
