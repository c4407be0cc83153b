"""Function bodies and dataflow expressions: the base of the Relay text printer's chain.

:class:`RelayExpressionPrinter` prints the bindings of a block in TVM's
order (print_order.py) and the expressions of the dataflow graph: operator
calls, tuples, projections, constants, calls of globals and of function
literals (each ``relay.fn`` a bound ``fn (...) {...}`` literal). The layers
above add the language beyond dataflow (relay_lang.py) and algebraic data
types (relay_adts.py), through `language_expression`; relay_text.py prints
functions and the module.

* every non-atomic subexpression gets a ``%N = ...;`` temp, every
  ``relay.let`` a ``let %x = ...;`` (so does every value bound to a Relax
  variable, see bindings.py); the result expression is printed inline;
* operator attributes are printed in TVM's field order, and only where they
  differ from TVM's default (fields without a default are always printed); a
  field left unset that TVM's relation needs prints its Python builder's
  default (``roi``, ``strides``: ``RelayAttr.builder_default``);
* ``relay.fn`` ops that carry one ``relay.literal`` (the text called one
  literal from each) share one literal while their functions are alike;
* ``/* ty=... */`` comments give the type of every call, constant, tuple and
  projection, of every declared variable (``%x: T /* ty=T */``: TVM repeats
  the annotation) and of every function literal (after its ``}``), with
  ``span=`` where the op has a source location.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FileLineColLoc,
    FunctionType,
    IntegerAttr,
    NameLoc,
    TensorType,
    TupleType,
    UnitAttr,
)
from xdsl.dialects.func import CallOp
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.attributes import attr_value, stored
from relay_xdsl.dialects.relay.bindings import (
    BodyKind,
    implicitly_bound,
    let_expression,
    relax_body_kind,
    result_expressions,
)
from relay_xdsl.dialects.relay.inference import infer_type
from relay_xdsl.dialects.relay.names import relay_name
from relay_xdsl.dialects.relay.type_agreement import agrees
from relay_xdsl.exporters.print_order import Step, schedule
from relay_xdsl.exporters.relay_attributes import (
    attribute_value,
    checked_name,
    function_attributes,
    relay_identifier,
    scalar_literal,
)
from relay_xdsl.relay_text.types import RelayExportError, relay_type

MAX_INDENT_LEVELS = 32
"""Nested bodies deeper than this print at this indentation, so that deep
nesting does not make the text quadratic in size."""


def inner_indent(indent: str) -> str:
    """The indentation of a body nested in one at `indent` (see `MAX_INDENT_LEVELS`)."""
    return indent + "  " if len(indent) < 2 * MAX_INDENT_LEVELS else indent


class ModuleState:
    """What the printers of one module's functions share."""

    def __init__(self) -> None:
        self.meta_values: dict[DenseIntOrFPElementsAttr, int] = {}
        self.opaque_meta = False
        # TVM's parser keeps one table of %N temps for the whole text, so
        # temps are numbered across functions, never restarted.
        self.temps: Iterator[str] = map("%{}".format, itertools.count())
        # An operator call's name and attributes in Relay text, by what decides
        # them: a graph repeats the same calls thousands of times.
        self.call_texts: dict[tuple[object, ...], tuple[str, str]] = {}
        # The texts of the calls whose types were checked (`_check_call`), by
        # the same key plus types.
        self.checked_calls: dict[tuple[object, ...], tuple[str, str]] = {}
        # Texts by the identities of what decides them (a graph shares its
        # types and scalar values): each entry keeps its object
        # alive, so an identity is not reused while the module prints.
        self.type_texts: dict[int, tuple[str, Attribute]] = {}
        self.literals: dict[int, tuple[str, Attribute]] = {}
        # `_span_prefix` by file name (an op's name, so hundreds per module).
        self.span_prefixes: dict[str, str] = {}

    def type_comment(self, op: Operation) -> str:
        """`_type_comment(op)`: a tensor type's text is spelled once, a file
        location's span (most ops have their own) directly."""
        results = op.results
        type_ = _item(results, 0).type if results else None
        if type(type_) is not TensorType:
            return _type_comment(op)
        type_entry = self.type_texts.get(id(type_))
        if type_entry is None:
            type_entry = self.type_texts[id(type_)] = ("ty=" + relay_type(type_), type_)
        location = op.location
        if type(location) is not FileLineColLoc:
            return _comment(type_entry[0], _span(location))
        name = location.filename.data
        prefix = self.span_prefixes.get(name)
        if prefix is None:
            prefix = self.span_prefixes[name] = _span_prefix(name)
        if not prefix:
            return f" /* {type_entry[0]} */"
        return f" /* {type_entry[0]} {prefix}{location.line.data}:{location.column.data} */"

    def constant(self, op: relay.ConstantOp) -> str:
        """`op` as a literal or a ``meta[relay.Constant][i]`` reference, whose
        value the metadata section will hold."""
        # Read from the dictionary: the property's descriptor is a Python call.
        meta_index = cast("IntegerAttr | None", op.attributes.get("meta_index"))
        if meta_index is not None:
            self.opaque_meta = True
            return f"meta[relay.Constant][{meta_index.value.data}]"
        value = op.value
        if not isinstance(value, DenseIntOrFPElementsAttr):
            raise RelayExportError(
                f"constant value {type(value).__name__} is not supported in Relay text"
            )
        entry = self.literals.get(id(value))
        if entry is None:
            entry = self.literals[id(value)] = (scalar_literal(value) or "", value)
        literal = entry[0]
        if literal:
            return literal
        index = self.meta_values.setdefault(value, len(self.meta_values))
        return f"meta[relay.Constant][{index}]"


