"""Relay's type grammar, the second layer of the Relay text parser.

:class:`RelayTypeParser` reads, on the token cursor of relay_base.py, the
type grammar of TVM v0.19's parser
(``ParseType`` in ``src/relay/parser/parser.cc``):

* ``Tensor[(d1, d2, ...), dtype]``: a dimension is an integer, ``?`` (any)
  or a name (a symbolic dimension, also read as any); a negative dimension is
  an error;
* a dtype alone (``float32``, ``int``) is a scalar tensor type; ``int``,
  ``uint`` and ``float`` are 32 bits wide, as TVM's ``DataType`` reads them;
* ``(T1, T2, ...)``: a tuple type (``()`` the empty tuple);
* ``fn (T1, T2) -> R``: a function type;
* ``ref(T)``: a reference type, as TVM prints it in ``ty=`` comments;
* a name bound by the enclosing ``[A, B]`` type parameters: a type variable;
* a name defined by a ``type`` definition, with ``[T1, ...]`` for each of its
  type parameters: an algebraic data type, ``!relay.adt``;
* ``_``: an unknown type, ``!relay.incomplete``, which type inference fills
  in where the program determines it.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    FunctionType,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute, TypeAttribute

from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay.tensor_types import tensor_type
from relay_xdsl.dialects.relay.types import AdtType, IncompleteType, RefType, TypeVarType
from relay_xdsl.importers.relay_base import RelayBaseParser, describe
from relay_xdsl.relay_text.lexer import Kind, Token
from relay_xdsl.relay_text.source import SourceFile


class RelayTypeParser(RelayBaseParser):
    """The type grammar."""

    def __init__(self, source: SourceFile, tokens: list[Token]):
        super().__init__(source, tokens)
        # Dumps repeat the same few types thousands of times; build each once.
        self.tensor_types: dict[tuple[Attribute, tuple[int, ...]], TensorType] = {}
        self.spelled_types: dict[str, TensorType] = {}
        # The type parameters in scope, innermost last (``fn [A](...)``).
        self.type_vars: list[frozenset[str]] = []
        # The type definitions of the text: name → number of type parameters.
        self.type_arity: dict[str, int] = {}

    def parse_type(self) -> TypeAttribute:
        token = self.peek()
        if token.kind is Kind.TENSOR:
            self.next()
            return self.tensor_token_type(token)
        if token.kind is Kind.IDENT and token.text == "Tensor":
            return self.spelled_tensor_type(token)
        if token.kind is Kind.PUNCT and token.text == "(":
            self.next()
            self.nest(token, "tuple type")
            fields: list[TypeAttribute] = []
            while not self.at(")"):
                fields.append(self.parse_type())
                if not self.accept(","):
                    break
            self.expect(")", "to close the tuple type")
            self.depth -= 1
            return TupleType(ArrayAttr(fields))
        if token.kind is Kind.IDENT and token.text == "fn":
            self.next()
            self.nest(token, "function type")
            self.expect("(")
            inputs: list[Attribute] = []
            while not self.at(")"):
                inputs.append(self.parse_type())
                if not self.accept(","):
                    break
            self.expect(")")
            self.expect("->")
            output = self.parse_type()
            self.depth -= 1
            return FunctionType.from_lists(inputs, [output])
        if token.kind is Kind.IDENT and token.text == "_":
            self.next()
            return IncompleteType()
        if token.kind is Kind.IDENT and token.text == "ref" and self.peek(1).text == "(":
            # How TVM prints a reference type (in ty= comments).
            self.next()
            self.next()
            value_type = self.parse_type()
            self.expect(")", "to close the reference type")
            return RefType(value_type)
        if token.kind is Kind.IDENT and any(token.text in names for names in self.type_vars):
            self.next()
            return TypeVarType(token.text)
        if token.kind is Kind.IDENT and token.text in self.type_arity:
            return self.adt_type()
        if token.kind is Kind.IDENT:
            return self.tensor_type(self.parse_dtype(), [])
        self.error(token, f"expected a type, found {describe(token)}")

    def spelled_tensor_type(self, token: Token) -> TypeAttribute:
        """``Tensor[...]`` at `token`: a spelling seen before gives the same
        type without parsing it again (declared types repeat thousands of times)."""
        tokens = self.tokens
        end = self.pos + 1
        # A tensor type nests no brackets: its first ']' closes it.
        limit = min(end + 64, len(tokens))
        while end < limit and not (tokens[end].text == "]" and tokens[end].kind is Kind.PUNCT):
            end += 1
        key = self.source.text[token.start : tokens[end].end] if end < limit else None
        if key is not None:
            type_ = self.spelled_types.get(key)
            if type_ is not None:
                self.pos = end + 1
                return type_
        self.next()
        self.expect("[", "after 'Tensor'")
        self.expect("(", "to open the shape")
        shape: list[int] = []
        while not self.at(")"):
            shape.append(self.parse_dim())
            if not self.accept(","):
                break
        self.expect(")", "to close the shape")
        self.expect(",", "between the shape and the dtype")
        element = self.parse_dtype()
        self.expect("]", "to close the tensor type")
        type_ = self.tensor_type(element, shape)
        if key is not None and self.pos == end + 1:
            self.spelled_types[key] = type_
        return type_

    def tensor_token_type(self, token: Token) -> TensorType:
        """The type of a TENSOR token (a tensor type as TVM prints it): the
        same as its spelling read a token at a time (`spelled_tensor_type`)."""
        type_ = self.spelled_types.get(token.text)
        if type_ is None:
            shape, dtype = cast(tuple[tuple[int, ...], str], token.value)
            try:
                element = dtypes.element_type(dtype)
            except dtypes.UnknownDTypeError as error:
                dtype_end = token.end - 1
                dtype_token = Token(Kind.IDENT, dtype, dtype_end - len(dtype), dtype_end, dtype)
                self.error(dtype_token, str(error))
            type_ = self.spelled_types[token.text] = self.tensor_type(element, list(shape))
        return type_

    def adt_type(self) -> AdtType:
        """A defined type's name and its ``[args]``: the next token is the name."""
        token = self.next()
        arity = self.type_arity[token.text]
        args: list[Attribute] = []
        if self.at("["):  # `nat[]` as TVM prints a definition without parameters
            self.next()
            while not self.at("]"):
                args.append(self.parse_type())
                if not self.accept(","):
                    break
            self.expect("]", "to close the type arguments")
        if len(args) != arity:
            self.error(token, f"type {token.text} takes {arity} type argument(s), got {len(args)}")
        return AdtType(token.text, args)

    def tensor_type(self, element: Attribute, shape: list[int]) -> TensorType:
        key = (element, tuple(shape))
        type_ = self.tensor_types.get(key)
        if type_ is None:
            type_ = self.tensor_types[key] = tensor_type(element, shape)
        return type_

    def parse_dim(self) -> int:
        token = self.next()
        literal = token.value
        if (
            token.kind is Kind.INT
            and isinstance(literal, tuple)
            and isinstance(dim := literal[0], int)
        ):
            if dim < 0:
                self.error(token, f"a tensor dimension cannot be negative, found {dim}")
            return dim
        if token.text == "?" or token.kind is Kind.IDENT:
            return DYNAMIC_INDEX
        self.error(token, f"expected a dimension, found {describe(token)}")

    def parse_type_params(self) -> list[TypeVarType]:
        """``[A, B]`` before a parameter list; pushes a type-variable scope
        (the caller pops it once past the function)."""
        names: list[str] = []
        if self.accept("["):
            while not self.at("]"):
                names.append(self.expect_kind(Kind.IDENT, "a type parameter").text)
                if not self.accept(","):
                    break
            self.expect("]", "to close the type parameters")
        self.type_vars.append(frozenset(names))
        return [TypeVarType(n) for n in names]

    def parse_dtype(self) -> Attribute:
        token = self.expect_kind(Kind.IDENT, "a dtype")
        try:
            return dtypes.element_type(token.text)
        except dtypes.UnknownDTypeError as error:
            self.error(token, str(error))
