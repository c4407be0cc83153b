"""Live TVM Relax modules (apache-tvm 0.27) into the relay dialect.

``import_relax(mod)`` walks every Relax function once, keeping a map from
Relax variables to SSA values, in the manner of torch-mlir's
``fx_importer``:

* each Relax function becomes a ``func.func`` whose discardable attributes
  are the function's attributes (``global_symbol``, ``Codegen``, ...);
  a function without ``global_symbol`` is ``private``;
* a private global function carrying ``Composite`` or ``Primitive`` that is
  only ever called (``FuseOpsByPattern``'s output) becomes a ``relay.fn`` at
  each call site, with its body cloned there, and is not emitted as a
  ``func.func``; a local function bound inside a function
  (``annotate_codegen``, ``MergeCompositeFunctions``) likewise becomes a
  ``relay.fn`` at each of its call sites;
* each binding becomes one op whose result carries the variable's name
  (names are cosmetic); the binding itself is recorded as bindings.py
  describes: a call or projection is bound to the block's own kind of
  variable (a ``DataflowVar`` in a dataflow block, a ``Var`` in a binding
  block, or the output ``Var`` a dataflow block returns) without further
  ado, anything else takes a ``relay.let``: any other ``Var`` in a dataflow
  block (``relay.let``), a bound tuple or constant
  (``relay.let``, ``dataflow`` for a ``DataflowVar``), an alias ``y = x``
  (``relay.let`` of ``x``, whose own binding is then made a ``relay.let``
  too if it was implicit and nothing else used it yet);
  operators map through :mod:`relay_xdsl.dialects.relay.relax_mapping` (onto the
  Relay operator where the call fits it, else onto a Relax-only one), and any other operator
  becomes a generic ``relay.op "relax.<name>"`` with all its attributes;
* constants keep their bytes exactly; tensor types become builtin tensors
  (``?`` for symbolic dimensions), tuple types builtin tuples.

What the dialect has no op for is recorded in attributes, so that
:func:`relay_xdsl.exporters.relax.export_relax` rebuilds a structurally
equal module (names in :mod:`relay_xdsl.dialects.relay.relax_mapping`):

* ``relax.global_name``/``relax.local_name`` on a ``relay.fn``: the global
  function or local variable it came from;
* ``relax.binding_block`` on a function: its body is a plain binding block,
  not a dataflow block;
* ``relax.shape_vars`` on a function: the names of the symbolic parameter
  dimensions, in order of appearance;
* a ``relay.tuple``/``relay.constant`` that no ``relay.let`` binds is an
  inline argument.

Constructs the dialect cannot express raise :class:`RelaxImportError`,
naming the construct and the function.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import tvm
from tvm import relax
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
    TupleType,
    UnitAttr,
    UnknownLoc,
)
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue, TypeAttribute

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay import relax_mapping as relax_ops
from relay_xdsl.dialects.relay.names import set_relay_name
from relay_xdsl.dialects.relay.relax_mapping import (
    ARG_PREFIX,
    ATTRS_TYPE,
    BINDING_BLOCK,
    DATAFLOW,
    GLOBAL_NAME,
    LOCAL_NAME,
    SHAPE_VARS,
    ArgRole,
    PrimValue,
    RelaxOp,
    Unmappable,
)


class RelaxImportError(Exception):
    """A Relax construct that the relay dialect cannot express."""


def import_relax(mod: tvm.IRModule) -> ModuleOp:
    """The relay-dialect module of Relax module `mod`."""
    return RelaxImporter(mod).import_module()


def python_value(value: Any, what: str) -> Any:
    """A TVM FFI value (attribute field, function attribute) as a plain Python value."""
    if isinstance(value, PrimValue):
        return value
    if isinstance(value, str):
        return str(value)  # also plain-ifies str subclasses (FFI String, dtype)
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, tvm.tirx.IntImm):
        return PrimValue(int(value.value), str(value.ty.dtype))
    if isinstance(value, tvm.tirx.FloatImm):
        return PrimValue(float(value.value), str(value.ty.dtype))
    if isinstance(value, tvm.ir.StringImm):
        return str(value.value)
    type_name = type(value).__name__
    if hasattr(value, "items"):
        return {str(k): python_value(v, what) for k, v in value.items()}
    if isinstance(value, Sequence) or type_name == "Array":
        return tuple(python_value(v, what) for v in value)
    raise RelaxImportError(f"{what}: unsupported value {value!r} of type {type_name}")


def _attrs_fields(attrs: tvm.ir.Attrs) -> tuple[str, dict[str, Any]]:
    """The type key and Python field values of an operator's attrs object."""
    info = type(attrs).__tvm_ffi_type_info__
    what = f"attribute of {info.type_key}"
    return info.type_key, {
        f.name: python_value(getattr(attrs, f.name), f"{what}.{f.name}") for f in info.fields
    }