class RelayExpressionPrinter:
    """Prints the bodies of one function: bindings and dataflow expressions."""

    def __init__(self, module_state: ModuleState):
        self.module_state = module_state
        # Each value's text, by id(value): hashing a value calls Python code.
        self.names: dict[int, str] = {}
        self.used_names: set[str] = set()
        # The relay.fn ops that call a literal printed for another (_shared_literals).
        self.shared_literals: dict[relay.FnOp, Region] = {}
        self.body_kinds: dict[Block, BodyKind | None] = {}
        # The temp each printed function literal is bound to, by its body.
        self.literal_names: dict[Region, str] = {}

    def language_expression(self, op: Operation, indent: str, comment: str) -> str | None:
        """The Relay text of `op` beyond dataflow, or None when no layer prints it."""
        return None

    def prebind_let(self, let: relay.LetOp, source: Operation | None) -> None:
        """Name what the value `source` of `let` refers to before it prints
        (a recursive function refers to its let variable, relay_lang.py)."""

    def params(
        self, args: tuple[BlockArgument, ...], arg_attrs: Attribute | None = None
    ) -> list[str]:
        params = []
        attributes = param_attribute_texts(arg_attrs, len(args), attribute_value)
        for arg, extra in zip(args, attributes):
            params.append(self.declaration(arg, extra))
        return params

    def declaration(self, value: SSAValue, extra: str = "") -> str:
        """A variable where it is declared, as TVM writes it: ``%x: T /* ty=T */``
        (`extra` between name and type), the comment also giving its span."""
        name = self.fresh_name(value)
        type_ = value.type
        return f"{name}{extra}{annotation(type_)}{_variable_comment(value)}"

    def fresh_name(self, value: SSAValue) -> str:
        """A unique Relay name for a parameter or let-bound value."""
        base = relay_identifier(relay_name(value) or "x")
        # TVM's printer makes names unique by appending a counter.
        name, suffix = base, 1
        while name in self.used_names:
            name = f"{base}{suffix}"
            suffix += 1
        self.used_names.add(name)
        self.names[id(value)] = "%" + name
        return "%" + name

    def attribute_list(self, attributes: dict[str, Attribute]) -> list[str]:
        """A function's Relay attributes as ``key=value``, in TVM's order."""
        return function_attributes(attributes)

    def call_arguments(self, op: Operation, args: Sequence[SSAValue]) -> str:
        """``%a, %b, k=v, attrs_type_key="..."``: a call's arguments and its
        ``relay.call_attrs``, whose type key TVM prints last."""
        parts = [self.ref(a) for a in args]
        attrs = op.attributes.get(relay.CALL_ATTRS)
        if isinstance(attrs, DictionaryAttr):
            items = [(k, v) for k, v in attrs.data.items() if k != "attrs_type_key"]
            items.append(("attrs_type_key", attrs.data["attrs_type_key"]))
            parts += [f"{checked_name(k, 'attribute name')}={attribute_value(v)}" for k, v in items]
        return ", ".join(parts)

    def block(self, block: Block, lines: list[str], indent: str) -> None:
        """Print the bindings of `block` in TVM's order (print_order.py), then its result."""
        terminator = block.last_op
        if not isinstance(terminator, FuncReturnOp | relay.ReturnOp | relay.MatchYieldOp):
            raise RelayExportError("a function body must end with a return")
        results = terminator.operands
        if len(results) != 1:
            raise RelayExportError("a Relay function returns exactly one value")
        result = results[0]
        kind = relax_body_kind(block, self.body_kinds)
        returned = result_expressions(block) if kind == "dataflow" else set()

        def bound(op: Operation) -> bool:
            """Whether `op` is bound to a Relax variable of its own (see bindings.py)."""
            assert kind is not None
            return implicitly_bound(op, kind, returned)

        searched = False

        def literal_key(op: relay.FnOp) -> Region:
            nonlocal searched
            if not searched:
                # Searched when a relay.fn asks (before it prints): most blocks have none.
                searched = True
                self.shared_literals.update(_shared_literals(block))
            return self.shared_literals.get(op, op.body)

        expressions: dict[int, str] = {}  # by id(op): hashing an op calls Python code
        literals: dict[Region, tuple[str, list[str]]] = {}
        names, temps = self.names, self.module_state.temps
        for step, op in schedule(block, result, None if kind is None else bound, literal_key):
            if step is _VISIT:
                assert op is not None
                if _is_atom(type(op)):
                    names[id(_item(op.results, 0))] = self.atom(op)
                else:
                    expressions[id(op)] = self.expression(op, lines, indent)
            elif step is _BIND:
                assert op is not None
                name = next(temps)
                names[id(_item(op.results, 0))] = name
                lines.append(f"{indent}{name} = {expressions.pop(id(op))};")
            elif step is Step.BIND_VARIABLE:
                assert op is not None
                self.let(_item(op.results, 0), expressions.pop(id(op)), lines, indent)
            elif step is Step.STATEMENT:
                assert isinstance(op, relay.LetOp)
                source = let_expression(op)
                self.prebind_let(op, source)
                expression = (
                    expressions.pop(id(source))
                    if source is not None and id(source) in expressions
                    else self.ref(op.value)
                )
                self.let(op.result, expression, lines, indent)
            elif step is Step.LITERAL:
                assert isinstance(op, relay.FnOp)
                literals[literal_key(op)] = self.fn_literal(op, indent)
            elif step is Step.BIND_LITERAL:
                assert isinstance(op, relay.FnOp)
                key = literal_key(op)
                head, body = literals.pop(key)
                name = next(temps)
                self.literal_names[key] = name
                lines.append(f"{indent}{name} = {head}")
                lines.extend(body)
                lines.append(f"{indent}}}{_literal_comment(op)};")
            elif op is not None:
                lines.append(indent + expressions.pop(id(op)))
            else:
                lines.append(indent + self.ref(result))

    def atom(self, op: Operation) -> str:
        """An op printed where it is used (`_is_atom`): a constant, a global
        function, an operator or a constructor as a value."""
        if isinstance(op, relay.ConstantOp):
            return self.module_state.constant(op) + self.module_state.type_comment(op)
        if isinstance(op, relay.GlobalOp):
            return "@" + checked_name(op.callee.root_reference.data, "function name")
        if isinstance(op, relay.OperatorRefOp):
            return checked_name(op.op_name.data, "operator name", dotted=True)
        assert isinstance(op, relay.ConstructorRefOp)
        return op.constructor.data

    def let(self, value: SSAValue, expression: str, lines: list[str], indent: str) -> None:
        bound = self.names.get(id(value)) or self.fresh_name(value)
        lines.append(f"{indent}let {bound}{_let_annotation(value.type)} = {expression};")

    def ref(self, value: SSAValue) -> str:
        name = self.names.get(id(value))
        if name is None:
            raise RelayExportError("a value is used outside the scope that defines it")
        return name

    def expression(self, op: Operation, lines: list[str], indent: str) -> str:
        module_state = self.module_state
        comment = module_state.type_comment(op)
        if _is_operator(type(op)):
            args = op.operands
            names = self.names
            try:
                arguments = ", ".join([names[id(a)] for a in args])
            except KeyError:
                arguments = ", ".join([self.ref(a) for a in args])
            # By identity: the module keeps these attributes and types alive while
            # it prints, and hashing them by value walks their whole structure.
            attributes = op.attributes
            key = (
                type(op),
                *attributes,
                *map(id, attributes.values()),
                *[id(a.type) for a in args],
                id(_item(op.results, 0).type),
            )
            call = module_state.checked_calls.get(key)
            if call is None:
                # The text depends on the attributes only; the check on the types too.
                text_key = key[: 1 + 2 * len(attributes)]
                call = module_state.call_texts.get(text_key)
                if call is None:
                    call = module_state.call_texts[text_key] = _call_text(
                        cast(relay.OperatorOp, op)
                    )
                if _is_registered(type(op)) and not agrees(op):
                    _check_call(cast(relay.OperatorOp, op))
                module_state.checked_calls[key] = call
            name, attributes_text = call
            separator = ", " if arguments and attributes_text else ""
            return f"{name}({arguments}{separator}{attributes_text}){comment}"
        if isinstance(op, relay.TupleOp):
            fields = [self.ref(f) for f in op.fields]
            return "(" + ", ".join(fields) + ("," if len(fields) == 1 else "") + ")" + comment
        if isinstance(op, relay.TupleGetItemOp):
            return f"{self.ref(op.tuple_value)}.{op.index.value.data}{comment}"
        if isinstance(op, CallOp):
            if len(op.results) != 1:
                raise RelayExportError(f"call of @{op.callee.string_value()} must have one result")
            callee = checked_name(op.callee.string_value(), "function name")
            return f"@{callee}({self.call_arguments(op, op.arguments)}){comment}"
        if isinstance(op, relay.FnOp):
            callee = self.literal_names[self.shared_literals.get(op, op.body)]
            return f"{callee}({self.call_arguments(op, op.args)}){comment}"
        text = self.language_expression(op, indent, comment)
        if text is None:
            raise RelayExportError(f"'{op.name}' has no Relay equivalent")
        return text

    def fn_literal(self, op: relay.FnOp, indent: str) -> tuple[str, list[str]]:
        """The function literal of `op`: its head line and its body's lines."""
        params = self.params(op.body.block.args, op.attributes.get(relay.ARG_ATTRS))
        attributes = function_attributes(
            {
                k: v
                for k, v in op.relay_attributes().items()
                if k not in (relay.TYPE_PARAMS, relay.ARG_ATTRS)
            }
        )
        body: list[str] = []
        inner = inner_indent(indent)
        self.block(op.body.block, body, inner)
        generics = type_params(op.attributes.get(relay.TYPE_PARAMS))
        output = return_annotation(op.result.type)
        head = f"fn {generics}({', '.join(params + attributes)}){output} {{"
        return head, body


