"""The seed's pattern table (seed/000_c8c965e9ed54a1f0.txt), verbatim but for the import.

Loaded by the tests as ``relay-merge-composite{patterns="seed_patterns:pattern_table"}``.
"""

from relay_xdsl.transforms.patterns import is_op, wildcard


def make_conv_add_relu_pattern():
    """创建如下模式
    conv2d
    |
    (add)
    |
    (relu)
    """
    x = wildcard()
    w = wildcard()
    bias = wildcard()
    r = is_op("nn.conv2d")(x, w)
    r = is_op("add")(r, bias) | r
    # 激活函数
    r = r.optional(lambda x: is_op("nn.relu")(x))
    return r


compiler_name = "ccompiler"
pattern_table = [
    (f"{compiler_name}.conv_add_relu", make_conv_add_relu_pattern()),
]


def make_pattern_table():
    """The same table, from a function (``patterns="seed_patterns:make_pattern_table"``)."""
    return [(f"{compiler_name}.conv_add_relu", make_conv_add_relu_pattern())]
