"""A graph binding line of a Relay text read whole, as one token.

TVM prints a graph one operator call a line::

    %15 = nn.dense(%14, meta[relay.Constant][7] /* ty=... */, units=None) /* ty=... span=... */;

and such lines hold most of a dump's tokens. `BindingLineReader.read`
recognises a line of this form where the lexer offers it (a ``%N =`` right
after ``{`` or ``;``) and returns one LINE token for it, its value a
`BindingLine` of the pieces the importer builds the line's ops from
(importers/relay_binding_lines.py). It accepts exactly, spaces as shown:

* ``%N = name(``, ``name`` one or more identifiers joined by ``.``, none of
  them ``True``, ``False``, ``def``, ``type`` or ``extern``, nor starting
  ``inff``;
* positional arguments, each followed by ``, `` or ``)``: a graph variable
  ``%M``, or ``meta[relay.Constant][i]`` or a number literal followed by
  `` /* comment */``;
* then any attributes, ``key=value`` separated by ``, ``, ``key`` an
  identifier as above: a value is a string without newlines, a scalar of
  letters, digits, ``_``, ``.``, ``+`` and ``-`` (``meta[...]`` indexing
  allowed), or an array of scalars and arrays of scalars;
* ``) /* comment */;``;

or a projection, ``%N = %M.i /* comment */;`` (a `ProjectionLine`), ``i``
of at most nine digits.

No comment may hold a ``*``, and a line naming ``Storage`` or
``alloc_storage`` is not accepted (the importer looks for those names among
the tokens). Anything else is left to the lexer's general rules, token by
token.

The token stands for exactly the tokens the general rules read from the
line; whatever of them could be malformed is read by those rules here, in
text order, so that an error is raised where tokenizing would raise it:
each distinct number literal (``number_token``; a literal followed by
`` /*`` reads the same anywhere) and each distinct attribute text.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from relay_xdsl.relay_text.lexer import Kind, Token, TokenValue, number_token, tokenize
from relay_xdsl.relay_text.source import SourceFile

_WORD = r"(?!(?:True|False|def|type|extern)[^A-Za-z0-9_/]|inff)[A-Za-z_][A-Za-z0-9_]*"
_CONSTANT = (
    r"(?:(?P<meta>meta\[relay\.Constant\]\[(?P<index>[0-9]+)\])"
    r"|(?P<number>-?(?:[0-9][0-9.]*(?:[eE][+-]?[0-9]+)?(?:[fi][0-9]*)?|inff)))"
    r" /\*(?P<comment>[^*]*)\*/"
)
_ARGUMENT = re.compile(rf"%[0-9]+|{_CONSTANT}")
"""A positional argument: a graph variable, or a constant and its comment."""
_SCALAR = r"[A-Za-z0-9_.+\-]+(?:\[[A-Za-z0-9_.+\-]*\])*"
_VALUE = rf"\"[^\"\n]*\"|{_SCALAR}|\[(?:{_SCALAR}|\[(?:{_SCALAR}|, )*\]|, )*\]"
_LINE = re.compile(
    rf"(%[0-9]+) = ({_WORD}(?:\.{_WORD})*)\("
    rf"((?:(?:%[0-9]+|{re.sub(r'[?]P<[a-z]+>', '?:', _CONSTANT)})(?:, |(?=\))))*)"
    rf"({_WORD}=(?:{_VALUE})(?:, {_WORD}=(?:{_VALUE}))*)?"
    r"\) /\*([^*]*)\*/;"
)
"""The whole line: the variable, the operator's name, the positional
arguments (each with the ``, `` after it), the attributes and the call's comment."""
_PROJECTION = re.compile(r"(%[0-9]+) = (%[0-9]+)\.([0-9]{1,9}) /\*([^*]*)\*/;")
"""A projection line: the variable, the tuple's, the index and the comment."""
_META, _IDENT, _INT, _COMMENT, _LINE_KIND = (
    Kind.META,
    Kind.IDENT,
    Kind.INT,
    Kind.COMMENT,
    Kind.LINE,
)


class BindingLine(NamedTuple):
    """A binding line's pieces: tokens as the general rules read them."""

    variable: str
    """The bound ``%N``."""
    name: str
    """The operator's name, dotted as written."""
    name_token: Token
    """Its first identifier (IDENT), where the general rules locate the call."""
    arguments: tuple[str | tuple[Token, Token], ...]
    """Each positional argument: a graph variable's spelling, or a constant
    (META, INT or FLOAT) and its comment."""
    attributes: str
    """The text of the attributes (empty without any)."""
    attributes_start: int
    """Its offset in the source."""
    attribute_tokens: list[Token] | None
    """The tokens of the attributes (ending with EOF), on the first line of
    each attribute text; None on the others."""
    comment: Token
    """The call's comment (COMMENT, its text the body)."""