_item = tuple.__getitem__
"""``_item(op.results, 0)``: the first result of `op`, without xDSL's indexing
(a Python call that checks for a slice) nor a call of one."""


_VISIT, _BIND = Step.VISIT, Step.BIND
"""The most frequent steps (naming an enum member is a Python call)."""


@functools.cache
def _is_atom(op_class: type[Operation]) -> bool:
    """Whether ops of `op_class` print where they are used (see `atom`)."""
    return issubclass(
        op_class, relay.ConstantOp | relay.GlobalOp | relay.OperatorRefOp | relay.ConstructorRefOp
    )


@functools.cache
def _is_operator(op_class: type[Operation]) -> bool:
    """Whether `op_class` is an operator call's (by class: ``isinstance`` of an
    xDSL class is a Python call)."""
    return issubclass(op_class, relay.OperatorOp)


@functools.cache
def _is_registered(op_class: type[Operation]) -> bool:
    """Whether `op_class` is a call of an operator with a registry row (see `_is_operator`)."""
    return issubclass(op_class, relay.RegisteredOperatorOp)


def _call_text(op: relay.OperatorOp) -> tuple[str, str]:
    """The operator name of a call and its attributes as Relay keyword arguments
    (`_printed_attributes`)."""
    parts = [
        f"{checked_name(k, 'attribute name')}={attribute_value(v)}"
        for k, v in _printed_attributes(op)
    ]
    return checked_name(op.operator_name, "operator name", dotted=True), ", ".join(parts)


