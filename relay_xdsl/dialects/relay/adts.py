"""Algebraic data types: ``type`` definitions, constructors and ``match``.

* ``relay.type_def``: a module-level ``type List[A] { Cons(A, List[A]), Nil }``
  or ``extern type Storage``; its constructors are ``#relay.constructor``
  attributes;
* ``relay.construct``: a constructor applied to its fields, ``Cons(%x, %xs)``
  (a constructor without fields is applied to none: ``Nil``);
* ``relay.constructor``: a constructor with fields as a function value
  (``@foldr(Cons, %ys, %xs)``);
* ``relay.match`` and ``relay.match_yield``: ``match (e) { p => e, ... }`` and
  ``match? (...)``, one region per clause; the clause's pattern is a
  ``#relay.pattern_*`` attribute tree, and the region's block arguments are
  the pattern's variables, in the order they appear in the pattern.

Types may be incomplete (``!relay.incomplete``, anywhere inside a type): the
verifiers then check what is known, and a value whose type is less known
than expected (``Nil`` as a ``List[?]`` where a ``List[int32]`` is needed)
is accepted. Type inference fills the unknown parts in.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from typing import cast

from xdsl.dialects.builtin import ArrayAttr, FunctionType, ModuleOp, StringAttr, TupleType, UnitAttr
from xdsl.ir import (
    Attribute,
    Block,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    attr_def,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    param_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure, ReturnLike
from xdsl.utils.exceptions import VerifyException

from relay_xdsl.dialects.relay.closures import compatible
from relay_xdsl.dialects.relay.syntax import parse_call_operands, parse_extra_attributes
from relay_xdsl.dialects.relay.types import AdtType, IncompleteType, RefType, TypeVarType

# -- attributes -------------------------------------------------------------


@irdl_attr_definition
class ConstructorAttr(ParametrizedAttribute):
    """One constructor of a type definition: its name and field types.

    Syntax: ``#relay.constructor<"Cons", [!relay.type_var<"A">, ...]>``
    """

    name = "relay.constructor"

    ctor_name: StringAttr = param_def(converter=StringAttr.get)
    fields: ArrayAttr[Attribute] = param_def(converter=ArrayAttr[Attribute].get)

    def __init__(self, ctor_name: str | StringAttr, fields: Sequence[Attribute] = ()):
        super().__init__(ctor_name, tuple(fields))


@irdl_attr_definition
class PatternWildcardAttr(ParametrizedAttribute):
    """The pattern ``_``: matches anything, binds nothing.

    Syntax: ``#relay.pattern_wildcard``
    """

    name = "relay.pattern_wildcard"


@irdl_attr_definition
class PatternVarAttr(ParametrizedAttribute):
    """The pattern ``%x``: matches anything and binds it to the clause's
    next block argument.

    Syntax: ``#relay.pattern_var``
    """

    name = "relay.pattern_var"


@irdl_attr_definition
class PatternConstructorAttr(ParametrizedAttribute):
    """The pattern ``Cons(p1, p2)``: a value built by the constructor, whose
    fields match the sub-patterns.

    Syntax: ``#relay.pattern_constructor<"Cons", [#relay.pattern_var, #relay.pattern_wildcard]>``
    """

    name = "relay.pattern_constructor"

    constructor: StringAttr = param_def(converter=StringAttr.get)
    fields: ArrayAttr[Attribute] = param_def(converter=ArrayAttr[Attribute].get)

    def __init__(self, constructor: str | StringAttr, fields: Sequence[Attribute] = ()):
        super().__init__(constructor, tuple(fields))


@irdl_attr_definition
class PatternTupleAttr(ParametrizedAttribute):
    """The pattern ``(p1, p2)``: a tuple whose fields match the sub-patterns.

    Syntax: ``#relay.pattern_tuple<[#relay.pattern_var, #relay.pattern_var]>``
    """

    name = "relay.pattern_tuple"

    fields: ArrayAttr[Attribute] = param_def(converter=ArrayAttr[Attribute].get)

    def __init__(self, fields: Sequence[Attribute] = ()):
        super().__init__(tuple(fields))


PATTERN_ATTRS = (PatternWildcardAttr, PatternVarAttr, PatternConstructorAttr, PatternTupleAttr)
ADT_ATTRS = (ConstructorAttr, *PATTERN_ATTRS)
"""The attributes of this module, for the Dialect."""


# -- types with unknown parts -------------------------------------------------


def substitute(type_: Attribute, mapping: Mapping[str, Attribute]) -> Attribute:
    """`type_` with each ``!relay.type_var<"A">`` that `mapping` names replaced."""
    if not mapping:
        return type_
    if isinstance(type_, TypeVarType):
        return mapping.get(type_.var_name.data, type_)
    if isinstance(type_, TupleType):
        return TupleType(ArrayAttr(_types(substitute(t, mapping) for t in type_.types.data)))
    if isinstance(type_, AdtType):
        return AdtType(type_.type_name, [substitute(t, mapping) for t in type_.args.data])
    if isinstance(type_, FunctionType):
        return FunctionType.from_lists(
            [substitute(t, mapping) for t in type_.inputs.data],
            [substitute(t, mapping) for t in type_.outputs.data],
        )
    if isinstance(type_, RefType):
        return RefType(substitute(type_.value_type, mapping))
    return type_


def _types(types: Iterable[Attribute]) -> tuple[TypeAttribute, ...]:
    """Tuple fields: types built from types are types."""
    return tuple(cast(TypeAttribute, t) for t in types)


def _children(type_: Attribute) -> tuple[Attribute, ...] | None:
    """The component types of a type constructor, or None for a leaf type."""
    if isinstance(type_, TupleType):
        return type_.types.data
    if isinstance(type_, AdtType):
        return type_.args.data
    if isinstance(type_, FunctionType):
        return (*type_.inputs.data, *type_.outputs.data)
    if isinstance(type_, RefType):
        return (type_.value_type,)
    return None


def _same_head(a: Attribute, b: Attribute) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, AdtType) and isinstance(b, AdtType):
        return a.type_name == b.type_name and len(a.args) == len(b.args)
    if isinstance(a, FunctionType) and isinstance(b, FunctionType):
        return len(a.inputs) == len(b.inputs) and len(a.outputs) == len(b.outputs)
    if isinstance(a, TupleType) and isinstance(b, TupleType):
        return len(a.types) == len(b.types)
    return isinstance(a, RefType)


def agrees(a: Attribute, b: Attribute) -> bool:
    """Whether `a` and `b` are equal where both are known: ``!relay.incomplete``
    stands for any type, a type parameter only for itself (unlike `compatible`)."""
    if a == b or isinstance(a, IncompleteType) or isinstance(b, IncompleteType):
        return True
    a_children, b_children = _children(a), _children(b)
    if a_children is None or b_children is None or not _same_head(a, b):
        return False
    return all(agrees(x, y) for x, y in zip(a_children, b_children))


def join(a: Attribute, b: Attribute) -> Attribute:
    """The type that knows what either of two compatible types knows."""
    if isinstance(a, IncompleteType):
        return b
    if isinstance(b, IncompleteType) or a == b:
        return a
    if isinstance(a, TupleType) and isinstance(b, TupleType):
        return TupleType(ArrayAttr(_types(join(x, y) for x, y in zip(a.types.data, b.types.data))))
    if isinstance(a, AdtType) and isinstance(b, AdtType):
        return AdtType(a.type_name, [join(x, y) for x, y in zip(a.args.data, b.args.data)])
    if isinstance(a, FunctionType) and isinstance(b, FunctionType):
        return FunctionType.from_lists(
            [join(x, y) for x, y in zip(a.inputs.data, b.inputs.data)],
            [join(x, y) for x, y in zip(a.outputs.data, b.outputs.data)],
        )
    if isinstance(a, RefType) and isinstance(b, RefType):
        return RefType(join(a.value_type, b.value_type))
    return a


def instantiate(
    declared: FunctionType, actual_inputs: Sequence[Attribute], rigid: Collection[str]
) -> list[Attribute]:
    """The result types of a call of a generic function of type `declared`
    with arguments of types `actual_inputs`, by unification.

    The function's type parameters are unknowns, and so are the type
    parameters in the arguments' types that are not in scope at the call (not
    in `rigid`): those of a generic function passed as a value (``@map(@id,
    %l)``). A type parameter of the function that nothing determines is
    ``!relay.incomplete`` in the result.
    """
    callee_vars: set[str] = set()
    for type_ in (*declared.inputs.data, *declared.outputs.data):
        _collect_type_vars(type_, callee_vars)
    # The callee's parameters get names no Relay text can spell, so that they
    # differ from the caller's even when spelt alike.
    renaming = {name: TypeVarType(name + "'") for name in callee_vars}
    bound: dict[str, Attribute] = {}

    def is_unknown(type_: Attribute) -> bool:
        return isinstance(type_, TypeVarType) and (
            type_.var_name.data.endswith("'") or type_.var_name.data not in rigid
        )

    def resolve(type_: Attribute) -> Attribute:
        while isinstance(type_, TypeVarType) and type_.var_name.data in bound:
            type_ = bound[type_.var_name.data]
        return type_

    def applied(type_: Attribute) -> Attribute:
        for _ in range(len(bound) + 1):
            next_type = substitute(type_, bound)
            if next_type == type_:
                break
            type_ = next_type
        return type_

    def unify(expected: Attribute, actual: Attribute) -> None:
        expected, actual = resolve(expected), resolve(actual)
        if expected == actual:
            return
        for unknown, other in ((expected, actual), (actual, expected)):
            if is_unknown(unknown):
                assert isinstance(unknown, TypeVarType)
                names: set[str] = set()
                _collect_type_vars(applied(other), names)
                if unknown.var_name.data not in names:
                    bound[unknown.var_name.data] = other
                return
        expected_children, actual_children = _children(expected), _children(actual)
        if expected_children is None or actual_children is None:
            return
        if _same_head(expected, actual):
            for e, a in zip(expected_children, actual_children):
                unify(e, a)

    for type_, actual in zip(declared.inputs.data, actual_inputs):
        unify(substitute(type_, renaming), actual)
    outputs = [applied(substitute(t, renaming)) for t in declared.outputs.data]
    unknown = {name + "'": IncompleteType() for name in callee_vars}
    return [substitute(t, unknown) for t in outputs]


def _collect_type_vars(type_: Attribute, names: set[str]) -> None:
    if isinstance(type_, TypeVarType):
        names.add(type_.var_name.data)
    for child in _children(type_) or ():
        _collect_type_vars(child, names)


def is_complete(type_: Attribute) -> bool:
    """Whether no part of `type_` is ``!relay.incomplete``."""
    if isinstance(type_, IncompleteType):
        return False
    children = _children(type_)
    return children is None or all(is_complete(t) for t in children)


def bind_type_vars(
    declared: Attribute, actual: Attribute, params: frozenset[str], bound: dict[str, Attribute]
) -> bool:
    """Match `declared` (with type parameters `params`) against `actual`,
    recording in `bound` what each parameter stands for; False on a clash."""
    if isinstance(declared, TypeVarType) and declared.var_name.data in params:
        name = declared.var_name.data
        previous = bound.get(name)
        if previous is None:
            bound[name] = actual
            return True
        if not compatible(previous, actual):
            return False
        bound[name] = join(previous, actual)
        return True
    if isinstance(actual, IncompleteType):
        return True
    declared_children, actual_children = _children(declared), _children(actual)
    if declared_children is None or actual_children is None:
        return declared == actual or isinstance(declared, IncompleteType)
    if not _same_head(declared, actual):
        return False
    return all(
        bind_type_vars(d, a, params, bound) for d, a in zip(declared_children, actual_children)
    )


# -- looking up definitions -----------------------------------------------------


def _module_of(op: Operation) -> ModuleOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    return parent


def type_defs(module: ModuleOp) -> Iterator[TypeDefOp]:
    """The type definitions of `module`."""
    for op in module.ops:
        if isinstance(op, TypeDefOp):
            yield op


def lookup_constructor(op: Operation, name: str) -> tuple[TypeDefOp, ConstructorAttr] | None:
    """The type definition, in `op`'s module, that has constructor `name`."""
    module = _module_of(op)
    if module is None:
        return None
    for type_def in type_defs(module):
        constructor = type_def.constructor(name)
        if constructor is not None:
            return type_def, constructor
    return None