class ProjectionLine(NamedTuple):
    """A projection line's pieces: tokens as the general rules read them."""

    variable: str
    """The bound ``%N``."""
    tuple_variable: str
    """The projected ``%M``."""
    field: Token
    """The field's index (INT), where the general rules locate the projection."""
    comment: Token
    """The projection's comment (COMMENT)."""


class BindingLineReader:
    """Reads binding lines for one tokenizing of a source (``tokenize``'s
    ``read_line``), remembering the attribute texts it has checked."""

    def __init__(self) -> None:
        self.checked_attributes: set[str] = set()
        # Each number literal's kind and value, by spelling, as `number_token` read it.
        self.numbers: dict[str, tuple[Kind, TokenValue]] = {}

    def read(self, source: SourceFile, start: int, end: int) -> Token | None:
        """The LINE token of the binding line at `start` (before `end`), or
        None when the text there is not one this module accepts."""
        text = source.text
        line = _LINE.match(text, start, end)
        if line is None:
            return self.projection(source, start, end)
        spelling = line.group(0)
        if "Storage" in spelling or "alloc_storage" in spelling:
            return None
        variable, name, positional, attribute_text, comment_body = line.groups()
        new = tuple.__new__
        arguments: tuple[str | tuple[Token, Token], ...] = ()
        if positional:
            if "/*" not in positional:  # variables alone, as most are
                positional = positional.removesuffix(", ")
                arguments = tuple(positional.split(", "))
            else:
                read = self.arguments(source, line.start(3), line.end(3))
                if read is None:
                    return None
                arguments = tuple(read)
        attribute_tokens = None
        if attribute_text is None:
            attribute_text = ""
        elif attribute_text not in self.checked_attributes:
            attribute_tokens = tokenize(source, line.start(4), line.end(4), int_arrays=True)
            self.checked_attributes.add(attribute_text)
        name_at = line.start(2)
        first = name.partition(".")[0]
        line_end = line.end()
        value = new(
            BindingLine,
            (
                variable,
                name,
                new(Token, (_IDENT, first, name_at, name_at + len(first), first)),
                arguments,
                attribute_text,
                line.start(4) if attribute_text else line.end(3),
                attribute_tokens,
                new(Token, (_COMMENT, comment_body, line.start(5) - 2, line_end - 1, None)),
            ),
        )
        return new(Token, (_LINE_KIND, spelling, start, line_end, value))

    @staticmethod
    def projection(source: SourceFile, start: int, end: int) -> Token | None:
        """The LINE token of the projection line at `start`, or None."""
        line = _PROJECTION.match(source.text, start, end)
        if line is None:
            return None
        variable, tuple_variable, index, comment_body = line.groups()
        new = tuple.__new__
        index_at = line.start(3)
        line_end = line.end()
        value = new(
            ProjectionLine,
            (
                variable,
                tuple_variable,
                new(Token, (_INT, index, index_at, index_at + len(index), (int(index), 32))),
                new(Token, (_COMMENT, comment_body, line.start(4) - 2, line_end - 1, None)),
            ),
        )
        return new(Token, (_LINE_KIND, line.group(0), start, line_end, value))

    def arguments(
        self, source: SourceFile, start: int, end: int
    ) -> list[str | tuple[Token, Token]] | None:
        """The positional arguments from `start` to `end`, a constant's token
        read by the general rules (None where they read one differently)."""
        text = source.text
        new = tuple.__new__
        numbers = self.numbers
        arguments: list[str | tuple[Token, Token]] = []
        for argument in _ARGUMENT.finditer(text, start, end):
            word, meta, index, number, body = argument.group(0, 1, 2, 3, 4)
            if meta is None and number is None:
                arguments.append(word)
                continue
            at = argument.start()
            if meta is not None:
                reference = ("relay.Constant", int(index))
                token = new(Token, (_META, meta, at, at + len(meta), reference))
            else:
                # A literal followed by " /*" reads the same wherever it is.
                known = numbers.get(number)
                if known is None:
                    read = number_token(source, at)
                    if read.end != at + len(number):
                        return None
                    known = numbers[number] = read.kind, read.value
                kind, value = known
                token = new(Token, (kind, number, at, at + len(number), value))
            body_at = argument.start(4)
            comment = new(Token, (_COMMENT, body, body_at - 2, body_at + len(body) + 2, None))
            arguments.append((token, comment))
        return arguments
