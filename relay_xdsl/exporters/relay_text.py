"""relay dialect → Relay text that TVM v0.19's parser accepts.

``print_relay(module)`` follows TVM's printer conventions:

* a ``#[version = "0.0.5"]`` header (TVM's module parser requires it), then
  one ``def @f(...) -> T {...}`` per ``func.func``, with the function's Relay
  attributes after its parameters;
* each body prints in TVM's order (print_order.py): a post-order walk from
  the result, so any order of the same graph gives one text, the one TVM
  prints, temp numbers and parameter names included;
* every non-atomic subexpression gets a ``%N = ...;`` temp, every
  ``relay.let`` a ``let %x = ...;`` (so does every value bound to a Relax
  variable, see bindings.py); the result expression is printed inline;
* operator attributes are printed in TVM's field order, and only where they
  differ from TVM's default (fields without a default are always printed);
* each ``relay.fn`` prints as a bound ``fn (...) {...}`` literal and a call;
  ``relay.fn`` ops that carry one ``relay.literal`` (the text called one
  literal from each) share one literal while their functions are alike;
* scalar constants print as literals (``1f``, ``2i64``, ``True``); other
  constants as ``meta[relay.Constant][i]``, with a ``#[metadata]`` section
  holding their values when they are known;
* ``/* ty=... */`` comments give the type of every call, constant, tuple and
  projection, of every declared variable (``%x: T /* ty=T */``: TVM repeats
  the annotation) and of every function literal (after its ``}``), with
  ``span=`` where the op has a source location; as in TVM, ``if``,
  ``match`` and the reference ops get none.
"""

from __future__ import annotations

import itertools
import math
import re
import struct
from collections.abc import Iterator, Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FileLineColLoc,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NameLoc,
    StringAttr,
    TensorType,
    TupleType,
    UnitAttr,
)
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay.bindings import (
    implicitly_bound,
    let_expression,
    relax_body_kind,
    result_expressions,
)
from relay_xdsl.dialects.relay.inference import infer_type
from relay_xdsl.dialects.relay.names import relay_name
from relay_xdsl.exporters import relay_adts, relay_lang
from relay_xdsl.exporters.print_order import Step, schedule
from relay_xdsl.relay_text.metadata import decode_metadata, encode_metadata
from relay_xdsl.relay_text.types import RelayExportError, relay_type
from relay_xdsl.support.depth import nesting_checked

VERSION_HEADER = '#[version = "0.0.5"]'
MAX_INDENT_LEVELS = 32
"""Nested function literals deeper than this print at this indentation, so
that deep nesting does not make the text quadratic in size."""
_FUNC_OWN_ATTRIBUTES = {
    "sym_name",
    "function_type",
    "sym_visibility",
    "arg_attrs",
    "res_attrs",
}


def print_relay(module: ModuleOp, *, header: bool = True) -> str:
    """Print `module` as Relay text.

    Nesting prints on the caller's stack; a module nested deeper than it
    has room for is a `NestingTooDeepError` that says how to opt in to
    ``run_deep``, within which function literals nested up to `MAX_NESTING`
    deep print. Indentation stops growing after `MAX_INDENT_LEVELS` levels.
    To write a module with large constants to a file, `relay_chunks` avoids
    holding the whole text in memory.
    """
    return "".join(relay_chunks(module, header=header))


def relay_chunks(module: ModuleOp, *, header: bool = True) -> Iterator[str]:
    """`module` as Relay text in pieces: the program, then the ``#[metadata]``
    section one base64 array at a time, each built only when it is asked for.

    Every error (``RelayExportError``) is raised by this call, before the
    first piece, so a caller writing the pieces never leaves half a file.
    """
    printer = _RelayPrinter()
    program = nesting_checked(printer.program_text, module, header, what="the module")
    printer.check_metadata()
    return itertools.chain([program], printer.metadata_chunks())


