"""The type solver: TVM's ``InferType`` over a module of relay ops.

The importer types every call eagerly, operator by operator, when its
arguments are typed (:func:`~relay_xdsl.dialects.relay.inference.infer_type`).
What that cannot type is ``!relay.incomplete``: an untyped parameter, a
``_`` type, a ``meta[relay.Constant][i]`` without metadata, and whatever
depends on them. :func:`infer_types` then solves the module as TVM's type
solver (``src/relay/analysis/type_solver.cc``) does:

* every value has a *term*: a type, a type variable standing for an unknown
  type, or a tuple of terms;
* each op adds constraints between the terms of its operands and results:
  *unifications* (a ``relay.let`` has its operand's type, a call of a
  global function passes its parameters' types and returns its result
  type, across all functions and call sites of the module) and *relations*
  (an operator call, a tuple projection), which the solver runs whenever
  one of their terms has become more known, until nothing changes;
* an operator's relation runs forwards (its registry row's ``infer``: the
  result from typed arguments) and backwards (its row's ``backward``: the
  argument types the data, the attributes and the result determine, such
  as a convolution weight from ``channels`` and ``kernel_size``, see
  :mod:`~relay_xdsl.dialects.relay.backward`);
* a contradiction (two different types unified, a relation rejecting its
  types) is a :class:`TypeInferenceError` on the op that found it, worded in
  the operator's terms where the relation says why;
* at the end, every value whose type became more known gets it; a type no
  constraint determined stays ``!relay.incomplete`` (TVM leaves it an
  ``IncompleteType`` too).

Like TVM's relations, the solver only refines types; it never changes a
known one. A dynamic dimension ``?`` unifies with any size.

Typing rules are pluggable: :data:`TYPING_RULES` maps an op class to a
function ``rule(op, solver)`` that states the op's constraints through
:meth:`TypeSolver.unify` (two terms are equal) and
:meth:`TypeSolver.add_relation` (a function the solver calls again until it
returns True). :func:`typing_rule` registers one; an op's rule is the one of
its nearest registered class, so ``RegisteredOperatorOp`` covers every
operator with a registry row. Ops with no rule (``relay.op`` of an operator
the dialect does not know) constrain nothing. New constructs (``if``,
``match``, references, closures) add their rule next to their op class.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import is_ as operator_is
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, FunctionType, ModuleOp, TensorType
from xdsl.dialects.builtin import TupleType as BuiltinTupleType
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue, TypeAttribute
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay.backward import RESULT_DRIVEN
from relay_xdsl.dialects.relay.bindings import LetOp
from relay_xdsl.dialects.relay.closures import CallOp as ValueCallOp
from relay_xdsl.dialects.relay.closures import GlobalOp, in_expression
from relay_xdsl.dialects.relay.inference import Call, Reject, infer_type
from relay_xdsl.dialects.relay.names import relay_name
from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.dialects.relay.structure import (
    ConstantOp,
    FnOp,
    ReturnOp,
    TupleGetItemOp,
    TupleOp,
)
from relay_xdsl.dialects.relay.types import IncompleteType, is_complete
from relay_xdsl.support.memo import register

if TYPE_CHECKING:
    from relay_xdsl.dialects.relay.registry import Operator


class TypeInferenceError(Exception):
    """A contradiction between the types of a module, found at `op`."""

    def __init__(self, message: str, op: Operation | None):
        super().__init__(message)
        self.message = message
        self.op = op


class _Var:
    """An unknown type: a union-find node, bound to a term once known."""

    __slots__ = ("binding", "parent")

    def __init__(self) -> None:
        self.parent: _Var | None = None
        self.binding: Term | None = None


@dataclass(frozen=True, eq=False)
class _Tuple:
    """A tuple type some of whose fields are unknown."""

    fields: tuple[Term, ...]


Term = Attribute | _Var | _Tuple
"""A type as the solver sees it: a type, an unknown, or a tuple of terms."""


class _Mismatch(Exception):
    """Two terms that cannot be unified: the innermost types that differ."""

    def __init__(self, left: Attribute, right: Attribute):
        super().__init__()
        self.left, self.right = left, right


def _find(var: _Var) -> _Var:
    root = var
    while root.parent is not None:
        root = root.parent
    while var.parent is not None and var.parent is not root:
        var.parent, var = root, var.parent
    return root


def _dims_fit(left: TensorType, right: TensorType) -> bool:
    """Same dtype and rank, and every dimension equal or ``?`` on one side."""
    if left.get_element_type() != right.get_element_type():
        return False
    a, b = left.get_shape(), right.get_shape()
    return len(a) == len(b) and all(
        x == y or x == DYNAMIC_INDEX or y == DYNAMIC_INDEX for x, y in zip(a, b)
    )


def type_text(type_: Attribute) -> str:
    """A type in Relay's spelling, for messages."""
    if isinstance(type_, TensorType):
        try:
            dtype = dtypes.dtype_name(type_.get_element_type())
        except dtypes.UnknownDTypeError:
            return str(type_)
        shape = type_.get_shape()
        if not shape:
            return dtype
        dims = ", ".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape)
        return f"Tensor[({dims}), {dtype}]"
    if isinstance(type_, BuiltinTupleType):
        fields = [type_text(t) for t in type_.types.data]
        return "(" + ", ".join(fields) + ("," if len(fields) == 1 else "") + ")"
    if isinstance(type_, IncompleteType):
        return "_"
    return str(type_)


