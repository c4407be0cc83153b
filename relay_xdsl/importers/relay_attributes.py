"""Annotations and attribute values: the third layer of the Relay text parser.

:class:`RelayAttributeParser` reads, on top of the type grammar:

* the ``/* ty=... span=... */`` comment after an expression: its type and
  its location (a TVM span ``name:line:col`` becomes a ``FileLineColLoc``);
* attribute values (``axis=1``, ``padding=[1, 1]``, ``out_dtype=""``,
  ``None``, ``meta[...]``): flat int or float arrays become ``array<...>``,
  other arrays ``[...]``;
* the value of a scalar literal (``1f``, ``2i64``, ``True``).

Dumps repeat the same few annotations and attribute values thousands of
times, so each spelling is read once and its value shared.
"""

from __future__ import annotations

import struct

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.tensor_types import tensor_type
from relay_xdsl.importers.relay_base import describe
from relay_xdsl.importers.relay_types import RelayTypeParser
from relay_xdsl.relay_text.lexer import (
    Kind,
    Token,
    float_literal,
    int_array_value,
    int_literal,
    meta_reference,
    tokenize,
)
from relay_xdsl.relay_text.source import SourceFile
from relay_xdsl.support.prebuilt import prebuilt, prebuilt_data


class RelayAttributeParser(RelayTypeParser):
    """Type and span annotations, attribute values and scalar literal values."""

    def __init__(self, source: SourceFile, tokens: list[Token]):
        super().__init__(source, tokens)
        # Dumps repeat the same few types thousands of times; parse each once.
        self.annotation_types: dict[str, Attribute] = {}
        # And the same whole comments (a type and a layer's span): read each once.
        self.annotations: dict[str, tuple[Attribute | None, LocationAttr | None]] = {}
        self.span_locations: dict[str, LocationAttr | None] = {}
        # The file names and the line and column numbers of spans (span_location).
        self.span_files: dict[str, StringAttr] = {}
        self.span_numbers: dict[str, IntAttr] = {}
        # Keyed by spelling, an array by its elements' identities.
        self.attribute_values: dict[tuple[int, ...] | str, Attribute] = {}

    def annotation(self) -> tuple[Attribute | None, LocationAttr | None]:
        """The ``ty=`` type and ``span=`` location of a comment right here, if any."""
        token = self.tokens[self.pos]
        if token.kind is not Kind.COMMENT:
            return None, None
        self.pos += 1
        return self.read_annotation(token)

    def read_annotation(self, token: Token) -> tuple[Attribute | None, LocationAttr | None]:
        """The ``ty=`` type and ``span=`` location of the COMMENT `token`."""
        body = token.text
        known = self.annotations.get(body)
        if known is not None:
            return known
        body_start = token.start + 2
        type_: Attribute | None = None
        location: LocationAttr | None = None
        # How TVM prints it, " ty=TYPE span=SPAN ": read as below, in fewer steps.
        head, separator, tail = body.rpartition(" span=")
        if (
            separator
            and head.startswith(" ty=")
            and "span=" not in head
            and tail.endswith(" ")
            and len(words := tail.split()) == 1
            and len(span := words[0]) == len(tail) - 1
        ):
            spelled = head[4:]
            type_text = spelled.strip()
            location = self.located(span)
            type_ = self.annotation_types.get(type_text)
            if type_ is None:
                type_start = body_start + 4  # past " ty=", to "span=" as below
                type_ = self.annotation_type(type_text, type_start, type_start + len(spelled) + 1)
            known = self.annotations[body] = type_, location
            return known
        span_at = body.find("span=")
        if span_at >= 0:
            words = body[span_at + 5 :].split(maxsplit=1)
            span = words[0] if words else ""
            location = self.located(span)
        ty_at = body.find("ty=")
        if ty_at >= 0 and (ty_at == 0 or body[ty_at - 1].isspace()):
            type_end = span_at if span_at > ty_at else len(body)
            type_text = body[ty_at + 3 : type_end].strip()
            type_ = self.annotation_types.get(type_text)
            if type_ is None:
                type_ = self.annotation_type(
                    type_text, body_start + ty_at + 3, body_start + type_end
                )
        self.annotations[body] = type_, location
        return type_, location

    def annotation_type(self, type_text: str, start: int, end: int) -> Attribute:
        """The type spelled `type_text` (stripped), from `start` to `end` in
        the source, in a ``ty=`` annotation."""
        sub = RelayTypeParser(self.source, tokenize(self.source, start, end, tensor_types=True))
        sub.tensor_types = self.tensor_types
        sub.type_vars = self.type_vars
        sub.type_arity = self.type_arity
        type_ = sub.parse_type()
        if sub.peek().kind is not Kind.EOF:
            sub.error(
                sub.peek(),
                f"unexpected {describe(sub.peek())} after the type in a ty= annotation",
            )
        self.annotation_types[type_text] = type_
        return type_

    def located(self, span: str) -> LocationAttr | None:
        """`span_location`, built once per span: every op of a TVM layer repeats its span."""
        # Tested, not tried: most spans are new, and a KeyError costs more.
        locations = self.span_locations
        if span in locations:
            return locations[span]
        location = locations[span] = self.span_location(span)
        return location

    def span_location(self, span: str) -> FileLineColLoc | None:
        """``name:line:col`` of a TVM span as an MLIR location."""
        name, _, rest = span.rpartition(":")
        file, _, line = name.rpartition(":")
        if not file or not line.isdigit() or not rest.isdigit():
            return None
        # A text names a few files, and its columns repeat: one attribute each.
        file_name = self.span_files.get(file)
        if file_name is None:
            file_name = self.span_files[file] = prebuilt_data(StringAttr, file)
        numbers = self.span_numbers
        line_number = numbers.get(line)
        if line_number is None:
            line_number = numbers[line] = prebuilt_data(IntAttr, int(line))
        column = numbers.get(rest)
        if column is None:
            column = numbers[rest] = prebuilt_data(IntAttr, int(rest))
        return prebuilt(FileLineColLoc, file_name, line_number, column)

    def parse_attr_value(self) -> Attribute:
        """An attribute value; equal spellings give the same (shared) attribute.

        Every value returned is owned by ``attribute_values``, so an array's
        key can be its elements' identities (or, read whole, its spelling).
        """
        token = self.next()
        kind = token.kind
        if kind is Kind.PUNCT and token.text == "[":
            self.nest(token, "attribute array")
            elements: list[Attribute] = []
            while not self.at("]"):
                elements.append(self.parse_attr_value())
                if not self.accept(","):
                    break
            self.expect("]", "to close the array")
            self.depth -= 1
            key = tuple(map(id, elements))
            value = self.attribute_values.get(key)
            if value is None:
                value = self.attribute_values[key] = _array_attr(elements)
            return value
        if kind is Kind.INTS:
            # A flat int32 array read whole by the lexer: its level of nesting too.
            self.nest(token, "attribute array")
            self.depth -= 1
            value = self.attribute_values.get(token.text)
            if value is None:
                value = self.attribute_values[token.text] = DenseArrayBase.from_list(
                    _I32, int_array_value(token)
                )
            return value
        # A token's spelling determines its kind (and enum members hash slowly).
        value = self.attribute_values.get(token.text)
        if value is None:
            value = self.attribute_values[token.text] = self.scalar_attr_value(token)
        return value

    def scalar_attr_value(self, token: Token) -> Attribute:
        kind = token.kind
        if kind is Kind.INT:
            value, width = int_literal(token)
            return IntegerAttr(value, IntegerType(width))
        if kind is Kind.FLOAT:
            number, width = float_literal(token)
            return FloatAttr(number, _FLOAT_TYPES[width])
        if kind is Kind.BOOL:
            return BoolAttr.from_bool(token.value is True)
        if kind is Kind.STRING and isinstance(string := token.value, str):
            return StringAttr(string)
        if kind is Kind.IDENT and token.text == "None":
            return UnitAttr()
        if kind is Kind.META:
            # The lexer's key and index (a str, an int) are valid parameters.
            meta_kind, index = meta_reference(token)
            return prebuilt(
                relay.MetaRefAttr,
                prebuilt_data(StringAttr, meta_kind),
                prebuilt_data(IntAttr, index),
            )
        self.error(token, f"expected an attribute value, found {describe(token)}")

    def scalar_value(self, token: Token) -> DenseIntOrFPElementsAttr:
        """The rank-0 tensor a bool, int or float literal stands for."""
        element: IntegerType | AnyFloat
        if token.kind is Kind.BOOL:
            element = IntegerType(1)
            data = struct.pack("<?", token.value)
        elif token.kind is Kind.INT:
            value, width = int_literal(token)
            element = IntegerType(width)
            data = value.to_bytes(width // 8, "little", signed=True)
        else:
            number, width = float_literal(token)
            element = _FLOAT_TYPES[width]
            data = struct.pack({16: "<e", 32: "<f", 64: "<d"}[width], number)
        # One value of the literal's own width (the lexer admits no other):
        # what the constructor would verify holds.
        return prebuilt(
            DenseIntOrFPElementsAttr, tensor_type(element, ()), prebuilt_data(BytesAttr, data)
        )


_I32 = IntegerType(32)
_FLOAT_TYPES: dict[int, AnyFloat] = {16: Float16Type(), 32: Float32Type(), 64: Float64Type()}
"""The element type of each float literal width."""


def _array_attr(elements: list[Attribute]) -> Attribute:
    """Flat int or float arrays become ``array<...>``; anything else ``[...]``."""
    if not elements:
        return DenseArrayBase.from_list(IntegerType(32), [])
    first = elements[0]
    if isinstance(first, IntegerAttr) and first.type != IntegerType(1):
        ints = [
            e.value.data for e in elements if isinstance(e, IntegerAttr) and e.type == first.type
        ]
        if len(ints) == len(elements):
            return DenseArrayBase.from_list(first.type, ints)
    if isinstance(first, FloatAttr):
        floats = [
            e.value.data for e in elements if isinstance(e, FloatAttr) and e.type == first.type
        ]
        if len(floats) == len(elements):
            return DenseArrayBase.from_list(first.type, floats)
    return ArrayAttr(elements)