def attribute_value(attr: Attribute) -> str:
    """An attribute value in Relay syntax."""
    if isinstance(attr, IntegerAttr):
        return _integer(attr.value.data, attr.type)
    if isinstance(attr, FloatAttr):
        return _float(attr.value.data, attr.type)
    if isinstance(attr, StringAttr):
        if '"' in attr.data:
            # Relay strings have no escapes: a quote would end the string.
            raise RelayExportError(
                f"string {attr.data!r} contains '\"', which Relay text cannot hold"
            )
        return '"' + attr.data + '"'
    if isinstance(attr, DenseArrayBase):
        element = attr.elt_type
        if isinstance(element, IntegerType):
            return "[" + ", ".join(_integer(v, element) for v in attr.get_values()) + "]"
        return "[" + ", ".join(_float(v, element) for v in attr.get_values()) + "]"
    if isinstance(attr, ArrayAttr):
        return "[" + ", ".join(attribute_value(a) for a in attr.data) + "]"
    if isinstance(attr, UnitAttr):
        return "None"
    if isinstance(attr, relay.MetaRefAttr):
        return f"meta[{attr.kind.data}][{attr.index.data}]"
    raise RelayExportError(f"attribute value {attr} has no Relay equivalent")


def _integer(value: int, type_: Attribute) -> str:
    assert isinstance(type_, IntegerType)
    width = type_.width.data
    if width == 1:
        return "True" if value else "False"
    if width not in (8, 16, 32, 64):
        raise RelayExportError(f"integer type {type_} has no Relay literal")
    return str(value) if width == 32 else f"{value}i{width}"


def _call_text(op: relay.OperatorOp) -> tuple[str, str]:
    """The operator name of a call and its attributes as Relay keyword
    arguments: those that differ from TVM's defaults, and the required ones
    not given as ``None``, in the schema's order."""
    if isinstance(op, relay.GenericOperatorOp):
        attributes = op.relay_attributes()
    else:
        attributes = op.non_default_attributes()
        attributes += [
            (a.name, UnitAttr())
            for a in op.schema.values()
            if a.required and a.name not in op.attributes
        ]
        order = {name: i for i, name in enumerate(op.schema)}
        attributes.sort(key=lambda item: order[item[0]])
    if isinstance(op, relay.RegisteredOperatorOp):
        _check_inferable(op, attributes)
    parts = [f"{_checked(k, 'attribute name')}={attribute_value(v)}" for k, v in attributes]
    return _checked(op.operator_name, "operator name", dotted=True), ", ".join(parts)


def _check_inferable(
    op: relay.RegisteredOperatorOp, attributes: list[tuple[str, Attribute]]
) -> None:
    """Refuse to print a call whose type its arguments and attributes contradict.

    The dialect's verifier does not infer types, so valid IR may claim a
    result type that TVM's type rules (which the importer applies to every
    ``ty=`` annotation) reject; the printout would not import back.
    """
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


_DOTTED_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_/]*(\.[A-Za-z_][A-Za-z0-9_/]*)*")
_RESERVED = {
    "fn",
    "def",
    "let",
    "free_var",
    "meta",
    "Tensor",
    "True",
    "False",
    "None",
    "if",
    "else",
    "match",
    "ref",
    "type",
    "extern",
}


def _checked(name: str, what: str, dotted: bool = False) -> str:
    """`name` if Relay text can spell it as a `what`, else a `RelayExportError`."""
    pattern = _DOTTED_IDENTIFIER if dotted else _RELAY_IDENTIFIER
    # Only an operator name stands where a keyword would change the meaning.
    if not pattern.fullmatch(name) or (dotted and name.split(".")[0] in _RESERVED):
        raise RelayExportError(f"{what} {name!r} is not a Relay identifier")
    return name


def _float(value: float, type_: Attribute) -> str:
    if math.isnan(value):
        raise RelayExportError("NaN has no Relay literal")
    if value in (float("inf"), float("-inf")):
        text = "inf" if value > 0 else "-inf"
    else:
        text = _shortest_repr(value, str(type_))
    suffix = {"f32": "f", "f64": "f64", "f16": "f16"}.get(str(type_), None)
    if suffix is None:
        raise RelayExportError(f"float type {type_} has no Relay literal")
    return text + suffix


def _shortest_repr(value: float, type_name: str) -> str:
    """The shortest decimal that reads back as the same value of `type_name`."""
    packing = {"f32": "<f", "f16": "<e"}.get(type_name)
    text = repr(value)
    if packing is not None:
        stored = struct.pack(packing, value)
        for digits in range(1, 18):
            candidate = float(f"{value:.{digits}g}")
            if struct.pack(packing, candidate) == stored:
                text = repr(candidate)
                break
    return text.removesuffix(".0")


