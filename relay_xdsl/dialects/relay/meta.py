"""References into a Relay text's ``#[metadata]`` section other than constants.

``meta[VirtualDevice][0]`` (an ``on_device`` or ``device_copy`` attribute, or
a function's ``virtual_device``) names node 0 of the section's
``VirtualDevice`` array. The dialect keeps the reference as written,
``#relay.meta<"VirtualDevice", 0>``, and the section itself verbatim (see
``METADATA``), so both print back unchanged; nothing interprets the node.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr, StringAttr
from xdsl.ir import ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer

METADATA = "relay.metadata"
"""The module attribute holding a ``#[metadata]`` section verbatim (a string),
when the section holds nodes other than ``relay.Constant``."""


@irdl_attr_definition
class MetaRefAttr(ParametrizedAttribute):
    """``meta[kind][index]``: node `index` of the metadata array `kind`.

    Syntax: ``#relay.meta<"VirtualDevice", 0>``
    """

    name = "relay.meta"

    kind: StringAttr = param_def(converter=StringAttr.get)
    index: IntAttr = param_def(converter=IntAttr)

    def __init__(self, kind: str | StringAttr, index: int | IntAttr):
        super().__init__(kind, index)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.kind.data)
            printer.print_string(f", {self.index.data}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr, IntAttr]:
        with parser.in_angle_brackets():
            kind = StringAttr(parser.parse_str_literal())
            parser.parse_punctuation(",")
            index = IntAttr(parser.parse_integer(allow_boolean=False, allow_negative=False))
        return (kind, index)
