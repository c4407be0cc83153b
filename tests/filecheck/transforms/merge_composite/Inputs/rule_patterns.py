"""Pattern tables for tvm_rules.relay."""

from relay_xdsl.transforms.patterns import is_op, wildcard

conv_relu = [("conv_relu", is_op("nn.relu")(is_op("nn.conv2d")(wildcard(), wildcard())))]
conv_add = [("conv_add", is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()))]
