"""relay-xdsl: TVM Relay and Relax graphs in MLIR tooling, built on xDSL."""