def constructor_field_types(
    type_def: TypeDefOp, constructor: ConstructorAttr, adt: Attribute
) -> list[Attribute]:
    """The field types of `constructor` in a value of type `adt` (``List[T]``
    gives ``Cons`` the fields ``T, List[T]``); unknown where `adt` is."""
    params = type_def.param_names()
    if isinstance(adt, AdtType) and len(adt.args) == len(params):
        mapping = dict(zip(params, adt.args.data))
    else:
        mapping = {name: IncompleteType() for name in params}
    return [substitute(t, mapping) for t in constructor.fields.data]


# -- ops ------------------------------------------------------------------------


@irdl_op_definition
class TypeDefOp(IRDLOperation):
    """A Relay type definition (``type List[A] { Cons(A, List[A]), Nil }``),
    or with ``extern`` an external type without constructors
    (``extern type Storage``).

    ``type_params`` names the type parameters, which the constructors'
    field types use as ``!relay.type_var``; the type itself is
    ``!relay.adt<"List", [...]>``.

    Syntax::

        relay.type_def "List" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"List", [!relay.type_var<"A">]>), Nil}
        relay.type_def extern "Storage"
    """

    name = "relay.type_def"
    type_name = attr_def(StringAttr)
    type_params = attr_def(ArrayAttr[StringAttr])
    constructors = attr_def(ArrayAttr[ConstructorAttr])
    extern = opt_attr_def(UnitAttr)

    traits = traits_def(HasParent(ModuleOp))

    def __init__(
        self,
        type_name: str,
        type_params: Sequence[str] = (),
        constructors: Sequence[ConstructorAttr] = (),
        *,
        extern: bool = False,
    ):
        attributes: dict[str, Attribute] = {
            "type_name": StringAttr(type_name),
            "type_params": ArrayAttr(StringAttr(p) for p in type_params),
            "constructors": ArrayAttr(constructors),
        }
        if extern:
            attributes["extern"] = UnitAttr()
        super().__init__(attributes=attributes)

    def param_names(self) -> tuple[str, ...]:
        return tuple(p.data for p in self.type_params.data)

    def constructor(self, name: str) -> ConstructorAttr | None:
        for constructor in self.constructors.data:
            if constructor.ctor_name.data == name:
                return constructor
        return None

    def verify_(self) -> None:
        name = self.type_name.data
        params = self.param_names()
        if len(set(params)) != len(params):
            raise VerifyException(f"type '{name}' repeats a type parameter")
        if self.extern is not None and self.constructors.data:
            raise VerifyException(f"extern type '{name}' may not have constructors")
        names = [c.ctor_name.data for c in self.constructors.data]
        for constructor in self.constructors.data:
            for field in constructor.fields.data:
                unbound = _type_vars(field) - set(params)
                if unbound:
                    raise VerifyException(
                        f"constructor '{constructor.ctor_name.data}' of '{name}' uses "
                        f"type variable '{min(unbound)}', which is not a parameter of '{name}'"
                    )
        module = self.parent_op()
        assert isinstance(module, ModuleOp)  # HasParent
        for other in type_defs(module):
            if other is self:
                continue
            if other.type_name.data == name:
                raise VerifyException(f"type '{name}' is defined twice")
            for constructor in other.constructors.data:
                if constructor.ctor_name.data in names:
                    raise VerifyException(
                        f"constructor '{constructor.ctor_name.data}' is defined by both "
                        f"'{other.type_name.data}' and '{name}'"
                    )
        if len(set(names)) != len(names):
            raise VerifyException(f"type '{name}' repeats a constructor name")

    def print(self, printer: Printer) -> None:
        if self.extern is not None:
            printer.print_string(" extern")
        printer.print_string(" ")
        printer.print_string_literal(self.type_name.data)
        if self.type_params.data:
            printer.print_string(" [")
            printer.print_list(
                self.type_params.data, lambda p: printer.print_string_literal(p.data)
            )
            printer.print_string("]")
        if self.extern is None:
            printer.print_string(" {")
            printer.print_list(self.constructors.data, lambda c: _print_constructor(printer, c))
            printer.print_string("}")
        printer.print_op_attributes(
            {
                k: v
                for k, v in self.attributes.items()
                if k not in ("type_name", "type_params", "constructors", "extern")
            }
        )

    @classmethod
    def parse(cls, parser: Parser) -> TypeDefOp:
        extern = parser.parse_optional_keyword("extern") is not None
        name = parser.parse_str_literal()
        params: list[str] = []
        if parser.parse_optional_punctuation("[") is not None:
            params = [parser.parse_str_literal()]
            while parser.parse_optional_punctuation(",") is not None:
                params.append(parser.parse_str_literal())
            parser.parse_punctuation("]")
        constructors: list[ConstructorAttr] = []
        if not extern:
            constructors = parser.parse_comma_separated_list(
                parser.Delimiter.BRACES, lambda: _parse_constructor(parser)
            )
        op = cls(name, params, constructors, extern=extern)
        op.attributes |= parse_extra_attributes(
            parser, ("type_name", "type_params", "constructors", "extern")
        )
        return op


