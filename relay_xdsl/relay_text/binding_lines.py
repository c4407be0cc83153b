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
* ``) /* comment */;``.

No comment may hold a ``*``, and a line naming ``Storage`` or
``alloc_storage`` is not accepted (the importer looks for those names among
the tokens). Anything else is left to the lexer's general rules, token by
token.

The token stands for exactly the tokens the general rules read from the
line; whatever of them could be malformed is read by those rules here, in
text order, so that an error is raised where tokenizing would raise it: the
number literals (``number_token``) and each distinct attribute text.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from relay_xdsl.relay_text.lexer import Kind, Token, number_token, tokenize
from relay_xdsl.relay_text.source import SourceFile

_WORD = r"(?!(?:True|False|def|type|extern)[^A-Za-z0-9_/]|inff)[A-Za-z_][A-Za-z0-9_]*"
_HEAD = re.compile(rf"(%[0-9]+) = ({_WORD}(?:\.{_WORD})*)\(")
"""``%N = name(``."""
_ARGUMENT = re.compile(
    r"(?:(?P<graph>%[0-9]+)"
    r"|(?:(?P<meta>meta\[relay\.Constant\]\[(?P<index>[0-9]+)\])"
    r"|(?P<number>-?[0-9][0-9.]*(?:[eE][+-]?[0-9]+)?(?:[fi][0-9]*)?))"
    r" /\*(?P<comment>[^*]*)\*/"
    r")(?:, |(?=\)))"
)
"""A positional argument and the ``, `` after it (or before ``)``)."""
_SCALAR = r"[A-Za-z0-9_.+\-]+(?:\[[A-Za-z0-9_.+\-]*\])*"
_VALUE = rf"\"[^\"\n]*\"|{_SCALAR}|\[(?:{_SCALAR}|\[(?:{_SCALAR}|, )*\]|, )*\]"
_ATTRIBUTES = re.compile(rf"{_WORD}=(?:{_VALUE})(?:, {_WORD}=(?:{_VALUE}))*")
"""The attributes, ``key=value, ...``."""
_TAIL = re.compile(r"\) /\*([^*]*)\*/;")
"""The call's comment and the ``;`` ending the binding."""


class BindingLine(NamedTuple):
    """A binding line's pieces: tokens as the general rules read them."""

    variable: Token
    """The bound ``%N`` (GRAPH)."""
    name: str
    """The operator's name, dotted as written."""
    name_token: Token
    """Its first identifier (IDENT), where the general rules locate the call."""
    arguments: tuple[tuple[Token, Token | None], ...]
    """Each positional argument (GRAPH, META, INT or FLOAT) and its comment."""
    attributes: str
    """The text of the attributes (empty without any)."""
    attributes_start: int
    """Its offset in the source."""
    comment: Token
    """The call's comment (COMMENT, its text the body)."""


class BindingLineReader:
    """Reads binding lines for one tokenizing of a source (``tokenize``'s
    ``read_line``), remembering the attribute texts it has checked."""

    def __init__(self) -> None:
        self.checked_attributes: set[str] = set()

    def read(self, source: SourceFile, start: int, end: int) -> Token | None:
        """The LINE token of the binding line at `start` (before `end`), or
        None when the text there is not one this module accepts."""
        text = source.text
        head = _HEAD.match(text, start, end)
        if head is None:
            return None
        pos = head.end()
        arguments: list[tuple[Token, Token | None]] = []
        new = tuple.__new__
        # Matched first, read after: no token is read from a line that is not accepted.
        matches = []
        while (argument := _ARGUMENT.match(text, pos, end)) is not None:
            matches.append(argument)
            pos = argument.end()
        attributes = _ATTRIBUTES.match(text, pos, end)
        attributes_start = pos
        if attributes is not None:
            pos = attributes.end()
        tail = _TAIL.match(text, pos, end)
        if tail is None:
            return None
        line_end = tail.end()
        line = text[start:line_end]
        if "Storage" in line or "alloc_storage" in line:
            return None
        for argument in matches:
            word = argument.group("graph")
            if word is not None:
                at = argument.start()
                arguments.append(
                    (new(Token, (Kind.GRAPH, word, at, at + len(word), word[1:])), None)
                )
                continue
            word = argument.group("meta")
            if word is not None:
                at = argument.start()
                reference = ("relay.Constant", int(argument.group("index")))
                token = new(Token, (Kind.META, word, at, at + len(word), reference))
            else:
                token = number_token(source, argument.start())
                if token.end != argument.end("number"):
                    return None  # read differently by the general rules
            body_at = argument.start("comment")
            body = argument.group("comment")
            comment = new(Token, (Kind.COMMENT, body, body_at - 2, body_at + len(body) + 2, None))
            arguments.append((token, comment))
        attribute_text = ""
        if attributes is not None:
            attribute_text = attributes.group(0)
            if attribute_text not in self.checked_attributes:
                tokenize(source, attributes_start, pos, int_arrays=True)
                self.checked_attributes.add(attribute_text)
        variable = head.group(1)
        name = head.group(2)
        first = name.partition(".")[0]
        name_at = head.start(2)
        body_at = tail.start(1)
        comment_body = tail.group(1)
        value = BindingLine(
            new(Token, (Kind.GRAPH, variable, start, start + len(variable), variable[1:])),
            name,
            new(Token, (Kind.IDENT, first, name_at, name_at + len(first), first)),
            tuple(arguments),
            attribute_text,
            attributes_start,
            new(Token, (Kind.COMMENT, comment_body, body_at - 2, line_end - 1, None)),
        )
        return new(Token, (Kind.LINE, line, start, line_end, value))