def _printed_attributes(op: relay.OperatorOp) -> list[tuple[str, Attribute]]:
    """The attributes a call prints: those that differ from TVM's defaults,
    the builder's default of the others that have one, and the other
    required ones left unset as ``None``, in the schema's order."""
    if isinstance(op, relay.GenericOperatorOp):
        return op.relay_attributes()
    attributes = op.attributes
    printed: list[tuple[str, Attribute]] = []
    # One pass in the schema's order; a name is printed for at most one reason.
    for name, schema_attribute in op.schema.items():
        value = attributes.get(name)
        if value is not None and attr_value(value) != schema_attribute.default:
            printed.append((name, value))
        elif schema_attribute.builder_default is not None:
            printed.append((name, stored(schema_attribute.builder_default)))
        elif schema_attribute.required and value is None:
            printed.append((name, UnitAttr()))
    return printed


def _check_call(op: relay.OperatorOp) -> None:
    """Refuse to print a call whose type its arguments and attributes contradict.

    The dialect's verifier does not infer types, so valid IR may claim a
    result type that TVM's type rules (which the importer applies to every
    ``ty=`` annotation) reject; the printout would not import back. A call
    the importer checked and nothing changed since is not inferred again
    (type_agreement.py), nor one like a call checked before in the module.
    """
    assert isinstance(op, relay.RegisteredOperatorOp)
    attributes = _printed_attributes(op)
    schema = op.OPERATOR.schema
    given = {
        key: value
        for key, value in attributes
        if not (isinstance(value, UnitAttr) and schema[key].default is None)
    }
    inferred = infer_type(op.OPERATOR, [a.type for a in op.args], given)
    declared = op.results[0].type
    if inferred is not None and inferred != declared and _static(inferred) and _static(declared):
        raise RelayExportError(
            f"'{op.operator_name}' claims result type {relay_type(declared)} but its "
            f"arguments and attributes give {relay_type(inferred)}"
        )


