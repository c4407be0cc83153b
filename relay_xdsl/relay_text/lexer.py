"""Tokens of TVM's Relay text format.

The token rules follow TVM v0.19's tokenizer: identifiers are
``[A-Za-z_][A-Za-z0-9_/]*`` (so ``nn.conv2d`` is three tokens),
``%name`` and ``%123`` are local and graph variables, ``@name`` is a global,
numbers take an ``f``/``i`` width suffix (``1f``, ``2i64``, ``1e-05f``), and
``meta[key][index]`` is a single token. Block comments are kept as tokens
because ``/* ty=... span=... */`` carries the types of calls.

The importer also reads a tensor type spelled as TVM prints it,
``Tensor[(1, 8, 8, 8), float32]``, as one token (``tensor_types=True``):
declared types repeat on every binding of a dump and are most of its
tokens otherwise. Its value is the shape's dimensions and the dtype's word.
Likewise an attribute value that is a flat array of plain int32 literals as
TVM prints it, ``newshape=[1, -1, 768]``, is one token (``int_arrays=True``),
whose value is the integers. And the importer has a whole binding line as
TVM prints it, ``%3 = add(%1, meta[relay.Constant][0] /* ty=... */) /* ty=... */;``,
read as one LINE token (``read_line``, binding_lines.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum, auto
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from relay_xdsl.relay_text.source import SourceError, SourceFile

if TYPE_CHECKING:
    from relay_xdsl.relay_text.binding_lines import BindingLine, ProjectionLine


class Kind(Enum):
    LOCAL = auto()  # %x
    GRAPH = auto()  # %0
    GLOBAL = auto()  # @f
    IDENT = auto()  # nn, conv2d, Tensor, float32, let, fn, ...
    INT = auto()
    FLOAT = auto()
    BOOL = auto()
    STRING = auto()
    META = auto()  # meta[relay.Constant][0]
    COMMENT = auto()  # /* ... */
    VERSION = auto()  # #[version = "0.0.5"]
    METADATA = auto()  # #[metadata] ... to the end of the file
    TENSOR = auto()  # Tensor[(1, 8), float32], as TVM prints it (tensor_types=True)
    INTS = auto()  # [1, -1, 768] after '=', as TVM prints it (int_arrays=True)
    LINE = auto()  # %3 = add(%1, %2) /* ty=... */; a binding line read whole (read_line)
    PUNCT = auto()
    EOF = auto()


TokenValue: TypeAlias = (
    "str"
    " | bool"
    " | int"
    " | tuple[int, int]"
    " | tuple[float, int]"
    " | tuple[str, int]"
    " | tuple[tuple[int, ...], str]"
    " | tuple[int, ...]"
    " | BindingLine"
    " | ProjectionLine"
    " | None"
)
"""What a token stands for, by kind: the name without its sigil (LOCAL, GRAPH,
GLOBAL), the word (IDENT), ``(value, width)`` (INT, FLOAT), True or False
(BOOL), the unquoted contents (STRING), ``(key, index)`` (META), the quoted
version (VERSION), the offset of the section's text (METADATA), ``(shape,
dtype)`` (TENSOR), the integers (INTS), the line's pieces (LINE); None for
the rest."""


class Token(NamedTuple):
    kind: Kind
    text: str
    start: int
    end: int
    value: TokenValue = None


def int_literal(token: Token) -> tuple[int, int]:
    """The value and bit width of an INT token."""
    literal = token.value
    if (
        isinstance(literal, tuple)
        and isinstance(number := literal[0], int)
        and isinstance(width := literal[1], int)
    ):
        return number, width
    raise ValueError(f"not an integer literal: {token.text!r}")


def float_literal(token: Token) -> tuple[float, int]:
    """The value and bit width of a FLOAT token."""
    literal = token.value
    if (
        isinstance(literal, tuple)
        and isinstance(number := literal[0], float)
        and isinstance(width := literal[1], int)
    ):
        return number, width
    raise ValueError(f"not a float literal: {token.text!r}")


def int_array_value(token: Token) -> tuple[int, ...]:
    """The integers of an INTS token."""
    array = token.value
    if isinstance(array, tuple) and all(isinstance(number, int) for number in array):
        return array  # type: ignore[return-value]  # the elements are checked
    raise ValueError(f"not an int array: {token.text!r}")


def meta_reference(token: Token) -> tuple[str, int]:
    """The key and index of a META token (``meta[key][index]``)."""
    reference = token.value
    if (
        isinstance(reference, tuple)
        and isinstance(key := reference[0], str)
        and isinstance(index := reference[1], int)
    ):
        return key, index
    raise ValueError(f"not a meta reference: {token.text!r}")


_PUNCTUATION = "()[]{},;=:.?*+-<>!/"
_FLOAT_MAX = {16: 65504.0, 32: 3.4028234663852886e38, 64: 1.7976931348623157e308}
"""Largest finite value of each float width; larger literals are errors, not infinities."""
_NUMBER = re.compile(r"(?:\d[\d.]*(?:[eE][+-]?\d+)?|inf)(?:([fi])(\d*))?")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_/]*")
_META = re.compile(r"meta\[([^\]]*)\]\[([^\]]*)\]")
_BRACKET_ATTR = re.compile(r"#\[\s*([^\]]*?)\s*\]")
_SPACE = re.compile(r"[ \t\r\n]+")
_COMMON = re.compile(
    r"[ \t\r\n]*(?:"
    r"(?P<punct>[()\[\]{},;=:.?*+<>!]|->)"
    r"|(?P<ident>(?!meta\[|inff)[A-Za-z_][A-Za-z0-9_/]*)"
    r"|(?P<binding>%[0-9]+ =)"
    r"|(?P<graph>%[0-9]+)"
    r"|(?P<local>%[A-Za-z_][A-Za-z0-9_/]*)"
    r"|(?P<int>[0-9]+)(?![\d.eEfi])"
    r"|(?P<comment>/\*[^*/]*(?:(?:\*(?!/)|/(?!\*))[^*/]*)*\*/)(?P<comment_punct>[;,)])?"
    r"|(?P<string>\"[^\"]*\")"
    r"|(?P<meta>meta\[(?P<meta_key>[A-Za-z_.]+)\]\[(?P<meta_index>[0-9]+)\])"
    r"|(?P<number>-?[0-9]|-inf|inff)"
    r")"
)
"""The common tokens in one match (a block comment if it nests none). The
rest, and anything this would read differently (``%1`` followed by a
non-ASCII digit), take the general path. The kinds start with different
characters, so their order only decides how soon a token is found: the
commonest first; a comment's runs of plain characters match as one. A
``number`` match is only where a number starts (read by `number_token`); the
other kinds are whole tokens, read as the general path reads them. Two
pairs that follow each other in nearly every binding are read in one match,
as two tokens: ``%12 =`` (``binding``) and a comment and the ``;``, ``,`` or
``)`` right after it (``comment_punct``)."""
_TENSOR = re.compile(
    r"Tensor\[\(((?:[0-9]+(?:, [0-9]+)*,?)?)\), (?!(?:True|False)\])([A-Za-z_][A-Za-z0-9_]*)\]"
)
"""A tensor type as TVM prints it: the same tokens as ``Tensor``, ``[``,
``(``, the dimensions and commas, ``)``, ``,``, the dtype and ``]``, read
by the general rules (a dimension is a plain decimal integer)."""
_INT_ARRAY = re.compile(r"\[((?:-?[0-9]+(?:, -?[0-9]+)*)?)\]")
"""A flat array of integers without width suffixes, as TVM prints it: the
same tokens as ``[``, the integers and commas, and ``]``, each an int32 when
in its range (`int_array`)."""
_INT32_MIN, _INT32_END = -(2**31), 2**31
_LINE_KIND = Kind.LINE
_IDENT_KIND, _PUNCT_KIND, _COMMENT_KIND, _GRAPH_KIND = (
    Kind.IDENT,
    Kind.PUNCT,
    Kind.COMMENT,
    Kind.GRAPH,
)
_LINE_COMMENT = re.compile(r"//[^\n]*")


def tokenize(
    source: SourceFile,
    start: int = 0,
    end: int | None = None,
    tensor_types: bool = False,
    int_arrays: bool = False,
    read_line: Callable[[SourceFile, int, int], Token | None] | None = None,
) -> list[Token]:
    """Split Relay text (or its part from `start` to `end`) into tokens.

    Whitespace and line comments are dropped; offsets are into the whole text.
    With `tensor_types`, a tensor type as TVM prints it is one TENSOR token;
    with `int_arrays`, a flat array of int32 literals right after ``=`` (an
    attribute value) is one INTS token. With `read_line`, a graph binding
    ``%N =`` right after ``{`` or ``;`` (where a binding sequence goes on) is
    offered to ``read_line(source, offset, end)``, which returns one token
    for the whole binding, or None to leave it to the rules here
    (binding_lines.py).
    """
    text = source.text
    tokens: list[Token] = []
    pos = start
    length = len(text) if end is None else end
    common = _COMMON.match
    # The common tokens are built as plain tuples of Token's fields: a
    # NamedTuple's constructor is a Python function, called once a token.
    new = tuple.__new__
    append = tokens.append
    while pos < length:
        match = common(text, pos, length)
        if match is not None and match.lastgroup is not None:
            group = match.lastgroup
            word = match.group(group)
            end = match.end()  # the token ends the match
            start = end - len(word)
            if group == "punct":
                if word == "[" and int_arrays and tokens and tokens[-1][1] == "=":
                    array = int_array(text, start, length) if tokens[-1][0] is _PUNCT_KIND else None
                    if array is not None:
                        pos = start + len(array[0])
                        append(new(Token, (Kind.INTS, array[0], start, pos, array[1])))
                        continue
                append(new(Token, (_PUNCT_KIND, word, start, end, None)))
                pos = end
                continue
            if group == "graph":
                if end >= length or not text[end].isdigit():
                    append(new(Token, (_GRAPH_KIND, word, start, end, word[1:])))
                    pos = end
                    continue
            elif group == "ident":
                if word == "Tensor" and tensor_types:
                    tensor = _TENSOR.match(text, start, length)
                    if tensor is not None:
                        dims = tensor.group(1).rstrip(",")
                        shape = tuple(map(int, dims.split(","))) if dims else ()
                        pos = tensor.end()
                        spelling = tensor.group(0)
                        shape_dtype = (shape, tensor.group(2))
                        append(new(Token, (Kind.TENSOR, spelling, start, pos, shape_dtype)))
                        continue
                if word == "True" or word == "False":
                    append(new(Token, (Kind.BOOL, word, start, end, word == "True")))
                else:
                    append(new(Token, (_IDENT_KIND, word, start, end, word)))
                pos = end
                continue
            elif group == "binding":
                if (
                    read_line is not None
                    and tokens
                    and (
                        tokens[-1][0] is _LINE_KIND  # it ends with its ';'
                        or (
                            tokens[-1][0] is _PUNCT_KIND
                            and (tokens[-1][1] == ";" or tokens[-1][1] == "{")
                        )
                    )
                ):
                    line = read_line(source, start, length)
                    if line is not None:
                        append(line)
                        pos = line.end
                        continue
                equals = end - 1
                variable = word[:-2]
                append(
                    new(Token, (_GRAPH_KIND, variable, start, start + len(variable), variable[1:]))
                )
                append(new(Token, (_PUNCT_KIND, "=", equals, end, None)))
                pos = end
                continue
            elif group == "comment_punct":
                start, comment_end = match.span("comment")
                append(
                    new(
                        Token,
                        (
                            _COMMENT_KIND,
                            text[start + 2 : comment_end - 2],
                            start,
                            comment_end,
                            None,
                        ),
                    )
                )
                append(new(Token, (_PUNCT_KIND, word, end - 1, end, None)))
                pos = end
                continue
            elif group == "comment":
                append(new(Token, (_COMMENT_KIND, word[2:-2], start, end, None)))
                pos = end
                continue
            if group == "local":
                append(new(Token, (Kind.LOCAL, word, start, end, word[1:])))
                pos = end
                continue
            if group == "string":
                append(new(Token, (Kind.STRING, word, start, end, word[1:-1])))
                pos = end
                continue
            if group == "meta":
                reference = (match.group("meta_key"), int(match.group("meta_index")))
                append(new(Token, (Kind.META, word, start, end, reference)))
                pos = end
                continue
            if group == "number":
                number = number_token(source, start)
                append(number)
                pos = number.end
                continue
            if group == "int":
                value = int(word)
                if value < 2**31:
                    append(new(Token, (Kind.INT, word, start, end, (value, 32))))
                    pos = end
                    continue
            pos = start
        char = text[pos]
        if char in " \t\r\n":
            space = _SPACE.match(text, pos)
            assert space is not None  # `char` is whitespace
            pos = space.end()
            continue
        if text.startswith("//", pos):
            comment = _LINE_COMMENT.match(text, pos)
            assert comment is not None  # the text at `pos` starts with `//`
            pos = comment.end()
            continue
        if text.startswith("/*", pos):
            end = _block_comment_end(source, pos)
            tokens.append(Token(Kind.COMMENT, text[pos + 2 : end - 2], pos, end))
            pos = end
            continue
        if char == '"':
            end = text.find('"', pos + 1)
            if end < 0:
                raise SourceError(source, pos, "unterminated string literal")
            tokens.append(
                Token(Kind.STRING, text[pos : end + 1], pos, end + 1, text[pos + 1 : end])
            )
            pos = end + 1
            continue
        if char == "#":
            attr = _BRACKET_ATTR.match(text, pos)
            if attr is None:
                raise SourceError(source, pos, "'#' must start '#[version = ...]' or '#[metadata]'")
            body = attr.group(1)
            if body == "metadata":
                tokens.append(
                    Token(
                        Kind.METADATA,
                        text[attr.end() :],
                        attr.start(),
                        length,
                        attr.end(),
                    )
                )
                pos = length
                continue
            if body.startswith("version"):
                version = body.partition("=")[2].strip()
                tokens.append(Token(Kind.VERSION, attr.group(0), pos, attr.end(), version))
                pos = attr.end()
                continue
            raise SourceError(source, pos, f"unsupported attribute '#[{body}]'", attr.end())
        if char == "%" or char == "@":
            ident = _IDENT.match(text, pos + 1)
            if char == "%" and pos + 1 < length and text[pos + 1].isdigit():
                end = pos + 1
                while end < length and text[end].isdigit():
                    end += 1
                tokens.append(Token(Kind.GRAPH, text[pos:end], pos, end, text[pos + 1 : end]))
                pos = end
                continue
            if ident is None:
                raise SourceError(source, pos, f"expected a name after '{char}'")
            kind = Kind.LOCAL if char == "%" else Kind.GLOBAL
            tokens.append(Token(kind, text[pos : ident.end()], pos, ident.end(), ident.group(0)))
            pos = ident.end()
            continue
        if char.isdigit() or (
            char == "-"
            and pos + 1 < length
            and (text[pos + 1].isdigit() or text.startswith("inf", pos + 1))
        ):
            tokens.append(number_token(source, pos))
            pos = tokens[-1].end
            continue
        if char == "-" and text.startswith("->", pos):
            tokens.append(Token(Kind.PUNCT, "->", pos, pos + 2))
            pos += 2
            continue
        if text.startswith("meta[", pos):
            meta = _META.match(text, pos)
            if meta is None:
                raise SourceError(
                    source, pos, "malformed meta reference; expected 'meta[key][index]'"
                )
            index_text = meta.group(2).strip()
            if not index_text.isdigit():
                raise SourceError(
                    source,
                    pos,
                    f"meta index must be a non-negative integer, got '{index_text}'",
                    meta.end(),
                )
            tokens.append(
                Token(
                    Kind.META,
                    meta.group(0),
                    pos,
                    meta.end(),
                    (meta.group(1).strip(), int(index_text)),
                )
            )
            pos = meta.end()
            continue
        ident = _IDENT.match(text, pos)
        if ident is not None and not text.startswith("inff", pos):
            word = ident.group(0)
            if word in ("True", "False"):
                tokens.append(Token(Kind.BOOL, word, pos, ident.end(), word == "True"))
            else:
                tokens.append(Token(Kind.IDENT, word, pos, ident.end(), word))
            pos = ident.end()
            continue
        if text.startswith("inff", pos):
            tokens.append(number_token(source, pos))
            pos = tokens[-1].end
            continue
        if char in _PUNCTUATION:
            tokens.append(Token(Kind.PUNCT, char, pos, pos + 1))
            pos += 1
            continue
        raise SourceError(source, pos, f"unexpected character {char!r}")
    tokens.append(Token(Kind.EOF, "", length, length))
    return tokens


def int_array(text: str, start: int, end: int) -> tuple[str, tuple[int, ...]] | None:
    """The spelling and the integers of the flat array of int32 literals at
    `start` in `text` (before `end`), or None where there is none."""
    match = _INT_ARRAY.match(text, start, end)
    if match is None:
        return None
    body = match.group(1)
    values = tuple(map(int, body.split(","))) if body else ()
    if values and not (_INT32_MIN <= min(values) and max(values) < _INT32_END):
        return None
    return match.group(0), values


def _block_comment_end(source: SourceFile, start: int) -> int:
    """Offset just past the `*/` closing the (possibly nested) comment at `start`."""
    text = source.text
    close = text.find("*/", start + 2)
    if close >= 0 and text.find("/*", start + 2, close) < 0:
        return close + 2  # not nested: the usual `/* ty=... */`
    depth = 0
    pos = start
    while pos < len(text) - 1:
        pair = text[pos : pos + 2]
        if pair == "/*":
            depth += 1
            pos += 2
        elif pair == "*/":
            depth -= 1
            pos += 2
            if depth == 0:
                return pos
        else:
            pos += 1
    raise SourceError(source, start, "unterminated block comment", start + 2)


def number_token(source: SourceFile, start: int) -> Token:
    """The INT or FLOAT token of the number literal at `start` (a SourceError
    where it is malformed or out of range)."""
    text = source.text
    negative = text[start] == "-"
    pos = start + 1 if negative else start
    match = _NUMBER.match(text, pos)
    assert match is not None
    end = match.end()
    literal = match.group(0)
    suffix, width_text = match.group(1), match.group(2)
    body = literal[: len(literal) - len((suffix or "") + (width_text or ""))]
    width = int(width_text) if width_text else None
    if suffix == "f" or body == "inf":
        if body == "inf" and suffix != "f":
            raise SourceError(source, start, "expected 'inff'", end)
        try:
            value = float(body)
        except ValueError:
            raise SourceError(
                source, start, f"invalid floating point number '{body}'", end
            ) from None
        if width not in (None, 16, 32, 64):
            raise SourceError(source, start, f"invalid float width suffix 'f{width}'", end)
        if body != "inf" and not abs(value) <= _FLOAT_MAX[width or 32]:
            raise SourceError(
                source,
                start,
                f"float literal {text[start:end]} is out of range for float{width or 32}",
                end,
            )
        return Token(
            Kind.FLOAT,
            text[start:end],
            start,
            end,
            (-value if negative else value, width or 32),
        )
    if not body.isdigit():
        raise SourceError(
            source,
            start,
            f"invalid integer '{body}' (floats need an 'f' suffix, e.g. '{body}f')",
            end,
        )
    value = -int(body) if negative else int(body)
    if width is not None:
        if width not in (8, 16, 32, 64):
            raise SourceError(source, start, f"invalid integer width suffix 'i{width_text}'", end)
    else:
        # No width (no suffix, or a bare ``i``) is int32, and int64 when out of its range.
        width = 32 if -(2**31) <= value < 2**31 else 64
    if not -(2 ** (width - 1)) <= value < 2 ** (width - 1):
        raise SourceError(source, start, f"integer {value} does not fit in {width} bits", end)
    return Token(Kind.INT, text[start:end], start, end, (value, width))
