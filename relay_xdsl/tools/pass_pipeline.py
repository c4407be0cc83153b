"""Checking a ``-p`` pass pipeline before it runs.

`check_pass_pipeline` reports unknown passes, unknown options and badly
typed values at their place in the pipeline, with the valid names or the
expected type, in the same ``file:line:col: error:`` form as every other
input error (the file is ``<pass pipeline>``).
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable, Mapping, Sequence
from types import NoneType, UnionType
from typing import TYPE_CHECKING, Any, Union, get_args, get_origin, get_type_hints

from xdsl.utils.exceptions import ArgSpecParseError

from relay_xdsl.relay_text.source import SourceError, SourceFile
from relay_xdsl.support.xdsl_internals import convert_pass_option, parse_pass_option_value

if TYPE_CHECKING:
    from xdsl.utils.arg_spec import PipelineLexer, SpecToken

PIPELINE_SOURCE = "<pass pipeline>"
"""The name under which ``-p`` pipelines appear in diagnostics."""


def check_pass_pipeline(
    text: str, available: Mapping[str, Callable[[], type]]
) -> SourceError | None:
    """The first problem in the pass pipeline `text`, or None if it is valid.

    Unknown passes, unknown options and badly typed values are reported at
    their place in the pipeline, with the valid names or the expected type.
    """
    from xdsl.utils.arg_spec import PipelineLexer, SpecTokenKind

    source = SourceFile(text, PIPELINE_SOURCE)
    lexer = PipelineLexer(text)
    last_end = 0

    def lex():
        nonlocal last_end
        try:
            token = lexer.lex()
        except ArgSpecParseError:
            raise SourceError(
                source, last_end, f"unexpected character {text[last_end : last_end + 1]!r}"
            ) from None
        last_end = token.span.end
        return token

    def peek():
        try:
            return lexer.peek()
        except ArgSpecParseError:
            raise SourceError(
                source, last_end, f"unexpected character {text[last_end : last_end + 1]!r}"
            ) from None

    def found(token: SpecToken) -> str:
        if token.kind is SpecTokenKind.EOF:
            return "the end of the pipeline"
        return repr(token.span.text)

    try:
        while peek().kind is not SpecTokenKind.EOF:
            name = lex()
            if name.kind is not SpecTokenKind.IDENT:
                raise SourceError(
                    source,
                    name.span.start,
                    f"expected a pass name, found {found(name)}",
                    name.span.end,
                )
            options: list[tuple[Any, tuple, int, int]] = []
            if peek().kind is SpecTokenKind.L_BRACE:
                lex()
                while True:
                    key = lex()
                    if key.kind is SpecTokenKind.R_BRACE:
                        break
                    if key.kind is not SpecTokenKind.IDENT:
                        raise SourceError(
                            source,
                            key.span.start,
                            f"expected an option name or '}}', found {found(key)}",
                            key.span.end,
                        )
                    after = lex()
                    if after.kind in (SpecTokenKind.SPACE, SpecTokenKind.R_BRACE):
                        options.append((key, (), key.span.start, key.span.end))
                        if after.kind is SpecTokenKind.R_BRACE:
                            break
                        continue
                    if after.kind is not SpecTokenKind.EQUALS:
                        raise SourceError(
                            source,
                            after.span.start,
                            f"expected '=', a space or '}}' after option '{key.span.text}', "
                            f"found {found(after)}",
                            after.span.end,
                        )
                    value_start = peek().span.start
                    values = _option_values(lexer, lex, peek, source, found)
                    options.append((key, values, value_start, peek().span.start))
                    after = lex()
                    if after.kind is SpecTokenKind.R_BRACE:
                        break
                    if after.kind is not SpecTokenKind.SPACE:
                        raise SourceError(
                            source,
                            after.span.start,
                            f"expected a space or '}}' after the value of "
                            f"'{key.span.text}', found {found(after)}",
                            after.span.end,
                        )
            elif peek().kind is SpecTokenKind.MLIR_PIPELINE:
                lex()
                options = []
            error = _check_pass(source, name, options, available)
            if error is not None:
                return error
            separator = lex()
            if separator.kind is SpecTokenKind.EOF:
                break
            if separator.kind is not SpecTokenKind.COMMA:
                raise SourceError(
                    source,
                    separator.span.start,
                    f"expected ',' between passes, found {found(separator)}",
                    separator.span.end,
                )
    except SourceError as error:
        return error
    return None


def _option_values(
    lexer: PipelineLexer,
    lex: Callable[[], SpecToken],
    peek: Callable[[], SpecToken],
    source: SourceFile,
    found: Callable[[SpecToken], str],
) -> tuple:
    from xdsl.utils.arg_spec import SpecTokenKind

    values = []
    while True:
        token = peek()
        if token.kind not in (SpecTokenKind.STRING_LIT, SpecTokenKind.NUMBER, SpecTokenKind.IDENT):
            raise SourceError(
                source,
                token.span.start,
                f"expected an option value, found {found(token)}",
                token.span.end,
            )
        values.append(parse_pass_option_value(lexer))
        if peek().kind is not SpecTokenKind.COMMA:
            return tuple(values)
        lex()


def _check_pass(
    source: SourceFile,
    name: SpecToken,
    options: Sequence[tuple[Any, tuple, int, int]],
    available: Mapping[str, Callable[[], type]],
) -> SourceError | None:
    pass_name = name.span.text
    factory = available.get(pass_name)
    if factory is None:
        close = difflib.get_close_matches(pass_name, list(available), n=3)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        return SourceError(
            source,
            name.span.start,
            f"unknown pass '{pass_name}'{hint} ({valid_passes(available)})",
            name.span.end,
        )
    if pass_name == "mlir-opt":
        return None
    pass_class = factory()
    if not dataclasses.is_dataclass(pass_class):
        return None
    fields = {f.name: f for f in dataclasses.fields(pass_class) if f.init and f.name != "name"}
    hints = get_type_hints(pass_class)
    seen: set[str] = set()
    given: dict[str, Any] = {}
    spans: dict[str, tuple[int, int]] = {}
    for key, values, value_start, value_end in options:
        key_name = key.span.text.replace("-", "_")
        spelled = key.span.text
        if key_name not in fields:
            spellings = [name.replace("_", "-") for name in fields]
            close = difflib.get_close_matches(spelled, spellings, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            return SourceError(
                source,
                key.span.start,
                f"{pass_name} has no option '{spelled}'{hint} ({valid_options(pass_class)})",
                key.span.end,
            )
        seen.add(key_name)
        expected = hints.get(key_name)
        if expected is not None and not _accepts(values, expected):
            shown = ",".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)
            return SourceError(
                source,
                value_start if values else key.span.start,
                f"option '{spelled}' of {pass_name} expects {describe_type(expected)}, "
                f"found {shown!r}"
                if values
                else f"option '{spelled}' of {pass_name} needs a value: {describe_type(expected)}",
                value_end if values else key.span.end,
            )
        if expected is not None:
            given[key_name] = convert_pass_option(values, expected)
            spans[spelled] = (value_start, value_end) if values else (key.span.start, key.span.end)
    for field_name, field in fields.items():
        if (
            field_name not in seen
            and field.default is dataclasses.MISSING
            and field.default_factory is dataclasses.MISSING
        ):
            return SourceError(
                source,
                name.span.start,
                f"{pass_name} needs option '{field_name.replace('_', '-')}'; "
                f"{valid_options(pass_class)}",
                name.span.end,
            )
    return _check_values(source, name, pass_class, given, spans)


def _check_values(
    source: SourceFile,
    name: SpecToken,
    pass_class: type,
    given: dict[str, Any],
    spans: Mapping[str, tuple[int, int]],
) -> SourceError | None:
    """Build the pass: a value out of range is reported at the option that gives it."""
    from relay_xdsl.transforms.diagnostics import PassOptionError

    try:
        pass_class(**given)
    except PassOptionError as error:
        start, end = spans.get(error.option, (name.span.start, name.span.end))
        return SourceError(source, start, str(error), end)
    except (TypeError, ValueError):
        return None  # left to xDSL, which builds the pass itself
    return None


def valid_passes(available: Mapping[str, object]) -> str:
    """``valid passes: ...``: relay-xdsl's, then how many others there are."""
    relay = sorted(name for name in available if name.startswith(("relay-", "convert-relay-")))
    others = len(available) - len(relay)
    listed = ", ".join(relay) if relay else "none"
    if not others:
        return f"valid passes: {listed}"
    return f"valid passes: {listed}, and {others} of xDSL's, listed by `xdsl-opt --help`"