def _static(type_: Attribute) -> bool:
    if isinstance(type_, TensorType):
        return DYNAMIC_INDEX not in type_.get_shape()
    return isinstance(type_, TupleType) and all(_static(t) for t in type_.types.data)


def type_params(attribute: Attribute | None) -> str:
    """``[A, B]`` for a function's ``type_params``, or nothing."""
    if not isinstance(attribute, ArrayAttr) or not attribute.data:
        return ""
    names = [t.var_name.data for t in attribute.data if isinstance(t, relay.TypeVarType)]
    return "[" + ", ".join(names) + "]"


def annotation(type_: Attribute) -> str:
    """``: T`` after a parameter or let variable; nothing for an unknown type."""
    if isinstance(type_, relay.IncompleteType):
        return ""
    return f": {relay_type(type_)}"


def return_annotation(type_: Attribute) -> str:
    """`` -> R`` after a parameter list; nothing for an unknown type."""
    if isinstance(type_, relay.IncompleteType):
        return ""
    return f" -> {relay_type(type_)}"


def function_type_comment(
    type_parameters: Attribute | None, inputs: Sequence[Attribute], output: Attribute
) -> str:
    """`` /* ty=fn (T) -> R */``, the type TVM writes after a function
    literal's ``}``; nothing while a part of it is unknown, nor for a generic
    literal (TVM writes ``fn [A](A) -> A``, which the importer does not read)."""
    if type_params(type_parameters) or any(
        isinstance(t, relay.IncompleteType) for t in (*inputs, output)
    ):
        return ""
    arguments = ", ".join(relay_type(t) for t in inputs)
    return f" /* ty=fn ({arguments}) -> {relay_type(output)} */"


def param_attribute_texts(
    arg_attrs: Attribute | None, count: int, value_text: Callable[[Attribute], str]
) -> list[str]:
    """`` {key=value}`` after each of `count` parameters, from ``arg_attrs``
    (`value_text` spells a value)."""
    if not isinstance(arg_attrs, ArrayAttr) or len(arg_attrs.data) != count:
        return [""] * count
    texts = []
    for entry in arg_attrs.data:
        items = entry.data.items() if isinstance(entry, DictionaryAttr) else ()
        pairs = [f"{key.removeprefix('relay.')}={value_text(value)}" for key, value in items]
        texts.append(f" {{{', '.join(pairs)}}}" if pairs else "")
    return texts


def _shared_literals(block: Block) -> dict[relay.FnOp, Region]:
    """The ``relay.fn`` ops of `block` that call one literal: each mapped to the
    body of the first of them (see `relay.FnOp.literal`).

    Ops marked as one literal share it only while their functions are still
    the same; one a pass has changed prints a literal of its own.
    """
    marked: dict[int, list[relay.FnOp]] = {}
    for op in block.ops:
        if type(op) is relay.FnOp and (literal := op.literal) is not None:
            marked.setdefault(literal, []).append(op)
    shared: dict[relay.FnOp, Region] = {}
    for ops in marked.values():
        firsts: list[relay.FnOp] = []
        for op in ops:
            first = next((f for f in firsts if _same_function(f, op)), None)
            if first is None:
                firsts.append(op)
            else:
                shared[op] = first.body
    return shared


