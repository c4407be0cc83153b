"""relay-xdsl against TVM v0.19's C++ on real ONNX-imported Relay texts.

compare.py drives the comparison (``python -m bench.tvm019``, part of
``make bench`` where TVM 0.19 is installed); measure_tvm.py and
make_texts.py run under TVM 0.19's Python, measure_ours.py in relay-xdsl's
venv, export_onnx.py in relay-xdsl's venv with ``onnx`` added. See
bench/README.md.
"""