def _accepts(values: tuple, expected: Any) -> bool:
    try:
        convert_pass_option(values, expected)
    except (ValueError, TypeError):
        return False
    return True


def valid_options(pass_class: type) -> str:
    """``valid options: a=<type> (default: x), ...`` for a pass class."""
    hints = get_type_hints(pass_class)
    parts = []
    for field in dataclasses.fields(pass_class):
        if not field.init or field.name == "name":
            continue
        spelled = field.name.replace("_", "-")
        part = f"{spelled}=<{describe_type(hints.get(field.name))}>"
        if field.default is not dataclasses.MISSING:
            part += f" (default: {_show_default(field.default)})"
        parts.append(part)
    return "valid options: " + (", ".join(parts) if parts else "none")


def _show_default(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return ",".join(map(str, value)) if value else "none"
    if value is None:
        return "none"
    return str(value)


def describe_type(type_: Any) -> str:
    """A pass option type in words."""
    if type_ is bool:
        return "true or false"
    if type_ is int:
        return "an integer"
    if type_ is float:
        return "a number"
    if type_ is str:
        return "a string"
    origin = get_origin(type_)
    if origin in (Union, UnionType):
        others = [t for t in get_args(type_) if t is not NoneType]
        return " or ".join(describe_type(t) for t in others) + " (optional)"
    if origin is tuple:
        element = get_args(type_)[0]
        return f"comma-separated {describe_type(element).removeprefix('a ').removeprefix('an ')}s"
    return str(type_)