def _same_function(a: relay.FnOp, b: relay.FnOp) -> bool:
    return (
        a.result.type == b.result.type
        and a.attributes == b.attributes
        and a.body.is_structurally_equivalent(b.body)
    )


MAX_COMMENT_TUPLE_DEPTH = 32
"""Tuples and projections whose type nests deeper than this print without a
``ty=`` comment (the parser derives it from the fields): a comment per level
would make deeply nested tuples quadratic in size."""


def _let_annotation(type_: Attribute) -> str:
    """``: T /* ty=T */`` of a let variable (see `_variable_comment`): without
    ``: T`` for a type TVM's parser cannot read (a reference), nothing for an
    unknown type."""
    if isinstance(type_, relay.IncompleteType):
        return ""
    text = relay_type(type_)
    if _has_ref(type_):
        return f" /* ty={text} */"
    return f": {text} /* ty={text} */"


def _has_ref(type_: Attribute) -> bool:
    if isinstance(type_, relay.RefType):
        return True
    if isinstance(type_, TupleType):
        return any(_has_ref(t) for t in type_.types.data)
    if isinstance(type_, FunctionType):
        return any(_has_ref(t) for t in (*type_.inputs.data, *type_.outputs.data))
    return False


def _type_comment(op: Operation) -> str:
    type_text = ""
    for result in op.results:  # the first (xDSL's indexing is a Python call)
        type_ = result.type
        if type(type_) is TensorType or not (
            isinstance(type_, relay.IncompleteType)
            or (
                type(type_) is TupleType
                and isinstance(op, relay.TupleOp | relay.TupleGetItemOp)
                and _tuple_depth(type_) > MAX_COMMENT_TUPLE_DEPTH
            )
        ):
            type_text = "ty=" + relay_type(type_)
        break
    return _comment(type_text, _span(op.location))


def _comment(type_text: str, span: str) -> str:
    """`` /* ty=T span=... */`` of the parts given."""
    if type_text and span:
        return f" /* {type_text} {span} */"
    if type_text or span:
        return f" /* {type_text or span} */"
    return ""


def _variable_comment(value: SSAValue) -> str:
    """`` /* ty=T */`` after a declared variable, as TVM follows each variable
    whose type it checked with that type, annotated or not; with its span."""
    type_ = value.type
    type_text = "" if isinstance(type_, relay.IncompleteType) else "ty=" + relay_type(type_)
    span = _span(value.location) if isinstance(value, BlockArgument) else ""
    return _comment(type_text, span)


def _literal_comment(op: relay.FnOp) -> str:
    """`` /* ty=fn (T) -> R */`` after the ``}`` of a function literal:
    TVM gives a literal its function type (see `function_type_comment`)."""
    types = [a.type for a in op.body.block.args]
    return function_type_comment(op.attributes.get(relay.TYPE_PARAMS), types, op.result.type)


def _tuple_depth(type_: Attribute) -> int:
    """How deep tuple types nest in `type_`, counting at most past the limit."""
    depth = 0
    level = [type_]
    while level and depth <= MAX_COMMENT_TUPLE_DEPTH:
        level = [f for t in level if isinstance(t, TupleType) for f in t.types.data]
        depth += 1
    return depth - 1 if not level else depth


def _span(location: Attribute) -> str:
    if type(location) is FileLineColLoc or isinstance(location, FileLineColLoc):
        prefix = _span_prefix(location.filename.data)
        return f"{prefix}{location.line.data}:{location.column.data}" if prefix else ""
    if isinstance(location, NameLoc):
        # A Relay name recorded as a location (see names.py) wraps the span.
        return _span(location.location)
    return ""


def _span_prefix(name: str) -> str:
    """``span=NAME:`` before a span's line and column, or nothing where a
    comment could not hold the name (spans are only presentation)."""
    # Neither a comment's delimiters nor white space (`str.split` splits at
    # `str.isspace`'s); by substring and split, several times faster than a regex.
    if not name or "/*" in name or "*/" in name or name.split() != [name]:
        return ""
    return f"span={name}:"