class _CallParts(NamedTuple):
    """A Relax operator call as import reads it: the call, the type key and
    fields of its attrs (None and empty without attrs), and its result type."""

    call: tvm.ir.Call
    attrs_type: str | None
    fields: dict[str, Any]
    result_type: Attribute


class _Scope:
    """What one function body (or ``relay.fn`` body) sees: its values and local functions."""

    def __init__(self, block: Block, function_name: str):
        self.block = block
        self.function_name = function_name
        self.dataflow = True
        """Whether the bindings are in a dataflow block (else a binding block)."""
        self.returned: set[tvm.ir.Var] = set()
        """The variables the body returns (fields of a returned tuple included)."""
        self.values: dict[tvm.ir.Expr, SSAValue] = {}
        self.constants: dict[tvm.ir.Expr, SSAValue] = {}
        self.local_functions: dict[tvm.ir.Expr, relax.Function] = {}

    def add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]


class RelaxImporter:
    """Imports one Relax ``IRModule``: each function is walked once."""

    def __init__(self, mod: tvm.IRModule):
        self.mod = mod
        self.functions: dict[str, relax.Function] = {}
        for global_var, func in mod.functions.items():
            name = global_var.name_hint
            if not isinstance(func, relax.Function):
                raise RelaxImportError(
                    f"function '{name}' is a {type(func).__name__}; only Relax "
                    f"functions can be imported"
                )
            self.functions[name] = func
        self.types: dict[tuple[str, tuple[int, ...]], TensorType] = {}
        """Static tensor types by dtype and shape: most values share a handful."""
        self.attributes: dict[tuple[Any, ...], dict[str, Attribute]] = {}
        """Encoded operator attributes by operator, attrs type and field values."""
        self.fn_templates: dict[relax.Function, tuple[Region, dict[str, Attribute]]] = {}
        """Per inlined function: its imported body (never inserted) and attributes."""
        self.inlined = self._inlined_globals()

    def _inlined_globals(self) -> set[str]:
        """Private Composite/Primitive globals that are only ever called."""
        candidates = [
            name
            for name, func in self.functions.items()
            if "global_symbol" not in func.attrs
            and ("Composite" in func.attrs or "Primitive" in func.attrs)
        ]
        if not candidates:
            return set()  # nothing to count: skip the walk over every expression
        references: Counter[str] = Counter()
        calls: Counter[str] = Counter()

        def visit(node: Any) -> None:
            if isinstance(node, tvm.ir.GlobalVar):
                references[node.name_hint] += 1
            elif isinstance(node, tvm.ir.Call) and isinstance(node.op, tvm.ir.GlobalVar):
                calls[node.op.name_hint] += 1

        for func in self.functions.values():
            relax.analysis.post_order_visit(func, visit)
        return {name for name in candidates if calls[name] > 0 and references[name] == calls[name]}

    def import_module(self) -> ModuleOp:
        module = ModuleOp([])
        for name in sorted(self.functions):
            if name not in self.inlined:
                module.body.block.add_op(self._global_function(name))
        return module

    # -- functions ------------------------------------------------------------

    def _global_function(self, name: str) -> FuncOp:
        func = self.functions[name]
        block, attributes, result = self._function_parts(func, name)
        block.add_op(FuncReturnOp(result))
        visibility = None if "global_symbol" in func.attrs else "private"
        op = FuncOp(
            name,
            FunctionType.from_lists([a.type for a in block.args], [result.type]),
            Region(block),
            visibility,
        )
        op.attributes.update(attributes)
        return op

    def _function_parts(
        self, func: relax.Function, name: str
    ) -> tuple[Block, dict[str, Attribute], SSAValue]:
        """The unterminated body block, the attributes and the result of `func`."""
        if not func.is_pure:
            raise RelaxImportError(f"function '{name}' is impure")
        shape_vars: list[str] = []
        types = [
            self._type(p.ty, f"parameter '{p.name}' of function '{name}'", shape_vars)
            for p in func.params
        ]
        block = Block(arg_types=types)
        scope = _Scope(block, name)
        for param, arg in zip(func.params, block.args):
            set_relay_name(arg, param.name)
            scope.values[param] = arg
        attributes = {
            key: _encode(value, f"attribute '{key}' of function '{name}'")
            for key, value in func.attrs.items()
        }
        if shape_vars:
            attributes[SHAPE_VARS] = ArrayAttr([StringAttr(s) for s in shape_vars])
        result, dataflow = self._body(func, scope)
        attributes[DATAFLOW if dataflow else BINDING_BLOCK] = UnitAttr()
        return block, attributes, result

    def _body(self, func: relax.Function, scope: _Scope) -> tuple[SSAValue, bool]:
        """Import `func`'s body into `scope`: its result, and whether its block is dataflow."""
        body = func.body
        name = scope.function_name
        if not isinstance(body, relax.SeqExpr):
            raise RelaxImportError(
                f"function '{name}': body is a {type(body).__name__}, not a SeqExpr"
            )
        if len(body.blocks) > 1:
            raise RelaxImportError(
                f"function '{name}' has {len(body.blocks)} binding blocks; only a "
                f"single dataflow or binding block is supported"
            )
        dataflow = True
        scope.returned = set(_returned_variables(body.body))
        for block in body.blocks:
            dataflow = scope.dataflow = isinstance(block, relax.DataflowBlock)
            for binding in block.bindings:
                self._binding(binding, scope)
        return self._expr(body.body, scope), dataflow

    def _binding(self, binding: Any, scope: _Scope) -> None:
        if not isinstance(binding, relax.VarBinding):
            raise RelaxImportError(
                f"function '{scope.function_name}': {type(binding).__name__} of "
                f"'{binding.var.name}' is not supported"
            )
        var, value = binding.var, binding.value
        if isinstance(value, relax.Function):
            scope.local_functions[var] = value
            return
        dataflow_var = isinstance(var, relax.DataflowVar)
        if isinstance(value, tvm.ir.Var):
            if value in scope.local_functions:
                scope.local_functions[var] = scope.local_functions[value]
                return
            # An alias `y = x`: a relay.let of x's variable.
            result = self._let(self._variable(value, scope), scope, dataflow_var)
        else:
            if isinstance(value, tvm.ir.GenericConst):
                # A bound constant is its own value, never shared with inline uses.
                result = scope.add(self._constant(value, scope))
            else:
                result = self._expr(value, scope)
            owner = result.owner
            if isinstance(owner, relay.TupleOp | relay.ConstantOp) or (
                dataflow_var != scope.dataflow and var not in scope.returned
            ):
                # Not the variable every other op is bound to in this block;
                # a returned value is implicitly bound to its output Var.
                result = self._let(result, scope, dataflow_var)
        set_relay_name(result, var.name)
        scope.values[var] = result

    def _let(self, value: SSAValue, scope: _Scope, dataflow_var: bool) -> SSAValue:
        return scope.add(relay.LetOp(value, dataflow=dataflow_var))

    def _variable(self, var: tvm.ir.Var, scope: _Scope) -> SSAValue:
        """The value of `var`, made a ``relay.let`` if a new let of it would read as its expression."""
        value = self._expr(var, scope)
        if (
            isinstance(value, OpResult)
            and not value.uses
            and not isinstance(value.owner, relay.LetOp)
            and value.owner.parent is scope.block
        ):
            # The op is implicitly bound to var (see bindings.py); a let
            # right after it makes that binding explicit, keeping its place.
            let = relay.LetOp(value, dataflow=isinstance(var, relax.DataflowVar))
            scope.block.insert_op_after(let, value.owner)
            let.result.name_hint, value.name_hint = value.name_hint, None
            let.location, value.owner.location = value.owner.location, UnknownLoc()
            scope.values[var] = value = let.result
        return value

    # -- expressions ----------------------------------------------------------

    def _expr(self, expr: Any, scope: _Scope) -> SSAValue:
        where = f"function '{scope.function_name}'"
        if isinstance(expr, tvm.ir.GenericConst):
            if expr not in scope.constants:
                scope.constants[expr] = scope.add(self._constant(expr, scope))
            return scope.constants[expr]
        if isinstance(expr, tvm.ir.Var):
            if expr in scope.values:
                return scope.values[expr]
            if expr in scope.local_functions:
                raise RelaxImportError(f"{where}: local function '{expr.name}' is used as a value")
            raise RelaxImportError(f"{where}: free variable '{expr.name}'")
        if isinstance(expr, tvm.ir.Tuple):
            return scope.add(relay.TupleOp([self._expr(f, scope) for f in expr.fields]))
        if isinstance(expr, tvm.ir.TupleGetItem):
            tuple_value = self._expr(expr.tuple_value, scope)
            if not isinstance(tuple_value.type, TupleType):
                raise RelaxImportError(f"{where}: projection out of a non-tuple")
            return scope.add(relay.TupleGetItemOp(tuple_value, int(expr.index)))
        if isinstance(expr, tvm.ir.Call):
            return self._call(expr, scope)
        kinds = {
            relax.If: "If (control flow)",
            relax.SeqExpr: "nested SeqExpr",
            relax.ShapeExpr: "ShapeExpr value",
            relax.Function: "function value",
            relax.ExternFunc: "ExternFunc",
            tvm.ir.GlobalVar: "global function used as a value",
        }
        for kind, description in kinds.items():
            if isinstance(expr, kind):
                raise RelaxImportError(f"{where}: {description} is not supported")
        if isinstance(expr, tvm.ir.Constant):
            raise RelaxImportError(
                f"{where}: PrimValue {expr} is only supported as an operator argument"
            )
        raise RelaxImportError(f"{where}: {type(expr).__name__} is not supported")

    def _call(self, call: tvm.ir.Call, scope: _Scope) -> SSAValue:
        callee = call.op
        if isinstance(callee, tvm.ir.Op):
            return scope.add(self._operator(call, scope))
        if isinstance(callee, tvm.ir.GlobalVar):
            name = callee.name_hint
            args = [self._expr(a, scope) for a in call.args]
            if name in self.inlined:
                return scope.add(self._fn(self.functions[name], args, call, GLOBAL_NAME, name))
            result_type = self._type(call.ty, f"call of '{name}'")
            return scope.add(CallOp(name, args, [result_type]))
        if isinstance(callee, tvm.ir.Var) and callee in scope.local_functions:
            args = [self._expr(a, scope) for a in call.args]
            func = scope.local_functions[callee]
            return scope.add(self._fn(func, args, call, LOCAL_NAME, callee.name))
        raise RelaxImportError(
            f"function '{scope.function_name}': call of a {type(callee).__name__} is not supported"
        )

    def _fn(
        self,
        func: relax.Function,
        args: list[SSAValue],
        call: tvm.ir.Call,
        origin: str,
        name: str,
    ) -> relay.FnOp:
        """A ``relay.fn`` holding a fresh copy of `func`'s body, called with `args`.

        The body is imported once per function and cloned for each call site:
        FuseOpsByPattern's functions have hundreds of call sites, and a clone
        costs a fifth of walking the Relax function again.
        """
        template = self.fn_templates.get(func)
        if template is None:
            block, attributes, result = self._function_parts(func, name)
            block.add_op(relay.ReturnOp(result))
            attributes[origin] = StringAttr(name)
            template = self.fn_templates[func] = (Region(block), attributes)
        body, attributes = template
        result_type = self._type(call.ty, f"call of '{name}'")
        return relay.FnOp(args, result_type, body.clone(), dict(attributes))

    # -- operators ------------------------------------------------------------

    def _operator(self, call: tvm.ir.Call, scope: _Scope) -> relay.OperatorOp:
        name = call.op.name
        where = f"function '{scope.function_name}': '{name}'"
        if len(call.ty_args) > 0:
            raise RelaxImportError(f"{where} with type arguments is not supported")
        attrs_type, fields = (None, {}) if call.attrs is None else _attrs_fields(call.attrs)
        result_type = self._type(call.ty, f"result of {where}")
        parts = _CallParts(call, attrs_type, fields, result_type)
        for op_class in relay.RELAX_MAPPED.get(name, ()):
            try:
                return self._mapped(op_class, parts, scope)
            except Unmappable:
                pass
        return self._generic(parts, scope)

    def _mapped(
        self, op_class: type[relay.RegisteredOperatorOp], parts: _CallParts, scope: _Scope
    ) -> relay.OperatorOp:
        call, attrs_type, fields, result_type = parts
        mapping = op_class.OPERATOR.relax
        assert isinstance(mapping, RelaxOp)
        if attrs_type != mapping.attrs_type:
            raise Unmappable(f"attrs {attrs_type}")
        attributes = self._encoded_attributes(op_class, mapping, attrs_type, fields)
        roles = mapping.args or (relax_ops.TENSOR,) * len(call.args)
        required = sum(1 for r in roles if not r.optional)
        if not required <= len(call.args) <= len(roles):
            raise Unmappable(f"{len(call.args)} arguments")
        tensors = []
        for role, arg in zip(roles, call.args):
            if role.role is ArgRole.TENSOR:
                if not _is_value(arg):
                    raise Unmappable("non-tensor argument")
                tensors.append(arg)
            else:
                attributes[role.attr] = _argument_attribute(role.role, arg)
        if mapping.import_hook is not None:
            mapping.import_hook(attributes)
        if op_class.OPERATOR.arity not in (None, len(tensors)):
            raise Unmappable("arity")
        operands = [self._expr(a, scope) for a in tensors]
        return op_class(operands, result_type, attributes)

    def _encoded_attributes(
        self,
        op_class: type[relay.RegisteredOperatorOp],
        mapping: RelaxOp,
        attrs_type: str | None,
        fields: dict[str, Any],
    ) -> dict[str, Attribute]:
        """``mapping.encode_attributes(fields)`` for `op_class`, computed once per
        distinct field values."""
        try:
            key = (op_class, attrs_type, _frozen(fields))
            hash(key)
        except TypeError:  # an unhashable value: encode without caching
            return mapping.encode_attributes(fields, op_class.OPERATOR.schema)
        cached = self.attributes.get(key)
        if cached is None:
            cached = self.attributes[key] = mapping.encode_attributes(
                fields, op_class.OPERATOR.schema
            )
        return dict(cached)  # callers add argument attributes to it

    def _generic(self, parts: _CallParts, scope: _Scope) -> relay.GenericOperatorOp:
        call, attrs_type, fields, result_type = parts
        name = call.op.name
        attributes: dict[str, Attribute] = {}
        if attrs_type is not None:
            attributes[ATTRS_TYPE] = StringAttr(attrs_type)
            for key, value in fields.items():
                if key == "op_name" or key.startswith("relax."):
                    raise RelaxImportError(f"'{name}': attribute '{key}' is reserved")
                attributes[key] = _encode(value, f"attribute '{key}' of '{name}'")
        operands = []
        for index, arg in enumerate(call.args):
            if _is_value(arg):
                operands.append(self._expr(arg, scope))
                continue
            try:
                attributes[f"{ARG_PREFIX}{index}"] = _literal_argument(arg)
            except Unmappable as error:
                raise RelaxImportError(
                    f"function '{scope.function_name}': argument #{index} of '{name}': {error}"
                ) from None
        return relay.GenericOperatorOp(name, operands, result_type, attributes)

    # -- constants and types -------------------------------------------------

    def _constant(self, const: tvm.ir.GenericConst, scope: _Scope) -> relay.ConstantOp:
        type_ = self._type(const.ty, f"constant in function '{scope.function_name}'")
        assert isinstance(type_, TensorType)
        if any(d == DYNAMIC_INDEX for d in type_.get_shape()):
            raise RelaxImportError(f"function '{scope.function_name}': constant of dynamic shape")
        raw = const.value.numpy().tobytes()
        return relay.ConstantOp(type_, DenseIntOrFPElementsAttr(type_, BytesAttr(raw)))

    def _type(self, ty: Any, what: str, shape_vars: list[str] | None = None) -> TypeAttribute:
        """The builtin type of Relax type `ty`.

        With `shape_vars` (a parameter's type), symbolic dimensions must be
        plain variables and their names are appended; elsewhere any symbolic
        dimension is just ``?`` (export infers those types again).
        """
        if isinstance(ty, relax.TensorType):
            if ty.vdevice is not None:
                raise RelaxImportError(f"{what}: tensor type with a virtual device")
            shape = ty.shape
            if not isinstance(shape, relax.ShapeExpr):
                raise RelaxImportError(f"{what}: tensor type without a static rank and shape")
            dims: list[int] = []
            for dim in shape.values:
                if isinstance(dim, tvm.tirx.IntImm):
                    dims.append(int(dim.value))
                elif shape_vars is None:
                    dims.append(DYNAMIC_INDEX)
                elif isinstance(dim, tvm.ir.Var):
                    shape_vars.append(dim.name)
                    dims.append(DYNAMIC_INDEX)
                else:
                    raise RelaxImportError(f"{what}: symbolic dimension {dim} is not a variable")
            dtype = str(ty.dtype.dtype)
            key = (dtype, tuple(dims))
            cached = self.types.get(key)
            if cached is not None:
                return cached
            try:
                element = dtypes.element_type(dtype)
            except dtypes.UnknownDTypeError as error:
                raise RelaxImportError(f"{what}: {error}") from None
            cached = self.types[key] = TensorType(element, dims)
            return cached
        if isinstance(ty, tvm.ir.TupleType):
            return TupleType(ArrayAttr([self._type(f, what, shape_vars) for f in ty.fields]))
        raise RelaxImportError(f"{what}: type {ty} is not a tensor or a tuple")


