"""Interpreter kernels, one module per operator family; rows name them as "module:function"."""
