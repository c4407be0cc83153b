"""relay-xdsl's benchmark suite: ``python -m bench`` (``make bench``).

Times the importers, exporters and passes against TVM on the identical
graph in the same process, and ``xdsl-opt`` against ``mlir-opt``; see
``bench/README.md`` for what is measured and what the figures mean.
"""
