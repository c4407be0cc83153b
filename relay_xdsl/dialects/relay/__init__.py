"""The `relay` dialect: TVM Relay programs as MLIR operations.

A Relay program maps onto MLIR as follows:

* each global function is a ``func.func``; calls to globals are ``func.call``;
* each Relay operator call is one op named ``relay.<operator>``, e.g.
  ``relay.nn.conv2d``; its Relay attributes live in the op's attribute
  dictionary and are checked against the operator's schema;
* an operator without a definition here is a ``relay.op`` carrying its name;
* a function literal called in place (a fused or composite function) is a
  ``relay.fn`` region op terminated by ``relay.return``;
* constants, tuples and tuple projections are ``relay.constant``,
  ``relay.tuple`` and ``relay.tuple_get_item``;
* a function used as a value is a ``relay.function`` (a closure over the
  enclosing values), called with ``relay.call``;
* ``if`` is ``relay.if``; references are ``relay.ref``, ``relay.ref_read``
  and ``relay.ref_write``.

Relay types are builtin ``tensor<...>`` (``?`` for dynamic dimensions) and
builtin ``tuple<...>``; attribute values are stored as described in
:mod:`~relay_xdsl.dialects.relay.attributes`.

Every operator is one row of the registry (:mod:`.registry`, rows in
:mod:`.operators`); its op class (``relay.Conv2DOp``, with named operands
``data`` and ``weight``) is generated from the row into :mod:`.operator_ops`.
The modules:

* ``attributes``: attribute kinds, schemas and values, fusion patterns;
* ``registry``: the :class:`Operator` row;
* ``operators``: the rows, one module per family of operators;
* ``operator_ops``: the op class of every row, generated (``python -m
  relay_xdsl.tools.gen_operator_ops``);
* ``ops``: the base ops of operator calls, and ``relay.op``;
* ``structure``: constants, tuples and function literals;
* ``closures``: function values and their calls;
* ``control``: ``relay.if``;
* ``references``: reference cells;
* ``adts``: type definitions, constructors and ``match``;
* ``match_exhaustion``: the cases a ``match`` leaves unhandled (TVM's check);
* ``dynamic_to_static``: ``dyn.*`` calls with constant shapes as static ones;
* ``inference``: the type relations the rows name (``backward``: their
  backward halves; ``shapes``: the shape arithmetic both share;
  ``rejection``: how a relation rejects a call);
* ``layouts``: data layouts (``NCHW4c``) and shape conversion between them;
* ``relax_mapping``: how a row's Relax operator converts;
* ``dialect``: the ``Relay`` dialect and the name → op class tables.
"""

from relay_xdsl.dialects.relay import operator_ops
from relay_xdsl.dialects.relay.adts import (
    ConstructOp,
    ConstructorAttr,
    ConstructorRefOp,
    MatchOp,
    MatchYieldOp,
    PatternConstructorAttr,
    PatternTupleAttr,
    PatternVarAttr,
    PatternWildcardAttr,
    TypeDefOp,
)
from relay_xdsl.dialects.relay.attributes import (
    AttrKind,
    OpPattern,
    RelayAttr,
    attr_value,
)
from relay_xdsl.dialects.relay.bindings import LetOp
from relay_xdsl.dialects.relay.closures import (
    ARG_ATTRS,
    EXPRESSION,
    TYPE_PARAMS,
    CallOp,
    FunctionOp,
    GlobalOp,
    OperatorRefOp,
    compatible,
)
from relay_xdsl.dialects.relay.control import IfOp
from relay_xdsl.dialects.relay.dialect import (
    OPERATOR_OPS,
    OPERATORS,
    RELAX_MAPPED,
    RELAX_OPERATOR_OPS,
    RELAX_OPERATORS,
    Relay,
)
from relay_xdsl.dialects.relay.meta import METADATA, MetaRefAttr
from relay_xdsl.dialects.relay.operator_ops import *  # the op class of every row
from relay_xdsl.dialects.relay.ops import GenericOperatorOp, OperatorOp, RegisteredOperatorOp
from relay_xdsl.dialects.relay.references import RefOp, RefReadOp, RefWriteOp
from relay_xdsl.dialects.relay.registry import NoRelax, Operator, no_relax
from relay_xdsl.dialects.relay.structure import (
    BLOB_THRESHOLD,
    CALL_ATTRS,
    LITERAL,
    ConstantOp,
    FnOp,
    ReturnOp,
    TupleGetItemOp,
    TupleOp,
    make_fn_body,
)
from relay_xdsl.dialects.relay.types import AdtType, IncompleteType, RefType, TypeVarType

__all__ = [
    "ARG_ATTRS",
    "BLOB_THRESHOLD",
    "CALL_ATTRS",
    "EXPRESSION",
    "LITERAL",
    "METADATA",
    "OPERATORS",
    "OPERATOR_OPS",
    "RELAX_MAPPED",
    "RELAX_OPERATORS",
    "RELAX_OPERATOR_OPS",
    "TYPE_PARAMS",
    "AdtType",
    "AttrKind",
    "CallOp",
    "ConstantOp",
    "ConstructOp",
    "ConstructorAttr",
    "ConstructorRefOp",
    "FnOp",
    "FunctionOp",
    "GenericOperatorOp",
    "GlobalOp",
    "IfOp",
    "IncompleteType",
    "LetOp",
    "MatchOp",
    "MatchYieldOp",
    "MetaRefAttr",
    "NoRelax",
    "OpPattern",
    "Operator",
    "OperatorOp",
    "OperatorRefOp",
    "PatternConstructorAttr",
    "PatternTupleAttr",
    "PatternVarAttr",
    "PatternWildcardAttr",
    "RefOp",
    "RefReadOp",
    "RefType",
    "RefWriteOp",
    "RegisteredOperatorOp",
    "Relay",
    "RelayAttr",
    "ReturnOp",
    "TupleGetItemOp",
    "TupleOp",
    "TypeDefOp",
    "TypeVarType",
    "attr_value",
    "compatible",
    "make_fn_body",
    "no_relax",
]
__all__ += operator_ops.__all__
