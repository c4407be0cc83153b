"""relay dialect → Relay text: algebraic data types.

As TVM v0.19's printer writes them:

* ``relay.type_def`` → ``type List[A] {`` one constructor a line, each
  followed by a comma ``}`` (an empty line for none), or ``extern type Storage``;
* ``relay.construct`` → ``Cons(%x, %xs)``; a constructor without fields
  prints without parentheses (``Nil``);
* ``relay.match`` → ``match (%x) {`` one ``pattern => { body },`` a clause
  ``}``, ``match?`` when partial; pattern variables get fresh names;
* ``relay.constructor`` (a constructor as a function value) → ``Cons``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from xdsl.ir import Attribute, Block, Operation, SSAValue

from relay_xdsl.dialects.relay.adts import (
    ConstructOp,
    MatchOp,
    PatternConstructorAttr,
    PatternTupleAttr,
    PatternVarAttr,
    PatternWildcardAttr,
    TypeDefOp,
)
from relay_xdsl.exporters.relay_lang import RelayLangPrinter
from relay_xdsl.relay_text.types import RelayExportError, relay_type


class RelayAdtPrinter(RelayLangPrinter):
    """Constructor applications and ``match``."""

    def language_expression(self, op: Operation, indent: str, comment: str) -> str | None:
        text = super().language_expression(op, indent, comment)
        if text is not None:
            return text
        if isinstance(op, ConstructOp):
            return construct_text(op, self.ref) + comment
        if isinstance(op, MatchOp):
            return match_text(op, indent, self.ref, self.declaration, self.block)
        return None


def type_def_text(op: TypeDefOp) -> str:
    """The ``type`` (or ``extern type``) definition of `op`."""
    name = op.type_name.data
    params = op.param_names()
    head = name + (f"[{', '.join(params)}]" if params else "")
    if op.extern is not None:
        return f"extern type {head}\n"
    lines = [f"type {head} {{"]
    for constructor in op.constructors.data:
        fields = [relay_type(t) for t in constructor.fields.data]
        text = constructor.ctor_name.data + (f"({', '.join(fields)})" if fields else "")
        lines.append(f"  {text},")
    if not op.constructors.data:
        lines.append("")  # TVM's printer leaves the line of the constructors empty
    lines.append("}")
    return "\n".join(lines) + "\n"


def construct_text(op: ConstructOp, ref: Callable[[SSAValue], str]) -> str:
    name = op.constructor.data
    if not op.fields:
        return name
    return f"{name}({', '.join(ref(f) for f in op.fields)})"


def match_text(
    op: MatchOp,
    indent: str,
    ref: Callable[[SSAValue], str],
    bind: Callable[[SSAValue], str],
    body: Callable[[Block, list[str], str], None],
) -> str:
    """The ``match`` expression of `op`, its lines after the first indented by `indent`.

    `bind` names a pattern variable; `body` prints a clause's block.
    """
    keyword = "match?" if op.partial is not None else "match"
    lines = [f"{keyword} ({ref(op.data)}) {{"]
    for pattern, region in zip(op.patterns.data, op.clauses):
        args = iter(region.block.args)
        lines.append(f"{indent}  {_pattern_text(pattern, args, bind)} => {{")
        body(region.block, lines, indent + "    ")
        lines.append(f"{indent}  }},")
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def _pattern_text(
    pattern: Attribute, args: Iterator[SSAValue], bind: Callable[[SSAValue], str]
) -> str:
    if isinstance(pattern, PatternWildcardAttr):
        return "_"
    if isinstance(pattern, PatternVarAttr):
        return bind(next(args))
    if isinstance(pattern, PatternConstructorAttr):
        name = pattern.constructor.data
        if not pattern.fields.data:
            return name
        return f"{name}({', '.join(_pattern_text(p, args, bind) for p in pattern.fields.data)})"
    if isinstance(pattern, PatternTupleAttr):
        return f"({', '.join(_pattern_text(p, args, bind) for p in pattern.fields.data)})"
    raise RelayExportError(f"{pattern} is not a Relay pattern")