_SCALAR_FORMATS = {
    "float32": "<f",
    "float64": "<d",
    "float16": "<e",
    "int16": "<h",  # TVM's printer writes int16, int32 and int64 scalars inline
    "int32": "<i",
    "int64": "<q",
    "bool": "<?",
}


def _scalar_literal(value: DenseIntOrFPElementsAttr) -> str | None:
    """The literal TVM prints for a rank-0 constant of a printable dtype."""
    type_ = value.type
    if type_.get_shape():
        return None
    dtype = dtypes.dtype_name(type_.element_type)
    fmt = _SCALAR_FORMATS.get(dtype)
    if fmt is None:
        return None
    (scalar,) = struct.unpack(fmt, value.data.data)
    if dtype == "bool":
        return "True" if scalar else "False"
    if dtype.startswith("int"):
        return _integer(scalar, type_.element_type)
    return _float(scalar, type_.element_type)


class _RelayPrinter:
    def __init__(self) -> None:
        self.meta_values: dict[DenseIntOrFPElementsAttr, int] = {}
        self.opaque_meta = False
        # A metadata section kept verbatim (relay_lang.kept_metadata).
        self.kept_metadata: str | None = None
        # TVM's parser keeps one table of %N temps for the whole text, so
        # temps are numbered across functions, never restarted.
        self.next_temp = 0
        # An operator call's name and attributes in Relay text, by what decides
        # them: a graph repeats the same calls thousands of times.
        self.call_texts: dict[tuple[object, ...], tuple[str, str]] = {}

    def program_text(self, module: ModuleOp, header: bool) -> str:
        """The module's functions; records the constants the metadata holds."""
        parts = [VERSION_HEADER + "\n"] if header else []
        self.kept_metadata = relay_lang.kept_metadata(module)
        if self.kept_metadata is not None:
            # Constants keep their indices in the kept section.
            for value in decode_metadata(self.kept_metadata):
                self.meta_values.setdefault(value, len(self.meta_values))
        for op in module.ops:
            if isinstance(op, relay.TypeDefOp):
                parts.append(relay_adts.type_def_text(op) + "\n")
                continue
            if not isinstance(op, FuncOp):
                raise RelayExportError(f"'{op.name}' at module level has no Relay equivalent")
            if relay.EXPRESSION in op.attributes:
                parts.append(_FunctionPrinter(self).expression_text(op))
            else:
                parts.append(_FunctionPrinter(self).function(op))
            parts.append("\n")
        return "".join(parts)

    def check_metadata(self) -> None:
        if self.kept_metadata is not None:
            relay_lang.check_kept_metadata(self.kept_metadata, list(self.meta_values))
            return
        if self.meta_values and self.opaque_meta:
            raise RelayExportError(
                "the module mixes constants with known values and opaque meta[...] "
                "references, so no consistent #[metadata] section can be written"
            )

    def metadata_chunks(self) -> Iterator[str]:
        if self.kept_metadata is not None:
            yield f"#[metadata]\n{self.kept_metadata}\n"
        elif self.meta_values:
            yield "#[metadata]\n"
            yield from encode_metadata(self.meta_values)
            yield "\n"

    def constant(self, op: relay.ConstantOp) -> str:
        if op.meta_index is not None:
            self.opaque_meta = True
            return f"meta[relay.Constant][{op.meta_index.value.data}]"
        value = op.value
        if not isinstance(value, DenseIntOrFPElementsAttr):
            raise RelayExportError(
                f"constant value {type(value).__name__} is not supported in Relay text"
            )
        literal = _scalar_literal(value)
        if literal is not None:
            return literal
        index = self.meta_values.setdefault(value, len(self.meta_values))
        return f"meta[relay.Constant][{index}]"