def _encode(value: Any, what: str) -> Attribute:
    """A function attribute or generic-op attribute value, schema-free."""
    try:
        return relax_ops.encode_value(python_value(value, what))
    except (TypeError, ValueError) as error:
        raise RelaxImportError(f"{what}: {error}") from None


def _returned_variables(expr: Any) -> Iterator[tvm.ir.Var]:
    """The variables a function body's result expression returns: itself, or a tuple's fields."""
    if isinstance(expr, tvm.ir.Var):
        yield expr
    elif isinstance(expr, tvm.ir.Tuple):
        for field in expr.fields:
            yield from _returned_variables(field)


def _frozen(value: Any) -> Any:
    """`value` as a cache key in which ``True``, ``1`` and ``1.0`` stay apart."""
    if type(value) is dict:
        return tuple((k, _frozen(v)) for k, v in value.items())
    if type(value) is tuple:
        return tuple(_frozen(v) for v in value)
    return (type(value), value)


def _is_value(arg: Any) -> bool:
    """Whether a call argument is a tensor-or-tuple value (an operand)."""
    if isinstance(arg, tvm.ir.Tuple):
        return all(_is_value(f) for f in arg.fields)
    return isinstance(
        arg, tvm.ir.Var | tvm.ir.GenericConst | tvm.ir.Call | tvm.ir.TupleGetItem
    ) and not isinstance(getattr(arg, "ty", None), tvm.ir.PrimType)