Relation = Callable[[], bool]
"""A constraint the solver runs until it returns True (it holds for good)."""


class TypeSolver:
    """Terms of SSA values, their unifications and relations (see the module docstring)."""

    def __init__(self, strict: bool = True) -> None:
        # Whether what TVM's parser leaves unchecked is checked (see `infer_types`).
        self.strict = strict
        self.terms: dict[SSAValue, Term] = {}
        self.relations: list[Relation] = []
        self.functions: dict[str, tuple[list[Term], Term]] = {}
        self.meta_constants: dict[int, Term] = {}  # one type per meta[relay.Constant][i]
        self.bindings = 0  # how many unknowns have been bound: the solver's progress

    # -- terms ----------------------------------------------------------------

    def term(self, value: SSAValue) -> Term:
        """The term of `value`, made from its type the first time."""
        term = self.terms.get(value)
        if term is None:
            term = self.terms[value] = self.term_of_type(value.type)
        return term

    def term_of_type(self, type_: Attribute) -> Term:
        """A term for `type_`, each incomplete part a fresh unknown."""
        if isinstance(type_, IncompleteType):
            return _Var()
        if isinstance(type_, BuiltinTupleType):
            fields = [self.term_of_type(t) for t in type_.types.data]
            if any(not isinstance(f, Attribute) for f in fields):
                return _Tuple(tuple(fields))
        return type_

    def resolve(self, term: Term) -> Term:
        """`term` with its outermost unknown replaced by what it is bound to."""
        if isinstance(term, _Var):
            root = _find(term)
            return root if root.binding is None else self.resolve(root.binding)
        return term

    def type_of_term(self, term: Term) -> Attribute:
        """The type `term` stands for, unknown parts ``!relay.incomplete``."""
        term = self.resolve(term)
        if isinstance(term, _Var):
            return IncompleteType()
        if isinstance(term, _Tuple):
            fields = [self.type_of_term(f) for f in term.fields]
            return BuiltinTupleType(ArrayAttr([f for f in fields if isinstance(f, TypeAttribute)]))
        return term

    def type_of(self, value: SSAValue) -> Attribute:
        """What the solver knows of `value`'s type."""
        term = self.terms.get(value)
        return value.type if term is None else self.type_of_term(term)

    # -- constraints ----------------------------------------------------------

    def unify(self, left: Term, right: Term) -> None:
        """Make `left` and `right` the same type; `_Mismatch` if they cannot be."""
        left, right = self.resolve(left), self.resolve(right)
        if left is right:
            return
        if isinstance(left, _Var) or isinstance(right, _Var):
            var, other = (left, right) if isinstance(left, _Var) else (right, left)
            assert isinstance(var, _Var)
            if isinstance(other, _Var):
                var.parent = other
            else:
                self._check_occurs(var, other)
                var.binding = other
            self.bindings += 1
            return
        left_fields = self._fields(left)
        right_fields = self._fields(right)
        if left_fields is not None and right_fields is not None:
            if len(left_fields) != len(right_fields):
                raise _Mismatch(self.type_of_term(left), self.type_of_term(right))
            for a, b in zip(left_fields, right_fields):
                self.unify(a, b)
            return
        assert isinstance(left, Attribute) and isinstance(right, Attribute)
        if left == right:
            return
        if (
            isinstance(left, TensorType)
            and isinstance(right, TensorType)
            and _dims_fit(left, right)
        ):
            return
        raise _Mismatch(left, right)

    @staticmethod
    def _fields(term: Term) -> Sequence[Term] | None:
        if isinstance(term, _Tuple):
            return term.fields
        if isinstance(term, BuiltinTupleType):
            return term.types.data
        return None

    def _check_occurs(self, var: _Var, term: Term) -> None:
        term = self.resolve(term)
        if term is var:
            raise _Mismatch(IncompleteType(), self.type_of_term(term))
        if isinstance(term, _Tuple):
            for field in term.fields:
                self._check_occurs(var, field)

    def unify_values(self, op: Operation, left: SSAValue, right: Term, what: str) -> None:
        """Unify `left`'s term with `right`; a mismatch is an error at `op`."""
        try:
            self.unify(self.term(left), right)
        except _Mismatch as mismatch:
            raise TypeInferenceError(
                f"{what}: {type_text(mismatch.left)} and {type_text(mismatch.right)} differ",
                op,
            ) from None

    def add_relation(self, relation: Relation) -> None:
        self.relations.append(relation)

    # -- solving --------------------------------------------------------------

    def add_ops(self, ops: Iterable[Operation]) -> None:
        """State the constraints of `ops` (and the ops nested in them)."""
        for op in ops:
            rule = rule_for(type(op))
            if rule is not None:
                rule(op, self)
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        self.term(arg)
                    self.add_ops(block.ops)

    def solve(self) -> None:
        """Run the relations, forwards and backwards through the program,
        until none of them learns anything more (those still open stay, for
        a later `solve` after more is known)."""
        pending = self.relations
        while pending:
            progress = self.bindings
            remaining = [relation for relation in pending if not relation()]
            stalled = self.bindings == progress and len(remaining) == len(pending)
            remaining.reverse()  # alternate directions: backward chains resolve too
            pending = remaining
            if stalled:
                break
        self.relations = pending

    def write_back(self, ops: Iterable[Operation]) -> None:
        """Give every value the type the solver found for it."""
        changed = [
            (value, new)
            for value, term in self.terms.items()
            if (new := self.type_of_term(term)) != value.type
        ]
        for value, new in changed:
            retyped = Rewriter.replace_value_with_new_type(value, new)
            if isinstance(value, BlockArgument) and isinstance(retyped, BlockArgument):
                retyped.location = value.location  # where the Relay name is recorded
        for op in ops:
            if isinstance(op, FuncOp) and not op.is_declaration:
                block = op.body.block
                outputs = op.function_type.outputs.data
                terminator = block.last_op
                if isinstance(terminator, FuncReturnOp):
                    outputs = tuple(v.type for v in terminator.operands)
                op.function_type = FunctionType.from_lists([a.type for a in block.args], outputs)


