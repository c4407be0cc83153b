// RUN: xdsl-opt %s -p 'relay-merge-composite{table=conv2d}' --verify-diagnostics | filecheck %s --check-prefix=TABLE
// RUN: xdsl-opt %s -p 'relay-merge-composite{patterns=no_colon}' --verify-diagnostics | filecheck %s --check-prefix=SPEC
// RUN: xdsl-opt %s -p 'relay-merge-composite{patterns="no_such_module_xyz:table"}' --verify-diagnostics | filecheck %s --check-prefix=MODULE
// RUN: env PYTHONPATH=%S/Inputs xdsl-opt %s -p 'relay-merge-composite{patterns="rule_patterns:missing"}' --verify-diagnostics | filecheck %s --check-prefix=ATTR
// RUN: env PYTHONPATH=%S/Inputs xdsl-opt %s -p 'relay-merge-composite{patterns="rule_patterns:is_op"}' --verify-diagnostics | filecheck %s --check-prefix=NOTABLE

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}

// TABLE:   relay-merge-composite: unknown pattern table 'conv2d' (valid: conv2d-add-relu, conv2d-bias-relu, dense-bias-act)
// SPEC:    relay-merge-composite: patterns must be 'module:attr' (an importable module and a table or a function returning one), got 'no_colon'
// MODULE:  relay-merge-composite: cannot import module 'no_such_module_xyz' for patterns 'no_such_module_xyz:table'
// ATTR:    relay-merge-composite: 'rule_patterns:missing': 'rule_patterns' has no attribute 'missing'
// NOTABLE: relay-merge-composite: 'rule_patterns:is_op': calling is_op() failed: TypeError: is_op() missing 1 required positional argument: 'op_name'
