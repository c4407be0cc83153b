"""Compile lowered programs with upstream MLIR (LLVM 22), or with IREE, and run them.

* toolchain.py: finds mlir-opt-22, mlir-translate-22, mlir-runner-22, clang-22
  and the runner libraries; runs them;
* pipeline.py: the mlir-opt pass pipeline as named stages, and where a
  vectorising schedule plugs in;
* artifact.py: what a build takes (`Program`, the shape of the conversion's
  ``LoweredProgram``) and leaves (a library, its `Signature` and weights);
* build.py: a program to a shared library;
* units.py: the module split into units that compile at once, each into an
  object file;
* cache.py: those object files, kept between builds;
* generic.py: modules in the generic form upstream tools read;
* runtime.py: a compiled library called from numpy through ctypes;
* runner.py: a program as a module that ``mlir-runner`` runs and prints;
* frontend.py: a relay-dialect module to a program, through the conversion;
* program.py: a program read from MLIR text (TOSA written by hand);
* iree_build.py: the same TOSA compiled by IREE (the ``iree`` extra) into a
  module (``.vmfb``), for this CPU or a GPU;
* iree_runtime.py: an IREE module called from numpy, on one thread or IREE's
  task runtime.
"""