Assumptions = Callable[[Callable[[SSAValue], Attribute]], Mapping[SSAValue, Attribute]]
"""Types to assume for values the solver left unknown, given what it knows of each value's type."""


def infer_types(module: ModuleOp, strict: bool = True, assume: Assumptions | None = None) -> None:
    """Solve the types of `module` in place (see the module docstring).

    Without `strict`, what TVM's parser leaves unchecked stays so: the
    declared type of an ``unchecked`` ``relay.let`` is not unified with its
    value's, and in a function read from a bare expression
    (``relay.expression``) a call whose operator's relation rejects its
    arguments keeps its incomplete result. The importer solves so;
    ``relay-infer-type`` is strict.

    Where solving stops short, `assume` (if given) names types to assume;
    solving goes on from them, a round at a time, until it assumes nothing.
    """
    solver = TypeSolver(strict)
    for op in module.ops:
        if isinstance(op, FuncOp):
            inputs = [solver.term(a) for a in op.args] if not op.is_declaration else []
            outputs = op.function_type.outputs.data
            output = solver.term_of_type(outputs[0]) if len(outputs) == 1 else _Var()
            solver.functions[op.sym_name.data] = (inputs, output)
    solver.add_ops(module.ops)
    solver.solve()
    while assume is not None and (assumed := assume(solver.type_of)):
        for value, type_ in assumed.items():
            solver.unify(solver.term(value), type_)
        solver.solve()
    solver.write_back(module.ops)