def _prim(value: Any) -> PrimValue:
    if isinstance(value, tvm.tirx.IntImm | tvm.tirx.FloatImm):
        return PrimValue(value.value, str(value.ty.dtype))
    raise Unmappable(f"{value} is not a constant scalar")


def _argument_attribute(role: ArgRole, arg: Any) -> Attribute:
    """A non-tensor argument of a mapped operator as the attribute that stores it."""
    match role:
        case ArgRole.SHAPE:
            if not isinstance(arg, relax.ShapeExpr):
                raise Unmappable("shape argument is not a ShapeExpr")
            return relax_ops.ints_attr([int(_prim(v).value) for v in arg.values])
        case ArgRole.PRIM:
            return relax_ops.typed_attr(_prim(arg))
        case ArgRole.PRIM_TUPLE:
            if not isinstance(arg, tvm.ir.Tuple):
                raise Unmappable("not a tuple")
            values = [_prim(v) for v in arg.fields]
            dtypes_ = {v.dtype for v in values}
            if len(dtypes_) > 1 or not all(d.startswith("int") for d in dtypes_):
                raise Unmappable("tuple of mixed or non-integer scalars")
            width = int(dtypes_.pop()[3:]) if values else 64
            return DenseArrayBase.from_list(IntegerType(width), [int(v.value) for v in values])
    raise AssertionError(role)


def _literal_argument(arg: Any) -> Attribute:
    """A non-tensor argument of a generic operator, tagged with its kind."""
    if isinstance(arg, relax.ShapeExpr):
        kind, value = "shape", _argument_attribute(ArgRole.SHAPE, arg)
    elif isinstance(arg, tvm.ir.StringImm):
        kind, value = "string", StringAttr(str(arg.value))
    elif isinstance(arg, tvm.ir.Tuple):
        kind = "prim_tuple"
        value = ArrayAttr([relax_ops.typed_attr(_prim(f)) for f in arg.fields])
    else:
        kind, value = "prim", relax_ops.typed_attr(_prim(arg))
    return DictionaryAttr({"kind": StringAttr(kind), "value": value})