class _FunctionPrinter:
    """Prints one global function."""

    def __init__(self, module_printer: _RelayPrinter):
        self.module_printer = module_printer
        self.names: dict[SSAValue, str] = {}
        self.used_names: set[str] = set()
        # The relay.fn ops that call a literal printed for another (_shared_literals).
        self.shared_literals: dict[relay.FnOp, Region] = {}
        # The temp each printed function literal is bound to, by its body.
        self.literal_names: dict[Region, str] = {}

    def function(self, func: FuncOp) -> str:
        lines: list[str] = []
        if len(func.body.blocks) != 1:
            # The relay region ops verify that they have one block; func.func does not.
            raise RelayExportError(
                f"@{func.sym_name.data} has {len(func.body.blocks)} blocks; "
                "a Relay function body is one block"
            )
        params = self.params(func.body.block.args, func.arg_attrs)
        attributes = _function_attributes(
            {
                k: v
                for k, v in func.attributes.items()
                if k not in _FUNC_OWN_ATTRIBUTES and k != relay.TYPE_PARAMS
            }
        )
        outputs = func.function_type.outputs.data
        if len(outputs) != 1:
            raise RelayExportError(f"@{func.sym_name.data} must return exactly one value")
        name = _checked(func.sym_name.data, "function name")
        generics = relay_lang.type_params(func.attributes.get(relay.TYPE_PARAMS))
        output = relay_lang.return_annotation(outputs[0])
        header = f"def @{name}{generics}({', '.join(params + attributes)}){output} {{"
        lines.append(header)
        self.block(func.body.block, lines, "  ")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def expression_text(self, func: FuncOp) -> str:
        """A function read from a bare expression whose types were left
        unchecked (``relay.expression``), as that expression: its parameters
        as ``free_var`` declarations, then its body, as TVM prints an
        expression."""
        lines: list[str] = []
        for arg in func.body.block.args:
            name = self.fresh_name(arg)
            lines.append(f"free_var {name}{relay_lang.annotation(arg.type)};")
        self.block(func.body.block, lines, "")
        return "\n".join(lines) + "\n"

    def params(
        self, args: tuple[BlockArgument, ...], arg_attrs: Attribute | None = None
    ) -> list[str]:
        params = []
        attributes = relay_lang.param_attribute_texts(arg_attrs, len(args), attribute_value)
        for arg, extra in zip(args, attributes):
            params.append(self.declaration(arg, extra))
        return params

    def declaration(self, value: SSAValue, extra: str = "") -> str:
        """A variable where it is declared, as TVM writes it: ``%x: T /* ty=T */``
        (`extra` between name and type), the comment also giving its span."""
        name = self.fresh_name(value)
        type_ = value.type
        return f"{name}{extra}{relay_lang.annotation(type_)}{_variable_comment(value)}"

    def fresh_name(self, value: SSAValue) -> str:
        """A unique Relay name for a parameter or let-bound value."""
        base = _relay_identifier(relay_name(value) or "x")
        # TVM's printer makes names unique by appending a counter.
        name, suffix = base, 1
        while name in self.used_names:
            name = f"{base}{suffix}"
            suffix += 1
        self.used_names.add(name)
        self.names[value] = "%" + name
        return "%" + name

    def attribute_list(self, attributes: dict[str, Attribute]) -> list[str]:
        """A function's Relay attributes as ``key=value``, in TVM's order."""
        return _function_attributes(attributes)

    def call_arguments(self, op: Operation, args: Sequence[SSAValue]) -> str:
        """``%a, %b, k=v, attrs_type_key="..."``: a call's arguments and its
        ``relay.call_attrs``, whose type key TVM prints last."""
        parts = [self.ref(a) for a in args]
        attrs = op.attributes.get(relay.CALL_ATTRS)
        if isinstance(attrs, DictionaryAttr):
            items = [(k, v) for k, v in attrs.data.items() if k != "attrs_type_key"]
            items.append(("attrs_type_key", attrs.data["attrs_type_key"]))
            parts += [f"{_checked(k, 'attribute name')}={attribute_value(v)}" for k, v in items]
        return ", ".join(parts)

    def temp(self) -> str:
        name = f"%{self.module_printer.next_temp}"
        self.module_printer.next_temp += 1
        return name

    def block(self, block: Block, lines: list[str], indent: str) -> None:
        """Print the bindings of `block` in TVM's order (print_order.py), then its result."""
        terminator = block.last_op
        if not isinstance(terminator, FuncReturnOp | relay.ReturnOp | relay.MatchYieldOp):
            raise RelayExportError("a function body must end with a return")
        results = terminator.operands
        if len(results) != 1:
            raise RelayExportError("a Relay function returns exactly one value")
        result = results[0]
        kind = relax_body_kind(block)
        returned = result_expressions(block) if kind == "dataflow" else set()

        def bound(op: Operation) -> bool:
            """Whether `op` is bound to a Relax variable of its own (see bindings.py)."""
            return kind is not None and implicitly_bound(op, kind, returned)

        self.shared_literals.update(_shared_literals(block))

        def literal_key(op: relay.FnOp) -> Region:
            return self.shared_literals.get(op, op.body)

        expressions: dict[int, str] = {}  # by id(op): hashing an op calls Python code
        literals: dict[Region, tuple[str, list[str]]] = {}
        for step, op in schedule(block, result, bound, literal_key):
            if step is Step.VISIT:
                assert op is not None
                if isinstance(op, relay.ConstantOp):
                    self.names[op.result] = self.module_printer.constant(op) + _type_comment(op)
                elif isinstance(op, relay.GlobalOp):
                    # An atom, printed where it is used.
                    callee = _checked(op.callee.root_reference.data, "function name")
                    self.names[op.result] = "@" + callee
                elif isinstance(op, relay.OperatorRefOp):
                    # An atom, printed where it is used.
                    self.names[op.result] = _checked(op.op_name.data, "operator name", dotted=True)
                elif isinstance(op, relay.ConstructorRefOp):
                    self.names[op.result] = op.constructor.data  # an atom, like @f
                else:
                    expressions[id(op)] = self.expression(op, lines, indent)
            elif step is Step.BIND:
                assert op is not None
                name = self.temp()
                self.names[op.results[0]] = name
                lines.append(f"{indent}{name} = {expressions.pop(id(op))};")
            elif step is Step.BIND_VARIABLE:
                assert op is not None
                self.let(op.results[0], expressions.pop(id(op)), lines, indent)
            elif step is Step.STATEMENT:
                assert isinstance(op, relay.LetOp)
                source = let_expression(op)
                relay_lang.prebind_let(self, op, source)
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
                name = self.temp()
                self.literal_names[key] = name
                lines.append(f"{indent}{name} = {head}")
                lines.extend(body)
                lines.append(f"{indent}}}{_literal_comment(op)};")
            elif op is not None:
                lines.append(indent + expressions.pop(id(op)))
            else:
                lines.append(indent + self.ref(result))

    def let(self, value: SSAValue, expression: str, lines: list[str], indent: str) -> None:
        bound = self.names.get(value) or self.fresh_name(value)
        lines.append(f"{indent}let {bound}{_let_annotation(value.type)} = {expression};")

    def ref(self, value: SSAValue) -> str:
        name = self.names.get(value)
        if name is None:
            raise RelayExportError("a value is used outside the scope that defines it")
        return name

    def expression(self, op: Operation, lines: list[str], indent: str) -> str:
        comment = _type_comment(op)
        if isinstance(op, relay.ConstantOp):
            return self.module_printer.constant(op) + comment
        if isinstance(op, relay.OperatorOp):
            arguments = ", ".join([self.ref(a) for a in op.args])
            # By identity: the module keeps these attributes alive while it prints,
            # and hashing them by value walks their whole structure every time.
            key = (
                type(op),
                tuple(op.attributes),
                *map(id, op.attributes.values()),
                *(id(a.type) for a in op.args),
                id(op.result.type),
            )
            call_texts = self.module_printer.call_texts
            call = call_texts.get(key)
            if call is None:
                call = call_texts[key] = _call_text(op)
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
            callee = _checked(op.callee.string_value(), "function name")
            return f"@{callee}({self.call_arguments(op, op.arguments)}){comment}"
        if isinstance(op, relay.FnOp):
            callee = self.literal_names[self.shared_literals.get(op, op.body)]
            return f"{callee}({self.call_arguments(op, op.args)}){comment}"
        text = relay_lang.expression(self, op, indent, comment)
        if text is None:
            text = relay_adts.expression(self, op, indent, comment)
        if text is None:
            raise RelayExportError(f"'{op.name}' has no Relay equivalent")
        return text

    def fn_literal(self, op: relay.FnOp, indent: str) -> tuple[str, list[str]]:
        """The function literal of `op`: its head line and its body's lines."""
        params = self.params(op.body.block.args, op.attributes.get(relay.ARG_ATTRS))
        attributes = _function_attributes(
            {
                k: v
                for k, v in op.relay_attributes().items()
                if k not in (relay.TYPE_PARAMS, relay.ARG_ATTRS)
            }
        )
        body: list[str] = []
        inner = indent + "  " if len(indent) < 2 * MAX_INDENT_LEVELS else indent
        self.block(op.body.block, body, inner)
        generics = relay_lang.type_params(op.attributes.get(relay.TYPE_PARAMS))
        output = relay_lang.return_annotation(op.result.type)
        head = f"fn {generics}({', '.join(params + attributes)}){output} {{"
        return head, body