# ---------------------------------------------------------------------------
# Typing rules
# ---------------------------------------------------------------------------

TypingRule = Callable[[Any, TypeSolver], None]
"""An op's constraints, stated on a solver (the op is of the rule's class)."""

TYPING_RULES: dict[type[Operation], TypingRule] = {}
"""The typing rule of each op class (see the module docstring)."""

_RULE_CACHE: dict[type[Operation], TypingRule | None] = {}


def typing_rule(op_class: type[Operation]) -> Callable[[TypingRule], TypingRule]:
    """Register the decorated function as the typing rule of `op_class`."""

    def add(rule: TypingRule) -> TypingRule:
        TYPING_RULES[op_class] = rule
        _RULE_CACHE.clear()
        return rule

    return add


def rule_for(op_class: type[Operation]) -> TypingRule | None:
    """The rule of `op_class`'s nearest registered class, if any."""
    try:
        return _RULE_CACHE[op_class]
    except KeyError:
        pass
    rule = next((TYPING_RULES[c] for c in op_class.__mro__ if c in TYPING_RULES), None)
    _RULE_CACHE[op_class] = rule
    return rule


def rejection(
    operator: Operator, arg_types: Sequence[Attribute], attributes: Mapping[str, Attribute]
) -> str:
    """Why `operator`'s relation rejects these argument types and attributes,
    in the operator's terms where the relation says why."""
    problem = operator.malformed(len(arg_types), attributes)
    if problem is not None:
        return problem
    try:
        operator.infer(Call(operator.schema, arg_types, attributes))
    except Reject as error:
        if str(error):
            return f"{operator.name}: {error}"
    except ValueError as error:  # an unknown dtype, a bad layout
        if str(error):
            return f"{operator.name}: {error}"
    except ArithmeticError:  # a zero stride or window
        pass
    args = ", ".join(type_text(t) for t in arg_types)
    return (
        f"{operator.name}: its type relation rejects the arguments ({args}) with these attributes"
    )


def backward_types(
    operator: Operator,
    arg_types: Sequence[Attribute],
    attributes: Mapping[str, Attribute],
    result: Attribute | None,
) -> Sequence[Attribute | None]:
    """The argument types `operator`'s backward relation determines; a
    `Reject` with a message where it finds a contradiction."""
    if operator.backward is None or operator.malformed(len(arg_types), attributes) is not None:
        return ()
    try:
        return operator.backward(Call(operator.schema, arg_types, attributes), result)
    except Reject as error:
        if str(error):
            raise
    except (ArithmeticError, ValueError):
        pass  # malformed attributes: the forward relation reports them
    return ()


_CHECKED: dict[tuple[object, ...], tuple[Attribute | None, str | None]] = {}
"""Recent calls checked by :func:`infer_checked`, by operator, argument types
and attributes (a graph repeats a few signatures thousands of times)."""
_CHECKED_LIMIT = 4096
register(_CHECKED.clear)


