"""Running the Relay-language ops: ``relay.if``, closures, references and ADTs.

* ``relay.if`` runs the branch its boolean scalar condition selects;
* ``relay.function`` makes a `Closure`, capturing the values from outside
  its body that the body uses; ``relay.call`` calls a closure (a recursive
  one gets itself as the extra first argument), a global function
  (``relay.global``) or a constructor (``relay.constructor``);
* ``relay.ref`` makes a `Reference`, ``relay.ref_read`` reads it and
  ``relay.ref_write`` changes it, returning ``()``;
* ``relay.construct`` builds an `AdtValue`; ``relay.match`` runs the first
  clause whose pattern matches, its block taking the pattern's variables in
  order (no clause matching is an error, as in TVM).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.adts import (
    ConstructOp,
    ConstructorRefOp,
    MatchOp,
    MatchYieldOp,
    PatternConstructorAttr,
    PatternTupleAttr,
    PatternVarAttr,
    PatternWildcardAttr,
)
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.interpreter.values import (
    AdtValue,
    Closure,
    ConstructorFunction,
    GlobalFunction,
    Reference,
)


def free_values(op: Operation) -> tuple[SSAValue, ...]:
    """The values defined outside `op` that the ops inside its regions use, in order of use."""
    seen: dict[SSAValue, None] = {}
    for inner in op.walk():
        if inner is op:
            continue
        for operand in inner.operands:
            if operand not in seen and not _defined_inside(operand, op):
                seen[operand] = None
    return tuple(seen)


def _defined_inside(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    if isinstance(value, BlockArgument):
        parent = value.block.parent_op()
        return parent is not None and (parent is op or op.is_ancestor(parent))
    assert isinstance(owner, Operation)
    return owner is not op and op.is_ancestor(owner)


@register_impls
@dataclass
class LanguageFunctions(InterpreterFunctions):
    """Control flow, closures, references and algebraic data types."""

    _free: dict[relay.FunctionOp, tuple[SSAValue, ...]] = field(default_factory=dict)

    @impl(relay.IfOp)
    def run_if(self, interpreter: Interpreter, op: relay.IfOp, args: PythonValues) -> PythonValues:
        (condition,) = args
        region = op.then_region if bool(condition) else op.else_region
        return interpreter.run_ssacfg_region(region, (), "relay.if")

    @impl(relay.FunctionOp)
    def run_function(
        self, interpreter: Interpreter, op: relay.FunctionOp, args: PythonValues
    ) -> PythonValues:
        free = self._free.get(op)
        if free is None:
            free = self._free[op] = free_values(op)
        return (Closure(op, free, interpreter.get_values(free)),)

    def call_closure(
        self, interpreter: Interpreter, closure: Closure, args: PythonValues
    ) -> PythonValues:
        function = closure.function
        if function.recursive:
            args = (closure, *args)
        interpreter.push_scope("relay.function")
        try:
            interpreter.set_values(zip(closure.free, closure.captured))
            return interpreter.run_ssacfg_region(function.body, args, "relay.function")
        finally:
            interpreter.pop_scope()

    @impl(relay.CallOp)
    def run_call(
        self, interpreter: Interpreter, op: relay.CallOp, args: PythonValues
    ) -> PythonValues:
        callee, *arguments = args
        return self.call(interpreter, callee, tuple(arguments))

    def call(self, interpreter: Interpreter, callee: Any, args: PythonValues) -> PythonValues:
        """Call a function value on `args`."""
        if isinstance(callee, Closure):
            return self.call_closure(interpreter, callee, args)
        if isinstance(callee, GlobalFunction):
            return interpreter.call_op(callee.symbol, args)
        if isinstance(callee, ConstructorFunction):
            return (AdtValue(callee.constructor, tuple(args)),)
        raise InterpreterError(f"calling a value that is not a function: {type(callee).__name__}")

    @impl(relay.GlobalOp)
    def run_global(
        self, interpreter: Interpreter, op: relay.GlobalOp, args: PythonValues
    ) -> PythonValues:
        return (GlobalFunction(op.callee.string_value()),)

    @impl(relay.RefOp)
    def run_ref(
        self, interpreter: Interpreter, op: relay.RefOp, args: PythonValues
    ) -> PythonValues:
        return (Reference(args[0]),)

    @impl(relay.RefReadOp)
    def run_ref_read(
        self, interpreter: Interpreter, op: relay.RefReadOp, args: PythonValues
    ) -> PythonValues:
        (reference,) = args
        return (reference.value,)

    @impl(relay.RefWriteOp)
    def run_ref_write(
        self, interpreter: Interpreter, op: relay.RefWriteOp, args: PythonValues
    ) -> PythonValues:
        reference, value = args
        reference.value = value
        return ((),)

    @impl(ConstructOp)
    def run_construct(
        self, interpreter: Interpreter, op: ConstructOp, args: PythonValues
    ) -> PythonValues:
        return (AdtValue(op.constructor.data, tuple(args)),)

    @impl(ConstructorRefOp)
    def run_constructor(
        self, interpreter: Interpreter, op: ConstructorRefOp, args: PythonValues
    ) -> PythonValues:
        return (ConstructorFunction(op.constructor.data),)

    @impl(MatchOp)
    def run_match(self, interpreter: Interpreter, op: MatchOp, args: PythonValues) -> PythonValues:
        (data,) = args
        for pattern, region in zip(op.patterns.data, op.clauses):
            bound: list[Any] = []
            if matches(pattern, data, bound):
                return interpreter.run_ssacfg_region(region, tuple(bound), "relay.match")
        what = data.constructor if isinstance(data, AdtValue) else type(data).__name__
        raise InterpreterError(f"match: no clause matches the value ({what})")

    @impl_terminator(MatchYieldOp)
    def run_match_yield(
        self, interpreter: Interpreter, op: MatchYieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()


def matches(pattern: Attribute, value: Any, bound: list[Any]) -> bool:
    """Whether `value` matches `pattern`; the values of its variables go to `bound`."""
    if isinstance(pattern, PatternWildcardAttr):
        return True
    if isinstance(pattern, PatternVarAttr):
        bound.append(value)
        return True
    if isinstance(pattern, PatternConstructorAttr):
        if not isinstance(value, AdtValue) or value.constructor != pattern.constructor.data:
            return False
        return all(matches(p, v, bound) for p, v in zip(pattern.fields.data, value.fields))
    if isinstance(pattern, PatternTupleAttr):
        if not isinstance(value, tuple) or len(value) != len(pattern.fields):
            return False
        return all(matches(p, v, bound) for p, v in zip(pattern.fields.data, value))
    raise InterpreterError(f"{pattern} is not a pattern")
