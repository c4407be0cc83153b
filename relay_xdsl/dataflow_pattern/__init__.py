"""The dataflow pattern language, importable as TVM users spell it::

    from relay_xdsl.dataflow_pattern import is_op, wildcard

    conv = is_op("nn.conv2d")(wildcard(), wildcard())
    TABLE = [("my.conv_add_relu", is_op("nn.relu")(is_op("add")(conv, wildcard())))]

A pattern table module written this way is what
``relay-merge-composite{patterns=my_patterns:TABLE}`` loads. The language
itself, and how matching works, is documented in
:mod:`relay_xdsl.transforms.patterns`.
"""

from relay_xdsl.transforms.patterns import (
    AltPattern,
    AttrPattern,
    CallPattern,
    ConstantPattern,
    DataTypePattern,
    DFPattern,
    OperatorPattern,
    PatternTable,
    ShapePattern,
    TupleGetItemPattern,
    TuplePattern,
    TypePattern,
    VarPattern,
    WildcardPattern,
    has_attr,
    has_dtype,
    has_shape,
    has_type,
    is_constant,
    is_op,
    is_tuple,
    is_tuple_get_item,
    is_var,
    match,
    wildcard,
)

__all__ = [
    "AltPattern",
    "AttrPattern",
    "CallPattern",
    "ConstantPattern",
    "DFPattern",
    "DataTypePattern",
    "OperatorPattern",
    "PatternTable",
    "ShapePattern",
    "TupleGetItemPattern",
    "TuplePattern",
    "TypePattern",
    "VarPattern",
    "WildcardPattern",
    "has_attr",
    "has_dtype",
    "has_shape",
    "has_type",
    "is_constant",
    "is_op",
    "is_tuple",
    "is_tuple_get_item",
    "is_var",
    "match",
    "wildcard",
]