def infer_checked(
    operator: Operator, arg_types: Sequence[Attribute], attributes: Mapping[str, Attribute]
) -> tuple[Attribute | None, str | None]:
    """The result type of a call of `operator` with typed arguments
    (:func:`~relay_xdsl.dialects.relay.inference.infer_type`), and what its
    backward relation finds wrong with the arguments (a weight that does not
    fit ``channels``, a batch-norm mean of the wrong length) or None: the
    importer's eager inference, memoised as one lookup a call."""
    try:
        key = (operator, tuple(arg_types), tuple(attributes.items()))
        return _CHECKED[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable attribute: check without the cache
        return infer_type(operator, arg_types, attributes), argument_error(
            operator, arg_types, attributes
        )
    checked = (
        infer_type(operator, arg_types, attributes),
        argument_error(operator, arg_types, attributes),
    )
    if len(_CHECKED) >= _CHECKED_LIMIT:
        _CHECKED.clear()
    _CHECKED[key] = checked
    return checked


def argument_error(
    operator: Operator, arg_types: Sequence[Attribute], attributes: Mapping[str, Attribute]
) -> str | None:
    """What `operator`'s backward relation finds wrong with these typed
    arguments, or None."""
    if operator.backward is None or operator.backward in RESULT_DRIVEN:
        return None
    try:
        expected = backward_types(operator, arg_types, attributes, None)
    except Reject as error:
        return f"{operator.name}: {error}"
    for index, (actual, wanted) in enumerate(zip(arg_types, expected)):
        if wanted is None or wanted == actual:
            continue
        if (
            isinstance(actual, TensorType)
            and isinstance(wanted, TensorType)
            and _dims_fit(actual, wanted)
        ):
            continue
        return (
            f"{operator.name}: argument #{index} has type {type_text(actual)} but the call "
            f"requires {type_text(wanted)}"
        )
    return None


@typing_rule(RegisteredOperatorOp)
def _operator_rule(op: RegisteredOperatorOp, solver: TypeSolver) -> None:
    name = op.OPERATOR.name

    operator, attributes = op.OPERATOR, op.attributes
    values = [*op.args, op.result]
    unchanged: list[Term] = []  # the terms of `values` when the relation last could not finish

    def relation() -> bool:
        terms = [solver.resolve(solver.term(v)) for v in values]
        if len(terms) == len(unchanged) and all(map(operator_is, terms, unchanged)):
            return False  # nothing is known that was not when it last ran
        args = [solver.type_of(a) for a in op.args]
        result = solver.type_of(op.result)
        try:
            determined = backward_types(
                operator, args, attributes, result if is_complete(result) else None
            )
        except Reject as error:
            raise TypeInferenceError(f"{name}: {error}", op) from None
        for index, type_ in enumerate(determined):
            if type_ is not None:
                solver.unify_values(
                    op,
                    op.args[index],
                    type_,
                    f"{name}: argument #{index} does not have the type the call requires",
                )
        args = [solver.type_of(a) for a in op.args]
        if not all(is_complete(a) for a in args):
            terms = [solver.resolve(solver.term(v)) for v in values]
            # A partly known tuple can learn a field without its term changing.
            unchanged[:] = [] if any(isinstance(t, _Tuple) for t in terms) else terms
            return False
        inferred = infer_type(operator, args, attributes)
        if isinstance(inferred, IncompleteType):
            return True  # the relation leaves the result to an annotation
        if inferred is None:
            if is_complete(result):
                return True  # annotated: the annotation stands, as when importing
            if not solver.strict and in_expression(op):
                return True  # unchecked, as TVM's parse_expr leaves it
            raise TypeInferenceError(rejection(operator, args, attributes), op)
        try:
            solver.unify(solver.term(op.result), inferred)
        except _Mismatch:
            raise TypeInferenceError(
                f"'{name}' is annotated as {type_text(result)} but its arguments and "
                f"attributes give {type_text(inferred)}",
                op,
            ) from None
        return True

    solver.add_relation(relation)


@typing_rule(ConstantOp)
def _constant_rule(op: ConstantOp, solver: TypeSolver) -> None:
    # Each mention of meta[relay.Constant][i] is the same constant, of one type.
    if op.meta_index is not None:
        index = op.meta_index.value.data
        shared = solver.meta_constants.setdefault(index, solver.term(op.result))
        solver.unify_values(op, op.result, shared, f"the uses of meta[relay.Constant][{index}]")


@typing_rule(TupleOp)
def _tuple_rule(op: TupleOp, solver: TypeSolver) -> None:
    fields = _Tuple(tuple(solver.term(f) for f in op.fields))
    solver.unify_values(op, op.result, fields, "a tuple's type does not match its fields")


@typing_rule(TupleGetItemOp)
def _tuple_get_item_rule(op: TupleGetItemOp, solver: TypeSolver) -> None:
    index = op.index.value.data

    def relation() -> bool:
        tuple_term = solver.resolve(solver.term(op.tuple_value))
        fields = TypeSolver._fields(tuple_term)
        if fields is None:
            if isinstance(tuple_term, _Var):
                return False
            raise TypeInferenceError(
                f"'.{index}' projects a field out of a tuple, but the value has type "
                f"{type_text(solver.type_of_term(tuple_term))}",
                op,
            )
        if not 0 <= index < len(fields):
            raise TypeInferenceError(
                f"tuple index {index} is out of range for a tuple of {len(fields)} fields", op
            )
        solver.unify_values(op, op.result, fields[index], f"field {index} of the tuple")
        return True

    solver.add_relation(relation)


@typing_rule(LetOp)
def _let_rule(op: LetOp, solver: TypeSolver) -> None:
    if op.unchecked is not None:
        if not solver.strict:
            return
        try:
            solver.unify(solver.term(op.result), solver.term(op.value))
        except _Mismatch:
            name = relay_name(op.result)
            raise TypeInferenceError(
                f"{'%' + name if name else 'a let-bound variable'} is declared as "
                f"{type_text(op.result.type)} but bound to a {type_text(op.value.type)}",
                op,
            ) from None
        return
    solver.unify_values(op, op.result, solver.term(op.value), "a let-bound variable and its value")


@typing_rule(FnOp)
def _fn_rule(op: FnOp, solver: TypeSolver) -> None:
    for index, (arg, param) in enumerate(zip(op.args, op.params)):
        solver.unify_values(op, param, solver.term(arg), f"argument #{index} of the function")


@typing_rule(ReturnOp)
def _return_rule(op: ReturnOp, solver: TypeSolver) -> None:
    parent = op.parent_op()
    if isinstance(parent, FnOp):
        solver.unify_values(
            op, op.value, solver.term(parent.result), "the function's body and its return type"
        )


@typing_rule(FuncReturnOp)
def _func_return_rule(op: FuncReturnOp, solver: TypeSolver) -> None:
    parent = op.parent_op()
    if isinstance(parent, FuncOp) and len(op.operands) == 1:
        signature = solver.functions.get(parent.sym_name.data)
        if signature is not None:
            solver.unify_values(
                op,
                op.operands[0],
                signature[1],
                f"the body of @{parent.sym_name.data} and its return type",
            )


@typing_rule(GlobalOp)
def _global_rule(op: GlobalOp, solver: TypeSolver) -> None:
    # A bare expression may name a global the module does not define (TVM's
    # parse_expr allows it); TVM's InferType rejects it.
    name = op.callee.root_reference.data
    if solver.strict and name not in solver.functions:
        raise TypeInferenceError(f"@{name} is not defined in the module", op)


@typing_rule(ValueCallOp)
def _value_call_rule(op: ValueCallOp, solver: TypeSolver) -> None:
    # A bare expression may call a value that is not a function (TVM's
    # parse_expr allows it); TVM's InferType rejects it.
    callee = op.callee.type
    if solver.strict and not isinstance(callee, FunctionType | IncompleteType):
        raise TypeInferenceError(f"a value of type {type_text(callee)} is not a function", op)


@typing_rule(CallOp)
def _call_rule(op: CallOp, solver: TypeSolver) -> None:
    name = op.callee.string_value()
    signature = solver.functions.get(name)
    if signature is None:
        return
    params, output = signature
    for index, (arg, param) in enumerate(zip(op.arguments, params)):
        solver.unify_values(op, arg, param, f"argument #{index} of @{name}")
    if len(op.results) == 1:
        solver.unify_values(op, op.results[0], output, f"the result of @{name}")