_RELAY_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_/]*")


def _relay_identifier(name: str) -> str:
    """`name` made a valid Relay identifier (MLIR names may hold ``-`` or start with a digit)."""
    if _RELAY_IDENTIFIER.fullmatch(name):
        return name
    name = re.sub(r"[^A-Za-z0-9_/]", "_", name)
    return name if _RELAY_IDENTIFIER.fullmatch(name) else "v" + name


def _shared_literals(block: Block) -> dict[relay.FnOp, Region]:
    """The ``relay.fn`` ops of `block` that call one literal: each mapped to the
    body of the first of them (see `relay.FnOp.literal`).

    Ops marked as one literal share it only while their functions are still
    the same; one a pass has changed prints a literal of its own.
    """
    marked: dict[int, list[relay.FnOp]] = {}
    for op in block.ops:
        if isinstance(op, relay.FnOp) and (literal := op.literal) is not None:
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


_FUNCTION_ATTRIBUTE_ORDER = (
    "Inline",
    "PartitionedFromPattern",
    "Composite",
    "Primitive",
    "Compiler",
    "global_symbol",
)
"""The order of these function attributes in TVM's printouts (its maps keep
insertion order: a text's ``Inline`` comes before the ``Primitive``,
``Compiler`` and ``global_symbol`` passes add). MLIR tools sort attribute
dictionaries, so the printer restores TVM's order; other attributes follow
in their stored order."""


