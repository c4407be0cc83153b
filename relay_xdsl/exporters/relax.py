"""The relay dialect as a live TVM Relax module (apache-tvm 0.27).

``export_relax(module)`` builds the module with ``relax.BlockBuilder``:

* each ``func.func`` becomes a Relax function with the ``func.func``'s
  attributes; a public function without ``global_symbol`` gets its name as
  ``global_symbol``, as ``BlockBuilder.function`` does;
* a function body is one dataflow block (a binding block under
  ``relax.binding_block``); bindings are those the IR records (see
  :mod:`relay_xdsl.dialects.relay.bindings`): a ``relay.let`` is one
  binding (a ``DataflowVar`` with ``dataflow``), every other op except a
  ``relay.tuple``/``relay.constant`` (inline arguments) is bound to a
  variable of its own, a dataflow variable unless the function returns it;
  variables are named after the values (names are cosmetic);
* a ``relay.fn`` becomes a call of a private global function carrying the
  ``relay.fn``'s attributes, as ``FuseOpsByPattern`` creates it: under its
  recorded ``relax.global_name``, or, without one, under TVM's
  ``fused_<ops>`` name; structurally equal functions are created once
  (``BlockBuilder.add_func`` deduplicates them, as TVM does). Under
  ``relax.local_name`` it becomes a local function bound right before its
  first call instead;
* an operator converts through its row's Relax mapping
  (:mod:`relay_xdsl.dialects.relay.relax_mapping`) where it has one, else
  through the composition registered for it
  (:mod:`relay_xdsl.exporters.relax_compositions`: Relax operators, or a
  ``topi`` compute through ``call_te``); a generic ``relay.op
  "relax.<name>"`` is rebuilt from its attrs type and attributes.

Modules imported from Relay text export as long as every operator has a
mapping or a composition; every operator the interpreter runs has one. A
``relay.constant`` known only by its ``meta_index`` has no value: exporting
it is an error unless ``random_constants=seed`` asks for random values, the
interpreter's draw for the seed (:mod:`relay_xdsl.interpreter.random_values`:
by index, scaled by role).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import nullcontext
from typing import Any

import numpy as np
import tvm
import tvm_ffi
from tvm import relax
from tvm.relax.expr import _update_type
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    TupleType,
)
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Attribute, Block, Operation, SSAValue

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay import relax_mapping as relax_ops
from relay_xdsl.dialects.relay.bindings import (
    expression_let,
    let_expression,
    relax_body_kind,
    returned_values,
)
from relay_xdsl.dialects.relay.dynamic_to_static import with_static_shapes
from relay_xdsl.dialects.relay.names import relay_name
from relay_xdsl.dialects.relay.relax_mapping import (
    ARG_PREFIX,
    ATTRS_TYPE,
    BINDING_BLOCK,
    BOOKKEEPING,
    GLOBAL_NAME,
    LOCAL_NAME,
    SHAPE_VARS,
    PrimValue,
)
from relay_xdsl.exporters.relax_compositions.registry import (
    PREFERRED,
    RELAX_EXPORTS,
    RelaxExportError,
)
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.interpreter.random_values import random_constants as draw_random_constants

__all__ = ["RelaxExportError", "RelaxExporter", "export_relax", "ffi_value"]


def export_relax(module: ModuleOp, *, random_constants: int | None = None) -> tvm.IRModule:
    """The Relax module of relay-dialect `module`.

    `random_constants` is the seed for the values of constants known only by
    their ``meta_index``; without it such constants are an error. Dynamic
    operators whose shape arguments are constants export as their static
    operators (TVM's ``DynamicToStatic``, on a copy of the module).
    """
    return RelaxExporter(with_static_shapes(module), random_constants).export()


def ffi_value(value: Any) -> Any:
    """A Python attribute value (see :mod:`relay_xdsl.dialects.relay.relax_mapping`) for the TVM FFI."""
    if isinstance(value, PrimValue):
        if value.dtype == "bool" or value.dtype.startswith(("int", "uint")):
            return tvm.tirx.IntImm(value.dtype, int(value.value))
        return tvm.tirx.FloatImm(value.dtype, float(value.value))
    if isinstance(value, list | tuple):
        return [ffi_value(v) for v in value]
    if isinstance(value, dict):
        return {k: ffi_value(v) for k, v in value.items()}
    return value


def _function_attributes(attributes: dict[str, Attribute]) -> dict[str, Any]:
    return {
        key: ffi_value(relax_ops.decode_value(value))
        for key, value in attributes.items()
        if key not in BOOKKEEPING
    }


def _tensor_signature(value: Any) -> str | None:
    """``float16_3x5`` for a Relax tensor of static shape, else None."""
    type_ = getattr(value, "ty", None)
    if not isinstance(type_, relax.TensorType):
        return None
    dims = [getattr(d, "value", None) for d in getattr(type_.shape, "values", [None])]
    if None in dims:  # unknown rank or symbolic dimensions
        return None
    return "_".join([str(type_.dtype), "x".join(map(str, dims))]).rstrip("_")


class RelaxExporter:
    """Exports one relay-dialect module through a ``relax.BlockBuilder``."""

    def __init__(self, module: ModuleOp, random_constants: int | None = None):
        self.module = module
        self.builder = relax.BlockBuilder()
        self.module_builder = self.builder
        """Where global functions go; `builder` is the one building the current function."""
        self.global_vars: dict[str, tvm.ir.GlobalVar] = {}
        self.random_values = self._random_values(random_constants)
        self.dataflow = False
        """Whether the block being built is a dataflow block."""
        self.static_types: dict[Attribute, Any] = {}
        """Relax types of static builtin types (no ``?``), built once each."""
        self.confirmed: set[tuple[Any, ...]] = set()
        """Operator signatures for which TVM's inference gave the recorded type."""
        self.operator_attrs: dict[tuple[Any, ...], tuple[dict[str, Any], Any]] = {}
        """Decoded attributes and the Relax attrs object, by operator and attributes."""

    def export(self) -> tvm.IRModule:
        functions: dict[str, FuncOp] = {}
        for op in self.module.ops:
            if not isinstance(op, FuncOp):
                raise RelaxExportError(f"'{op.name}' at module level is not a function")
            functions[op.sym_name.data] = op
        for func in _callees_first(functions):
            self._global_function(func)
        return self.module_builder.get()

    # -- what compositions use (ExportContext) ---------------------------------

    def emit(self, expr: Any) -> Any:
        """Bind intermediate value `expr` in the block being built."""
        return self.builder.emit(expr)

    def call_te(self, compute: Any, *args: Any, **kwargs: Any) -> Any:
        """The ``call_tir`` of `compute` on `args`, its PrimFunc added to the module
        under the compute's name and the tensor arguments' dtypes and shapes
        (``log10_float16_3x5``): modules exported apart then merge without two
        PrimFuncs of different signatures sharing a name."""
        base = kwargs.pop("primfunc_name_hint", None) or compute.__name__
        typed = [self.builder.normalize(a) if isinstance(a, relax.Expr) else a for a in args]
        name = "_".join([base, *filter(None, map(_tensor_signature, typed))])
        return self.module_builder.call_te(compute, *args, primfunc_name_hint=name, **kwargs)

    # -- functions ------------------------------------------------------------

    def _global_function(self, func: FuncOp) -> None:
        name = func.sym_name.data
        attributes = _function_attributes(dict(func.attributes))
        visibility = func.sym_visibility.data if func.sym_visibility else "public"
        if visibility != "private":
            attributes.setdefault("global_symbol", name)
        block = func.body.block
        params = self._params(block, func.attributes, name)
        with self.builder.function(name, params, attributes, private=True):
            result = self._body(block, params, BINDING_BLOCK in func.attributes)
            self.global_vars[name] = self.builder.emit_func_output(result)

    def _local_function(self, fn: relay.FnOp, name: str) -> relax.Function:
        """The Relax function of a ``relay.fn`` body (without ``global_symbol``)."""
        outer, self.builder = self.builder, relax.BlockBuilder()
        try:
            block = fn.body.block
            params = self._params(block, fn.attributes, name)
            attributes = _function_attributes(fn.relay_attributes())
            with self.builder.function(name, params, attributes, private=True):
                result = self._body(block, params, BINDING_BLOCK in fn.attributes)
                global_var = self.builder.emit_func_output(result)
            return self.builder.get()[global_var]
        finally:
            self.builder = outer

    def _params(self, block: Block, attributes: Any, function: str) -> list[relax.Var]:
        names = attributes.get(SHAPE_VARS)
        shape_vars = iter([s.data for s in names.data] if isinstance(names, ArrayAttr) else [])
        symbols: dict[str, Any] = {}
        params = []
        for index, arg in enumerate(block.args):
            ty = self._type(arg.type, f"parameter #{index} of '{function}'", shape_vars, symbols)
            params.append(relax.Var(relay_name(arg) or f"p{index}", ty))
        return params

    def _body(self, block: Block, params: list[relax.Var], binding_block: bool) -> Any:
        values: dict[SSAValue, Any] = dict(zip(block.args, params))
        terminator = block.last_op
        if not isinstance(terminator, FuncReturnOp | relay.ReturnOp):
            raise RelaxExportError("a function body must end in a return")
        if len(terminator.operands) != 1:
            raise RelaxExportError("a function must return exactly one value")
        result = terminator.operands[0]
        outputs = set() if binding_block else returned_values(block)
        from_relax = relax_body_kind(block) is not None
        scope = nullcontext() if binding_block else self.builder.dataflow()
        local_functions: dict[str, tuple[relax.Function, Any]] = {}
        outer_dataflow, self.dataflow = self.dataflow, not binding_block
        try:
            with scope:
                for op in block.ops:
                    if op is terminator:
                        continue
                    try:
                        values[op.results[0]] = self._op(
                            op, values, outputs, from_relax, local_functions
                        )
                    except (RuntimeError, TypeError, ValueError) as error:
                        # TVM's own errors: attrs it cannot build, types it cannot infer.
                        what = op.operator_name if isinstance(op, relay.OperatorOp) else op.name
                        message = str(error).strip().splitlines()[-1]
                        raise RelaxExportError(f"TVM rejects '{what}': {message}") from error
        finally:
            self.dataflow = outer_dataflow
        return values[result]

    # -- ops ------------------------------------------------------------------

    def _op(
        self,
        op: Operation,
        values: dict[SSAValue, Any],
        outputs: set[SSAValue],
        from_relax: bool,
        local_functions: dict[str, tuple[relax.Function, Any]],
    ) -> Any:
        """The Relax value of `op`'s result: the variable it is bound to, or an inline expression.

        Bindings follow bindings.py: a ``relay.let`` binds its expression
        (or aliases its operand); a tuple or constant no let binds is
        inline; anything else is bound to a variable of its own, an output
        ``Var`` when the body returns it. A ``relay.let`` without
        ``dataflow`` is a ``Var`` in a function imported from Relax; in one
        from Relay it is a dataflow variable unless returned, like any
        other binding.
        """
        if len(op.results) != 1:
            raise RelaxExportError(f"'{op.name}' must have exactly one result")
        result = op.results[0]
        name = relay_name(result) or ""
        if isinstance(op, relay.LetOp):
            if op.dataflow is not None:
                if not self.dataflow:
                    raise RelaxExportError("a dataflow variable outside a dataflow block")
                output = False
            else:
                output = self.dataflow and (from_relax or result in outputs)
            source = let_expression(op)
            if source is None:
                return self._emit(values[op.value], name, output)
            return self._bound(source, values, local_functions, name, output)
        if expression_let(result) is not None:
            return None  # bound by its let, which comes later
        if isinstance(op, relay.TupleOp | relay.ConstantOp):
            return self._expression(op, values, local_functions)
        return self._bound(op, values, local_functions, name, result in outputs)

    def _emit(self, expr: Any, name: str, output: bool) -> Any:
        if output:
            return self.builder.emit_output(expr, name)
        return self.builder.emit(expr, name)

    def _bound(
        self,
        op: Operation,
        values: dict[SSAValue, Any],
        local_functions: dict[str, tuple[relax.Function, Any]],
        name: str,
        output: bool,
    ) -> Any:
        """Bind the value of `op` to a new variable named `name`, an output `Var` if `output`."""
        if isinstance(op, relay.OperatorOp):
            call = self._operator(op, values)
            if _composed(op):
                return self._bind_composed(op, call, name, output)
            if name:
                var = self._bind_confirmed(op, call, name, output)
                if var is not None:
                    return var
            return self._emit(call, name, output)
        return self._emit(self._expression(op, values, local_functions), name, output)

    def _expression(
        self,
        op: Operation,
        values: dict[SSAValue, Any],
        local_functions: dict[str, tuple[relax.Function, Any]],
    ) -> Any:
        """The Relax expression `op` computes, before it is bound to anything."""
        if isinstance(op, relay.ConstantOp):
            return self._constant(op)
        if isinstance(op, relay.TupleOp):
            return tvm.ir.Tuple([values[f] for f in op.fields])
        if isinstance(op, relay.TupleGetItemOp):
            return tvm.ir.TupleGetItem(values[op.tuple_value], op.index.value.data)
        if isinstance(op, relay.OperatorOp):
            return self._operator(op, values)
        if isinstance(op, relay.FnOp):
            callee = self._fn_callee(op, local_functions)
            return relax.Call(callee, [values[a] for a in op.args])
        if isinstance(op, CallOp):
            callee_name = op.callee.string_value()
            if callee_name not in self.global_vars:
                raise RelaxExportError(f"call of unknown function '{callee_name}'")
            return relax.Call(self.global_vars[callee_name], [values[a] for a in op.arguments])
        raise RelaxExportError(f"'{op.name}' has no Relax counterpart")

    def _bind_composed(self, op: relay.OperatorOp, expr: Any, name: str, output: bool) -> Any:
        """Bind the result of a composition, checking it has the recorded type."""
        var = self._emit(expr, name, output)
        expected = self._static_type(op.results[0].type)
        if expected is not None and not tvm_ffi.structural_equal(var.ty, expected):
            raise RelaxExportError(
                f"'{op.operator_name}' exports as {var.ty}, but its type is {expected}"
            )
        return var

    def _bind_confirmed(
        self, op: relay.OperatorOp, call: Any, name: str, output: bool
    ) -> Any | None:
        """Bind operator call `call`, skipping TVM's type inference once it is confirmed.

        ``BlockBuilder.emit`` infers every call's type again, which is most
        of an export's time (about 180 µs a call, against 6 µs for the rest).
        The dialect records each result's type already, and inference
        depends only on the operator, its attributes and its argument types.
        So the first call of each such signature is emitted normally, and
        when TVM infers the recorded type and leaves the call as it is (no
        normalisation rewrite), later calls of the same signature are bound
        directly with the recorded type, under the name ``emit`` would give.
        Calls with symbolic shapes or inline (tuple) arguments always go
        through ``emit``. Returns None when `call` must be bound normally.
        """
        result = op.results[0]
        ty = self._static_type(result.type)
        if ty is None or not all(
            isinstance(a, tvm.ir.Var | tvm.ir.GenericConst) for a in call.args
        ):
            return None
        key = _signature(op)
        if key is None:
            return None
        if key in self.confirmed:
            _update_type(call, ty)
            var_type = relax.DataflowVar if self.dataflow and not output else relax.Var
            var = var_type(self.builder.get_unique_name(name), ty)
            self.builder.emit_normalized(relax.VarBinding(var, call))
            return var
        var = self.builder.emit_output(call, name) if output else self.builder.emit(call, name)
        bound = self.builder.lookup_binding(var)
        if bound is not None and bound.same_as(call) and tvm_ffi.structural_equal(var.ty, ty):
            self.confirmed.add(key)
        return var

    def _static_type(self, type_: Attribute) -> Any | None:
        """The Relax type of `type_` when it has no symbolic dimension, else None."""
        if not isinstance(type_, TensorType):
            return None
        cached = self.static_types.get(type_)
        if cached is None and DYNAMIC_INDEX not in type_.get_shape():
            cached = self.static_types[type_] = self._type(type_, "result", iter(()), {})
        return cached

    def _fn_callee(
        self, fn: relay.FnOp, local_functions: dict[str, tuple[relax.Function, Any]]
    ) -> Any:
        local = fn.attributes.get(LOCAL_NAME)
        if isinstance(local, StringAttr):
            func = self._local_function(fn, local.data)
            known = local_functions.get(local.data)
            if known is not None and tvm_ffi.structural_equal(known[0], func):
                return known[1]
            var = self.builder.emit(func, local.data)
            local_functions[local.data] = (func, var)
            return var
        recorded = fn.attributes.get(GLOBAL_NAME)
        name = recorded.data if isinstance(recorded, StringAttr) else _fused_name(fn)
        func = self._local_function(fn, name)
        # add_func returns the existing GlobalVar of a structurally equal function.
        return self.module_builder.add_func(func, name)

    def _operator(self, op: relay.OperatorOp, values: dict[SSAValue, Any]) -> Any:
        operands = [values[a] for a in op.args]
        if isinstance(op, relay.GenericOperatorOp):
            return self._generic(op, operands)
        assert isinstance(op, relay.RegisteredOperatorOp)  # the only other operator ops
        mapping = op.OPERATOR.relax
        composition = RELAX_EXPORTS.get(op.operator_name)  # loads PREFERRED too
        preferred = PREFERRED.get(op.operator_name)
        if composition is not None and preferred is not None and preferred(op):
            return composition(self, op, operands)
        if not isinstance(mapping, relax_ops.RelaxOp):
            if composition is None:
                raise RelaxExportError(
                    f"'{op.operator_name}' has no Relax counterpart ({mapping.reason})"
                )
            return composition(self, op, operands)
        key = _signature(op)
        cached = self.operator_attrs.get(key) if key is not None else None
        if cached is None:
            try:
                cached = self._operator_attrs(op, mapping)
            except RelaxExportError:
                # Attributes the mapping cannot express: a composition may still.
                if composition is None:
                    raise
                return composition(self, op, operands)
            if key is not None:
                self.operator_attrs[key] = cached
        decoded, attrs = cached
        args: list[Any] = []
        remaining = iter(operands)
        for role in mapping.args or (relax_ops.TENSOR,) * len(operands):
            if role.role is relax_ops.ArgRole.TENSOR:
                args.append(next(remaining))
                continue
            value = decoded[role.attr]
            if value is None:
                if role.optional:
                    continue
                raise RelaxExportError(f"'{op.operator_name}' needs '{role.attr}'")
            if role.role is relax_ops.ArgRole.SHAPE:
                args.append(relax.ShapeExpr(value))
            elif role.role is relax_ops.ArgRole.PRIM:
                args.append(ffi_value(value))
            else:
                # Relax takes int64 tuples only; Relay text may spell the bounds as i32.
                wide = [PrimValue(v.value, "int64") for v in value]
                args.append(tvm.ir.Tuple([ffi_value(v) for v in wide]))
        return relax.Call(tvm.ir.Op.get(mapping.relax_name), args, attrs)

    def _operator_attrs(
        self, op: relay.OperatorOp, mapping: relax_ops.RelaxOp
    ) -> tuple[dict[str, Any], Any]:
        """`op`'s decoded attribute values and its Relax attrs object (shared by equal ops)."""
        try:
            decoded = mapping.decode_attributes(op)
        except (TypeError, ValueError) as error:  # TypeError: a value known only by reference
            raise RelaxExportError(str(error)) from None
        attrs = None
        if mapping.attrs_type is not None:
            fields = [f.relax for f in mapping.fields] + [k for k, _ in mapping.implied]
            attrs = tvm.ir.make_node(
                mapping.attrs_type, **{k: ffi_value(decoded[k]) for k in fields}
            )
        return decoded, attrs

    def _generic(self, op: relay.GenericOperatorOp, operands: list[Any]) -> Any:
        name = op.operator_name
        if not name.startswith("relax."):
            raise RelaxExportError(f"'{name}' has no Relax counterpart")
        try:
            relax_op = tvm.ir.Op.get(name)
        except AttributeError:  # what TVM raises for an unregistered operator
            raise RelaxExportError(f"unknown Relax operator '{name}'") from None
        attributes = dict(op.relay_attributes())
        literal_args = {
            int(key.removeprefix(ARG_PREFIX)): attributes.pop(key)
            for key in list(attributes)
            if key.startswith(ARG_PREFIX)
        }
        attrs_type = attributes.pop(ATTRS_TYPE, None)
        args: list[Any] = []
        remaining = iter(operands)
        for index in range(len(operands) + len(literal_args)):
            if index in literal_args:
                args.append(_literal_argument(literal_args[index]))
            else:
                args.append(next(remaining))
        attrs = None
        if isinstance(attrs_type, StringAttr):
            fields = {k: ffi_value(relax_ops.decode_value(v)) for k, v in attributes.items()}
            attrs = tvm.ir.make_node(attrs_type.data, **fields)
        elif attributes:
            raise RelaxExportError(f"'{name}' has attributes but no '{ATTRS_TYPE}'")
        return relax.Call(relax_op, args, attrs)

    # -- constants and types ----------------------------------------------------

    def _constant(self, op: relay.ConstantOp) -> Any:
        type_ = op.result.type
        assert isinstance(type_, TensorType)
        shape = tuple(type_.get_shape())
        dtype = dtypes.dtype_name(type_.element_type)
        if isinstance(op.value, DenseIntOrFPElementsAttr):
            array = np.frombuffer(op.value.data.data, dtype=_numpy_dtype(dtype))
            if dtype == "bool":
                array = array.view(np.uint8) != 0  # MLIR text parses `true` as 0xff
            size = int(np.prod(shape))
            array = (
                np.full(shape, array[0]) if array.size == 1 and size != 1 else array.reshape(shape)
            )
        elif op.meta_index is not None and op.meta_index.value.data in self.random_values:
            array = self.random_values[op.meta_index.value.data]
        elif op.meta_index is not None:
            raise RelaxExportError(
                f"constant meta[relay.Constant][{op.meta_index.value.data}] has no value; "
                f"pass random_constants=<seed> to export random values"
            )
        else:
            raise RelaxExportError("dense_resource constants are not supported")
        return relax.const(array, dtype)

    def _random_values(self, seed: int | None) -> dict[int, np.ndarray]:
        """Random values for the constants known only by ``meta_index``, by index."""
        if seed is None:
            return {}
        try:
            return draw_random_constants(self.module, seed)
        except InterpreterError as error:
            raise RelaxExportError(str(error)) from None

    def _type(
        self,
        type_: Attribute,
        what: str,
        shape_vars: Iterator[str],
        symbols: dict[str, Any],
    ) -> Any:
        if isinstance(type_, TensorType):
            dims: list[Any] = []
            for dim in type_.get_shape():
                if dim != DYNAMIC_INDEX:
                    dims.append(dim)
                    continue
                # Recorded names share variables; an unnamed `?` (Relay's Any) is its own.
                name = next(shape_vars, None) or f"any{len(symbols)}"
                dims.append(symbols.setdefault(name, tvm.tirx.Var(name, "int64")))
            return relax.TensorType(dims, dtypes.dtype_name(type_.element_type))
        if isinstance(type_, TupleType):
            return tvm.ir.TupleType(
                [self._type(t, what, shape_vars, symbols) for t in type_.types.data]
            )
        raise RelaxExportError(f"{what}: type {type_} is not a tensor or a tuple")


def _numpy_dtype(dtype: str) -> Any:
    if dtype == "bfloat16":
        import ml_dtypes

        return ml_dtypes.bfloat16
    return np.dtype(dtypes.NUMPY_DTYPES.get(dtype, dtype))


def _literal_argument(attr: Attribute) -> Any:
    """A generic operator's non-tensor argument (see the importer's encoding)."""
    if not isinstance(attr, DictionaryAttr):
        raise RelaxExportError(f"malformed literal argument {attr}")
    kind = attr.data["kind"]
    value = attr.data["value"]
    assert isinstance(kind, StringAttr)
    match kind.data:
        case "shape":
            return relax.ShapeExpr([int(v) for v in relay.attr_value(value)])
        case "string":
            assert isinstance(value, StringAttr)
            return tvm.ir.StringImm(value.data)
        case "prim":
            return ffi_value(relax_ops.typed_value(value))
        case "prim_tuple":
            assert isinstance(value, ArrayAttr)
            return tvm.ir.Tuple([ffi_value(relax_ops.typed_value(v)) for v in value.data])
    raise RelaxExportError(f"unknown literal argument kind '{kind.data}'")


def _composed(op: relay.OperatorOp) -> bool:
    """Whether `op` exports through a composition (its row has no Relax mapping)."""
    return isinstance(op, relay.RegisteredOperatorOp) and not isinstance(
        op.OPERATOR.relax, relax_ops.RelaxOp
    )


def _signature(op: Operation) -> tuple[Any, ...] | None:
    """What TVM's type inference of `op`'s call depends on, hashable; None if it cannot be.

    The operator, its attributes and properties, its operand types and the
    result type (which the confirmation compares against).
    """
    key = (
        op.name,
        tuple(op.attributes.items()),
        tuple(op.properties.items()),
        tuple(a.type for a in op.operands),
        tuple(r.type for r in op.results),
    )
    try:
        hash(key)
    except TypeError:  # e.g. a DictionaryAttr
        return None
    return key


def _fused_name(fn: relay.FnOp) -> str:
    """TVM's name for a fused function: ``fused_`` and its operators' names."""
    names = [
        op.OPERATOR.relax.relax_name
        for op in fn.body.walk()
        if isinstance(op, relay.RegisteredOperatorOp)
        and isinstance(op.OPERATOR.relax, relax_ops.RelaxOp)
    ]
    return "fused_" + "_".join(n.replace(".", "_") for n in names) if names else "fused"


def _callees_first(functions: dict[str, FuncOp]) -> list[FuncOp]:
    """The functions ordered so that each comes after every function it calls."""
    ordered: list[FuncOp] = []
    state: dict[str, str] = {}

    def visit(name: str) -> None:
        if state.get(name) == "done":
            return
        if state.get(name) == "active":
            raise RelaxExportError(f"recursive call of '{name}' is not supported")
        state[name] = "active"
        for op in functions[name].walk():
            if isinstance(op, CallOp) and op.callee.string_value() in functions:
                visit(op.callee.string_value())
        state[name] = "done"
        ordered.append(functions[name])

    for name in functions:
        visit(name)
    return ordered
