"""relay-defuse: inline fused and composite functions, TVM's ``DefuseOps``.

Every ``relay.fn`` is replaced by its body, at any nesting depth and in
every function: the body's operations move in front of the ``relay.fn``,
its parameters are replaced by the call's arguments (by SSA identity, never
by name), and the ``relay.fn`` result by the returned value. So
``defuse(fuse(x)) == x``.

The output variable of a function imported from a Relax dataflow block
goes with the function: the value it returns is bound as the call was (it
takes the call's name, and an output aliasing another value, ``gv = lv``,
is dropped); other bindings stay.

Binding by identity keeps the pass correct where TVM's name-based
``DefuseOps`` is not: parameters sharing a name, one argument passed for
two parameters, bodies that are a tuple, a tuple projection or a let-bound
value, and a function literal called from several sites (each call site is
its own ``relay.fn``).

Nothing else changes: no dead code is removed and nothing is reordered
beyond moving the inlined operations into place.

Like every TVM function pass, it leaves external functions alone: a global
function that carries ``Compiler`` (a BYOC partition), or a nonzero
``Extern`` or ``SkipOptimization``, keeps its ``relay.fn`` ops (TVM's
``AsOptimizableFunctionNode``, see dataflow.py).

Options:

* ``external=true`` defuses inside those functions too.
* ``composite=A,B`` inlines only the ``relay.fn`` ops whose ``Composite``
  attribute is one of the listed names (default: inline every ``relay.fn``);
  a name that no ``relay.fn`` carries is a warning.
* ``inline-globals=true`` also inlines ``func.call``s of functions that carry
  ``Compiler`` or ``Inline`` (PartitionGraph's output), then erases those
  functions once nothing calls them (their bodies are then defused where
  they were inlined).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Block, BlockArgument, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.bindings import DATAFLOW
from relay_xdsl.dialects.relay.names import names_kept
from relay_xdsl.support.depth import walk_ops
from relay_xdsl.transforms.dataflow import optimizable
from relay_xdsl.transforms.diagnostics import warn

PARTITIONED_FUNCTION_ATTRIBUTES = ("Compiler", "Inline")
"""Attributes that mark a global function as an outlined partition to inline."""


def inline_fn(op: relay.FnOp) -> None:
    """Replace `op` by its body: the body's ops move in front of it, its
    parameters become the call's arguments and its result the returned value.

    Through xDSL's unobserved ``Rewriter``: the pass visits every ``relay.fn``
    once from its own list, so nothing needs to hear of the changes, and a
    ``PatternRewriter`` per function cost a fifth of the pass.
    """
    block = op.body.block
    terminator = block.last_op
    assert isinstance(terminator, relay.ReturnOp)
    returned = terminator.value
    Rewriter.erase_op(terminator)
    if DATAFLOW in op.attributes and isinstance(returned, OpResult):
        returned = _drop_output_variable(returned)
    args = op.args  # an IRDL accessor: a Python call each time
    result = _outside(returned, block, args)
    with names_kept(args):
        Rewriter.inline_block(block, InsertPoint.before(op), args)
    Rewriter.replace_op(op, [], [result])


@dataclass
class InlineGlobalCallPattern(RewritePattern):
    """Replace a ``func.call`` of a ``Compiler``/``Inline`` function by a copy of its body."""

    module: ModuleOp

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CallOp, rewriter: PatternRewriter) -> None:
        callee = SymbolTable.lookup_symbol(self.module, op.callee)
        if not isinstance(callee, FuncOp) or not _is_partition(callee):
            return
        body = callee.body.clone()
        block = body.block
        terminator = block.last_op
        assert isinstance(terminator, FuncReturnOp)
        results = [_outside(value, block, op.arguments) for value in terminator.arguments]
        rewriter.erase(terminator)
        with names_kept(op.arguments):
            rewriter.inline_block(block, InsertPoint.before(op), op.arguments)
        rewriter.replace(op, [], results)


def _drop_output_variable(returned: OpResult) -> SSAValue:
    """The value a Relax dataflow body returns, without the output variable
    that goes with the function: its name, or its ``relay.let`` if it only
    aliases another value."""
    let = returned.owner
    if isinstance(let, relay.LetOp) and let.dataflow is None and not returned.uses:
        Rewriter.erase_op(let)
        return let.value
    # The call's name replaces the hint; a stale recorded copy of it is
    # harmless, as names.py allows (the hint is the name).
    returned.name_hint = None
    return returned


def _outside(value: SSAValue, block: Block, args: Sequence[SSAValue]) -> SSAValue:
    """`value` as seen after inlining `block` with `args`: a returned parameter
    (``fn (%x) { %x }``) is the argument passed for it."""
    if isinstance(value, BlockArgument) and value.block is block:
        return args[value.index]
    return value


def _is_partition(func: FuncOp) -> bool:
    return any(name in func.attributes for name in PARTITIONED_FUNCTION_ATTRIBUTES)


@dataclass(frozen=True)
class RelayDefusePass(ModulePass):
    """Inline ``relay.fn`` ops (and optionally partitioned global functions)."""

    name = "relay-defuse"

    composite: tuple[str, ...] = ()
    """Only inline ``relay.fn`` ops whose ``Composite`` is one of these; empty means all."""

    inline_globals: bool = False
    """Also inline calls of ``Compiler``/``Inline`` functions and erase them when unused."""

    external: bool = False
    """Also defuse inside global functions TVM's passes skip (``Compiler``, ``Extern``, ...)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.inline_globals:
            _walk(InlineGlobalCallPattern(op)).rewrite_module(op)
            called = {call.callee.string_value() for call in op.walk() if isinstance(call, CallOp)}
            for func in list(op.ops):
                if (
                    isinstance(func, FuncOp)
                    and _is_partition(func)
                    and func.sym_name.data not in called
                ):
                    func.detach()
                    func.erase()
        composites = frozenset(self.composite) if self.composite else None
        # Outermost first and without a walker, so that deep nests cost linear
        # time: xDSL's walk and its insertion check both cost as much as the
        # depth at which they work, and inlining the outer function first
        # brings each inner one up to the top before it is inlined in turn.
        fns = [
            fn
            for function in op.ops
            if self.external or not isinstance(function, FuncOp) or optimizable(function.attributes)
            for fn in walk_ops(function)
            if isinstance(fn, relay.FnOp)
        ]
        if composites is not None:
            _warn_of_missing_composites(self.composite, fns)
            fns = [fn for fn in fns if _composite_name(fn) in composites]
        for fn in fns:
            inline_fn(fn)


def _composite_name(fn: relay.FnOp) -> str | None:
    """The ``Composite`` attribute of `fn`, if it has one."""
    composite = fn.attributes.get("Composite")
    return composite.data if isinstance(composite, StringAttr) else None


def _warn_of_missing_composites(names: Sequence[str], fns: Sequence[relay.FnOp]) -> None:
    present = {_composite_name(fn) for fn in fns}
    for name in dict.fromkeys(names):
        if name not in present:
            warn(
                RelayDefusePass.name,
                f"composite={name} names no function in the module; nothing inlined for it",
            )


def _walk(pattern: RewritePattern) -> PatternRewriteWalker:
    # Dead-code elimination stays off: defusing must change nothing but the fusion.
    return PatternRewriteWalker(
        GreedyRewritePatternApplier([pattern], dce_enabled=False),
        apply_recursively=True,
    )