def _print_constructor(printer: Printer, constructor: ConstructorAttr) -> None:
    printer.print_string(constructor.ctor_name.data)
    if constructor.fields.data:
        printer.print_string("(")
        printer.print_list(constructor.fields.data, printer.print_attribute)
        printer.print_string(")")


def _parse_constructor(parser: Parser) -> ConstructorAttr:
    name = parser.parse_identifier()
    fields: list[Attribute] = []
    if parser.parse_optional_punctuation("(") is not None:
        fields = [parser.parse_type()]
        while parser.parse_optional_punctuation(",") is not None:
            fields.append(parser.parse_type())
        parser.parse_punctuation(")")
    return ConstructorAttr(name, fields)


def _type_vars(type_: Attribute) -> set[str]:
    if isinstance(type_, TypeVarType):
        return {type_.var_name.data}
    children = _children(type_)
    return set() if children is None else {v for t in children for v in _type_vars(t)}


@irdl_op_definition
class ConstructOp(IRDLOperation):
    """A value built by a constructor from its fields: ``Cons(%x, %xs)``, ``Nil``.

    The result is ``!relay.adt`` of the constructor's type definition, with
    the type arguments the fields determine (or that the context gives: a
    ``Nil`` may be a ``List[int32]``).

    Syntax::

        %l = relay.construct "Cons"(%x, %nil) : (tensor<f32>, !relay.adt<"List", [tensor<f32>]>) -> !relay.adt<"List", [tensor<f32>]>
    """

    name = "relay.construct"
    constructor = attr_def(StringAttr)
    fields = var_operand_def()
    result = result_def()

    traits = traits_def(Pure())

    def __init__(self, constructor: str, fields: Sequence[SSAValue | Operation], type_: Attribute):
        super().__init__(
            operands=[fields],
            result_types=[type_],
            attributes={"constructor": StringAttr(constructor)},
        )

    def verify_(self) -> None:
        name = self.constructor.data
        found = lookup_constructor(self, name)
        if found is None:
            raise VerifyException(f"unknown constructor '{name}'")
        type_def, constructor = found
        type_name = type_def.type_name.data
        result = self.result.type
        if not isinstance(result, AdtType) or result.type_name.data != type_name:
            raise VerifyException(
                f"constructor '{name}' builds a '{type_name}', but the result type is {result}"
            )
        if len(result.args) != len(type_def.type_params):
            raise VerifyException(
                f"'{type_name}' takes {len(type_def.type_params)} type argument(s), "
                f"the result type gives {len(result.args)}"
            )
        expected = constructor_field_types(type_def, constructor, result)
        if len(self.fields) != len(expected):
            raise VerifyException(
                f"constructor '{name}' takes {len(expected)} field(s), got {len(self.fields)}"
            )
        for index, (field, type_) in enumerate(zip(self.fields, expected)):
            if not compatible(field.type, type_):
                raise VerifyException(
                    f"field #{index} of '{name}' has type {field.type}, expected {type_}"
                )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.constructor.data)
        printer.print_string("(")
        printer.print_list(self.fields, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(
            {k: v for k, v in self.attributes.items() if k != "constructor"}
        )
        printer.print_string(" : ")
        printer.print_attribute(
            FunctionType.from_lists([f.type for f in self.fields], [self.result.type])
        )

    @classmethod
    def parse(cls, parser: Parser) -> ConstructOp:
        name = parser.parse_str_literal()
        pos = parser.pos
        operands = parse_call_operands(parser)
        attributes = parse_extra_attributes(parser, ("constructor",))
        parser.parse_punctuation(":")
        signature = parser.parse_function_type()
        if len(signature.outputs.data) != 1:
            parser.raise_error("expected exactly one result type", pos, parser.pos)
        fields = parser.resolve_operands(operands, signature.inputs.data, pos)
        op = cls(name, fields, signature.outputs.data[0])
        op.attributes |= attributes
        return op


@irdl_op_definition
class ConstructorRefOp(IRDLOperation):
    """A constructor with fields used as a function value (``@foldr(Cons, ...)``).

    The type is the constructor's: its field types to its type definition,
    with the type parameters replaced by the same types throughout.

    Syntax::

        %c = relay.constructor "Cons" : (tensor<f32>, !relay.adt<"List", [tensor<f32>]>) -> !relay.adt<"List", [tensor<f32>]>
    """

    name = "relay.constructor"
    constructor = attr_def(StringAttr)
    result = result_def(FunctionType)

    traits = traits_def(Pure())

    assembly_format = "$constructor attr-dict `:` type($result)"

    def __init__(self, constructor: str, type_: FunctionType):
        super().__init__(result_types=[type_], attributes={"constructor": StringAttr(constructor)})

    def verify_(self) -> None:
        name = self.constructor.data
        found = lookup_constructor(self, name)
        if found is None:
            raise VerifyException(f"unknown constructor '{name}'")
        type_def, constructor = found
        params = type_def.param_names()
        declared = constructor_type(type_def, constructor)
        if not bind_type_vars(declared, self.result.type, frozenset(params), {}):
            raise VerifyException(
                f"type {self.result.type} is not an instance of constructor '{name}''s type {declared}"
            )


def constructor_type(type_def: TypeDefOp, constructor: ConstructorAttr) -> FunctionType:
    """The function type of `constructor`, generic in the type definition's parameters."""
    adt = AdtType(type_def.type_name, [TypeVarType(p) for p in type_def.param_names()])
    return FunctionType.from_lists(constructor.fields.data, [adt])


@irdl_op_definition
class MatchOp(IRDLOperation):
    """Relay's ``match (e) { p1 => e1, ... }``; with ``partial``, ``match?``
    (clauses need not cover every value).

    ``patterns`` holds one pattern per clause, and each clause is one region
    whose single block takes the pattern's variables, in the order they
    appear in the pattern, and ends with ``relay.match_yield``. The first
    clause whose pattern matches ``data`` is evaluated. The regions may use
    values from outside; they are not functions.

    Syntax (``case`` and a pattern per clause; a pattern is ``_``, a block argument ``%x : T``, a constructor
    ``Cons(p, ...)`` or a tuple ``(p, ...)``)::

        %r = relay.match partial %xs : !relay.adt<"List", [tensor<f32>]> -> tensor<f32> {
          case Cons(%x : tensor<f32>, _) {
            relay.match_yield %x : tensor<f32>
          }
        }
    """

    name = "relay.match"
    data = operand_def()
    result = result_def()
    patterns = attr_def(ArrayAttr[Attribute])
    partial = opt_attr_def(UnitAttr)
    clauses = var_region_def("single_block")

    def __init__(
        self,
        data: SSAValue | Operation,
        result_type: Attribute,
        clauses: Sequence[tuple[Attribute, Region]],
        *,
        partial: bool = False,
    ):
        attributes: dict[str, Attribute] = {"patterns": ArrayAttr(p for p, _ in clauses)}
        if partial:
            attributes["partial"] = UnitAttr()
        super().__init__(
            operands=[data],
            result_types=[result_type],
            regions=[[r for _, r in clauses]],
            attributes=attributes,
        )

    def verify_(self) -> None:
        patterns = self.patterns.data
        if len(patterns) != len(self.clauses):
            raise VerifyException(
                f"'relay.match' has {len(patterns)} pattern(s) but {len(self.clauses)} clause(s)"
            )
        for index, (pattern, region) in enumerate(zip(patterns, self.clauses)):
            block = region.block
            expected: list[Attribute] = []
            self._pattern_types(pattern, self.data.type, expected, index)
            if len(block.args) != len(expected):
                raise VerifyException(
                    f"clause #{index} binds {len(expected)} variable(s) but its block takes "
                    f"{len(block.args)} argument(s)"
                )
            for arg, type_ in zip(block.args, expected):
                if not compatible(arg.type, type_):
                    raise VerifyException(
                        f"clause #{index}: a pattern variable of type {type_} is bound to a "
                        f"block argument of type {arg.type}"
                    )
            terminator = block.last_op
            if not isinstance(terminator, MatchYieldOp):
                raise VerifyException(f"clause #{index} must end with 'relay.match_yield'")
            if not compatible(terminator.value.type, self.result.type):
                raise VerifyException(
                    f"clause #{index} yields {terminator.value.type}, but the match has "
                    f"type {self.result.type}"
                )

    def _pattern_types(
        self, pattern: Attribute, type_: Attribute, out: list[Attribute], clause: int
    ) -> None:
        """Append the types of `pattern`'s variables when it matches a `type_`."""
        if isinstance(pattern, PatternWildcardAttr):
            return
        if isinstance(pattern, PatternVarAttr):
            out.append(type_)
            return
        if isinstance(pattern, PatternTupleAttr):
            fields = pattern.fields.data
            if isinstance(type_, IncompleteType):
                field_types: Sequence[Attribute] = [IncompleteType()] * len(fields)
            elif isinstance(type_, TupleType) and len(type_.types) == len(fields):
                field_types = type_.types.data
            else:
                raise VerifyException(
                    f"clause #{clause}: a tuple pattern of {len(fields)} field(s) cannot "
                    f"match a value of type {type_}"
                )
            for sub, sub_type in zip(fields, field_types):
                self._pattern_types(sub, sub_type, out, clause)
            return
        if isinstance(pattern, PatternConstructorAttr):
            name = pattern.constructor.data
            found = lookup_constructor(self, name)
            if found is None:
                raise VerifyException(f"clause #{clause}: unknown constructor '{name}'")
            type_def, constructor = found
            if not (
                isinstance(type_, IncompleteType)
                or (isinstance(type_, AdtType) and type_.type_name == type_def.type_name)
            ):
                raise VerifyException(
                    f"clause #{clause}: constructor '{name}' of '{type_def.type_name.data}' "
                    f"cannot match a value of type {type_}"
                )
            field_types = constructor_field_types(type_def, constructor, type_)
            if len(pattern.fields) != len(field_types):
                raise VerifyException(
                    f"clause #{clause}: constructor '{name}' has {len(field_types)} field(s), "
                    f"the pattern gives {len(pattern.fields)}"
                )
            for sub, sub_type in zip(pattern.fields.data, field_types):
                self._pattern_types(sub, sub_type, out, clause)
            return
        raise VerifyException(f"clause #{clause}: {pattern} is not a pattern")

    def print(self, printer: Printer) -> None:
        if self.partial is not None:
            printer.print_string(" partial")
        printer.print_string(" ")
        printer.print_operand(self.data)
        printer.print_op_attributes(
            {k: v for k, v in self.attributes.items() if k not in ("patterns", "partial")}
        )
        printer.print_string(" : ")
        printer.print_attribute(self.data.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
        printer.print_string(" {")
        with printer.indented():
            for pattern, region in zip(self.patterns.data, self.clauses):
                printer.print_string("\ncase ")
                args = iter(region.block.args)
                _print_pattern(printer, pattern, args)
                printer.print_string(" ")
                printer.print_region(region, print_entry_block_args=False)
        printer.print_string("\n")
        printer.print_string("}")

    @classmethod
    def parse(cls, parser: Parser) -> MatchOp:
        partial = parser.parse_optional_keyword("partial") is not None
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        attributes = parse_extra_attributes(parser, ("patterns", "partial"))
        parser.parse_punctuation(":")
        data_type = parser.parse_type()
        (data,) = parser.resolve_operands([operand], [data_type], pos)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        parser.parse_punctuation("{")
        clauses: list[tuple[Attribute, Region]] = []
        while parser.parse_optional_punctuation("}") is None:
            parser.parse_keyword("case")
            args: list[Parser.Argument] = []
            pattern = _parse_pattern(parser, args)
            clauses.append((pattern, parser.parse_region(args)))
        op = cls(data, result_type, clauses, partial=partial)
        op.attributes |= attributes
        return op


def _print_pattern(printer: Printer, pattern: Attribute, args: Iterator[SSAValue]) -> None:
    if isinstance(pattern, PatternWildcardAttr):
        printer.print_string("_")
    elif isinstance(pattern, PatternVarAttr):
        arg = next(args)
        printer.print_ssa_value(arg)
        printer.print_string(" : ")
        printer.print_attribute(arg.type)
    elif isinstance(pattern, PatternConstructorAttr):
        printer.print_string(pattern.constructor.data)
        if pattern.fields.data:
            printer.print_string("(")
            printer.print_list(pattern.fields.data, lambda p: _print_pattern(printer, p, args))
            printer.print_string(")")
    elif isinstance(pattern, PatternTupleAttr):
        printer.print_string("(")
        printer.print_list(pattern.fields.data, lambda p: _print_pattern(printer, p, args))
        printer.print_string(")")
    else:
        printer.print_attribute(pattern)


def _parse_pattern(parser: Parser, args: list[Parser.Argument]) -> Attribute:
    if parser.parse_optional_keyword("_") is not None:
        return PatternWildcardAttr()
    argument = parser.parse_optional_argument(expect_type=True)
    if argument is not None:
        args.append(argument)
        return PatternVarAttr()
    if parser.parse_optional_punctuation("(") is not None:
        fields: list[Attribute] = []
        if parser.parse_optional_punctuation(")") is None:
            fields.append(_parse_pattern(parser, args))
            while parser.parse_optional_punctuation(",") is not None:
                fields.append(_parse_pattern(parser, args))
            parser.parse_punctuation(")")
        return PatternTupleAttr(fields)
    name = parser.parse_identifier(context_msg=" (a pattern: '_', '%x : T', 'C(...)' or '(...)')")
    fields = []
    if parser.parse_optional_punctuation("(") is not None:
        fields.append(_parse_pattern(parser, args))
        while parser.parse_optional_punctuation(",") is not None:
            fields.append(_parse_pattern(parser, args))
        parser.parse_punctuation(")")
    return PatternConstructorAttr(name, fields)


def pattern_variable_count(pattern: Attribute) -> int:
    """How many variables `pattern` binds."""
    if isinstance(pattern, PatternVarAttr):
        return 1
    if isinstance(pattern, PatternConstructorAttr | PatternTupleAttr):
        return sum(pattern_variable_count(p) for p in pattern.fields.data)
    return 0


@irdl_op_definition
class MatchYieldOp(IRDLOperation):
    """Ends a ``relay.match`` clause, yielding the match's result.

    Syntax::

        relay.match_yield %x : tensor<f32>
    """

    name = "relay.match_yield"
    value = operand_def()

    traits = traits_def(IsTerminator(), HasParent(MatchOp), ReturnLike())

    assembly_format = "$value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue | Operation):
        super().__init__(operands=[value])


def make_clause(arg_types: Sequence[Attribute]) -> tuple[Region, Block]:
    """An empty clause region whose block takes the pattern variables' types."""
    block = Block(arg_types=arg_types)
    return Region(block), block


ADT_OPS = (TypeDefOp, ConstructOp, ConstructorRefOp, MatchOp, MatchYieldOp)
"""The ops of this module, for the Dialect."""
