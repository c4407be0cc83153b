"""The pattern tables of TVM v0.19's tests/python/relay/test_pass_merge_composite.py.

Each table is a module attribute, for ``relay-merge-composite{patterns="tvm_merge_composite_patterns:NAME"}``.
The pattern functions are TVM's, written against relay_xdsl.transforms.patterns; the
checks take the match's root operation instead of a Relay expression.
"""

from relay_xdsl.transforms.patterns import TupleGetItemPattern, TuplePattern, is_op, wildcard


def make_add_sub_mul_pattern():
    x = wildcard()
    y = wildcard()
    return (x + y) * (x - y)


def make_add_relu_pattern():
    add_node = wildcard() + wildcard()
    r = is_op("nn.relu")(add_node)
    return r


def make_conv_bias_relu_pattern():
    x = wildcard()
    y = wildcard()
    z = wildcard()
    conv_node = is_op("nn.conv2d")(x, y)
    bias_node = is_op("nn.bias_add")(conv_node, z)
    r = is_op("nn.relu")(bias_node)
    return r


def make_pattern_with_optional():
    x = wildcard()
    y = wildcard()
    z = wildcard()
    conv_node = is_op("nn.conv2d")(x, y)
    bias_node = is_op("nn.bias_add")(conv_node, z)
    r = bias_node.optional(lambda x: is_op("nn.relu")(x))
    return r


def make_add_add_add_pattern():
    x = wildcard()
    y = wildcard()
    add_node = is_op("add")(x, y)
    add_node_1 = is_op("add")(x, add_node)
    r = is_op("add")(add_node_1, add_node)
    return r


def make_bn_relu_pattern():
    x = wildcard()
    gamma = wildcard()
    beta = wildcard()
    moving_mean = wildcard()
    moving_var = wildcard()
    bn_node = is_op("nn.batch_norm")(x, gamma, beta, moving_mean, moving_var)
    tuple_get_item_node = TupleGetItemPattern(bn_node, 0)
    r = is_op("nn.relu")(tuple_get_item_node)
    return r


# test_merge_order
def pattern_A():
    x = wildcard()
    y = wildcard()
    out = is_op("add")(x, y)
    out = is_op("abs")(out)
    out = is_op("nn.relu")(out)
    return out


def pattern_B():
    x = wildcard()
    y = wildcard()
    out = is_op("add")(x, y)
    out = is_op("abs")(out)
    return out


def pattern_C():
    x = wildcard()
    out = is_op("abs")(x)
    out = is_op("nn.relu")(out)
    return out


# test_pattern_with_check and test_type_check: TVM's `extract.args[0].args[0]`
# is the conv2d under bias_add under relu.
def _conv_of(root):
    return root.args[0].owner.args[0].owner


def _check_true(root):
    return _conv_of(root).relay_attr("data_layout") == "NHWC"


def _check_false(root):
    return _conv_of(root).relay_attr("data_layout") == "NCHW"


def _check_type_true(root):
    return _conv_of(root).result.type.get_shape()[0] == 1


def _check_type_false(root):
    return _conv_of(root).result.type.get_shape()[0] != 1


# test_diamond_not_merge
def make_diamond_pattern():
    conv = make_conv_bias_relu_pattern()
    clip = is_op("clip")(conv, wildcard(), wildcard())
    return is_op("multiply")(conv, clip)


# test_einsum_reshape_pattern
def make_einsum_reshape_pattern():
    x = wildcard()
    x = is_op("reshape")(x) | x
    y = wildcard()
    y = is_op("reshape")(y) | y
    z = is_op("einsum")(TuplePattern([x, y]))
    r = is_op("reshape")(z) | z
    return r


simple_merge = [("add_relu", make_add_relu_pattern())]
branch_merge = [("add_sub_mul", make_add_sub_mul_pattern())]
reuse_call_merge = [("add_add_add", make_add_add_add_pattern())]
multiple_patterns = [
    ("conv2d_bias_relu", make_conv_bias_relu_pattern()),
    ("add_relu", make_add_relu_pattern()),
]
optional_pattern = [("layer", make_pattern_with_optional())]
merge_order_A_first = [("A", pattern_A()), ("B", pattern_B()), ("C", pattern_C())]
merge_order_B_first = [("B", pattern_B()), ("C", pattern_C()), ("A", pattern_A())]
merge_order_C_first = [("C", pattern_C()), ("A", pattern_A()), ("B", pattern_B())]
parallel_merge = [("add_sub_mul", make_add_sub_mul_pattern())]
multiple_input_subgraphs = [
    ("add_sub_mul", make_add_sub_mul_pattern()),
    ("add_relu", make_add_relu_pattern()),
]
tuple_get_item_merge = [("bn_relu", make_bn_relu_pattern())]
pattern_with_check_false = [("conv_bias_relu", make_conv_bias_relu_pattern(), _check_false)]
pattern_with_check_true = [("conv_bias_relu", make_conv_bias_relu_pattern(), _check_true)]
diamond_not_merge = [("pat", make_diamond_pattern())]
type_check_false = [
    ("add_relu", make_add_relu_pattern()),
    ("conv_bias_relu", make_conv_bias_relu_pattern(), _check_type_false),
]
type_check_true = [
    ("add_relu", make_add_relu_pattern()),
    ("conv_bias_relu", make_conv_bias_relu_pattern(), _check_type_true),
]
einsum_reshape_pattern = [("einsum_reshape", make_einsum_reshape_pattern())]