def _function_attributes(attributes: dict[str, Attribute]) -> list[str]:
    rank = {name: index for index, name in enumerate(_FUNCTION_ATTRIBUTE_ORDER)}
    ordered = sorted(attributes.items(), key=lambda item: rank.get(item[0], len(rank)))
    return [
        f"{_checked(key, 'attribute name', dotted=True)}={attribute_value(value)}"
        for key, value in ordered
    ]


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
    parts = []
    if (
        op.results
        and not isinstance(op.results[0].type, relay.IncompleteType)
        and not (
            isinstance(op, relay.TupleOp | relay.TupleGetItemOp)
            and _tuple_depth(op.results[0].type) > MAX_COMMENT_TUPLE_DEPTH
        )
    ):
        parts.append("ty=" + relay_type(op.results[0].type))
    span = _span(op.location)
    if span:
        parts.append(span)
    return f" /* {' '.join(parts)} */" if parts else ""


def _variable_comment(value: SSAValue) -> str:
    """`` /* ty=T */`` after a declared variable, as TVM follows each variable
    whose type it checked with that type, annotated or not; with its span."""
    parts = []
    if not isinstance(value.type, relay.IncompleteType):
        parts.append("ty=" + relay_type(value.type))
    span = _span(value.location) if isinstance(value, BlockArgument) else ""
    if span:
        parts.append(span)
    return f" /* {' '.join(parts)} */" if parts else ""


def _literal_comment(op: relay.FnOp) -> str:
    """`` /* ty=fn (T) -> R */`` after the ``}`` of a function literal:
    TVM gives a literal its function type (see `relay_lang.function_type_comment`)."""
    types = [a.type for a in op.body.block.args]
    return relay_lang.function_type_comment(
        op.attributes.get(relay.TYPE_PARAMS), types, op.result.type
    )


def _tuple_depth(type_: Attribute) -> int:
    """How deep tuple types nest in `type_`, counting at most past the limit."""
    depth = 0
    level = [type_]
    while level and depth <= MAX_COMMENT_TUPLE_DEPTH:
        level = [f for t in level if isinstance(t, TupleType) for f in t.types.data]
        depth += 1
    return depth - 1 if not level else depth


def _span(location: Attribute) -> str:
    if isinstance(location, NameLoc):
        # A Relay name recorded as a location (see names.py) wraps the span.
        return _span(location.location)
    if isinstance(location, FileLineColLoc):
        name = location.filename.data
        if not name or any(c.isspace() for c in name) or "/*" in name or "*/" in name:
            return ""  # a span comment could not hold it; spans are only presentation
        return f"span={name}:{location.line.data}:{location.column.data}"
    return ""
