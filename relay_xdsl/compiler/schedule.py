"""The vectorising schedule for TOSA graphs compiled by upstream MLIR (``mlir-opt-22``).

Without it, ``convert-linalg-to-loops`` turns every linalg op into scalar loops and
resnet18 runs in about 0.9 s; with it, the hot ops become register-tiled vector
code.  This module holds the schedule and nothing else:

* ``vectorize(threads)``: the `~relay_xdsl.compiler.pipeline.Schedule` the build
  runs, its parallel loops on `threads` threads (``SCHEDULE``: on one): the
  transform-dialect library ``TRANSFORM_SCHEDULE`` (``@__transform_main``,
  after ``PACKED_ENTRY``), run by ``transform-interpreter`` on the linalg-on-tensors form that
  ``tosa-to-linalg(-named)`` leaves (``mlir-opt-22`` reads a library only from a
  path: ``transform-preload-library{transform-library-paths=...}``), and the
  stages that replace the baseline's bufferization and loops (``vector_lowering``);
* ``keep_freed_buffers()``: an opt-in for a program that runs compiled models
  (the ``relay-xdsl`` command and ``bench`` call it; library calls never do):
  makes glibc keep freed activation buffers (see ``MALLOPT_SETTINGS``).

What the schedule does (all on tensors, before bufferization, so that the tiled
loops carry their accumulators as values, and ``loop-invariant-subset-hoisting``
keeps a conv's accumulator in registers across its tap and channel loops):

* elementwise chains are fused first, by ``linalg-fuse-elementwise-ops``, so
  that a conv's epilogue is one op that its tiles take in (below).  MLIR's
  test pass for elementwise fusion is not used: it fuses producers of
  several uses by copying them (the unrolled squaring of an integer power
  grew past 2 GB in mlir-opt).  The upstream pass also moves reshapes
  through reductions; on the BERT encoder of bench/compiled_models.py the
  library ran as fast with it as without (75.4 against 75.5 ms, one thread).

* the heavy ops' rules first tile their outer parallel loops into an
  ``scf.forall``: convolutions' output rows, split into one part per thread;
  pools' batch and output rows (``_rows``: those a tile takes one at a time),
  matmuls' 32-column panels, or the batches of a batch matmul of several.  OpenMP's threads share these out
  (``vector_lowering``), and nothing else, so that every output is computed as
  on one thread, where the forall is a plain loop nest.  Elementwise ops,
  transposes and row reductions of at least ``PARALLEL_ROWS`` rows and
  ``PARALLEL_COLUMNS`` columns are split among the threads at their outermost
  loop that runs at least twice and that their tile takes one at a time
  (heads, rows: ``_large_op_splits``; vit_b_16's softmax, gelu, attention
  transposes and layer_norm, 169 to 142 ms a run on two threads).  A row's
  reduction stays whole on one thread, in the same order.  Smaller ones
  stay on one thread: they are memory-bound, and
  each parallel loop is a fork and a join, which on a busy machine waits for a
  core (resnet18's 65 elementwise loops on two threads took it from 82 to 110 ms,
  against 85 ms with its 13 heavy ones alone, at a load of 11 on 2 cores).
  Except the epilogue of a conv made a product of copied taps on packed
  panels (its clamp, after the product, not fused into its tiles), of at least
  ``PARALLEL_EPILOGUE_ROWS`` rows: its rows are split among the threads
  (``_product_epilogue_matcher``); on one thread, the
  other waited (mobilenet_v2's 1x1 convs at 14 pixels, about 0.4 ms of CPU
  time a run on one thread of two before); and a
  CNN's NCHW input transposed to NHWC (``NARROW_TRANSPOSE_TILE``), its first
  pass.

* a tile's scratch buffer (a fused conv's sums before its epilogue) is
  allocated once per thread's share of the rows, out of the tile loops
  (``buffer-loop-hoisting`` in ``bufferize``, before deallocation is placed),
  on the stack (``STACK_BUFFER_BYTES``): allocated per tile, on two threads,
  glibc's arena locks took a tenth of mobilenet_v2's time.
* ``tensor.pad`` becomes a fill and a ``linalg.copy`` into the padded tensor, both
  tiled and vectorised below (left alone, the pad bufferizes to a strided
  ``memref.copy``, a call into MLIR's runner library, element by element).
  On several threads each of the two is split by rows among them
  (``_parallel_pads``), unlike other elementwise ops: a pad is a whole pass
  over a tensor before its conv (mobilenet_v2's ten depthwise convs' pads were
  about a tenth of its time on two threads, all of it on one).  Other
  ``tensor.insert_slice`` ops become copies too, except in a function that
  builds a padded result (``IN_PLACE``, conversion/padded_results.py), whose
  inserts bufferization writes in place.
* a depthwise conv's padded input, which the conversion writes as one op of
  no inputs (conversion/linalg.py's ``zero_padded``: no fill of the whole
  tensor), is fused, where the conv has an epilogue and at least
  ``DEPTHWISE_PAD_BLOCK`` output rows a thread, into blocks of that many
  output rows in each thread's share (``_padded_epilogue_matcher``): a
  block writes the padded rows its rows read (9 at stride 1, 15 at stride
  2) into a block-sized buffer, allocated once per thread, just before its
  tiles read them from cache, where a whole padded tensor was written, then
  read back (mobilenet_v2's depthwise convs: about 2.9 to 2.2 ms of CPU time
  a run, one thread, on a busy machine).  A conv of fewer than
  ``DEPTHWISE_CHANNEL_BLOCK_ROWS`` output rows (28 and less) blocks its
  channels too, by ``DEPTHWISE_CHANNEL_BLOCK`` (``padded_block_channels``):
  each block (36 KiB at mobilenet_v2's 14x14x384) stays in cache while the
  block's tiles read each of its rows three times.  On several threads, a conv of
  fewer rows (mobilenet_v2's at 7 pixels) splits its channels among the
  threads instead, each writing the padded input of its channels in blocks
  of ``DEPTHWISE_CHANNEL_BLOCK`` (``padded_channels`` in ``_epilogue_action``; its 7x7x960 conv took
  about 45% less CPU time than with one block of a thread's 480 channels,
  the blocks staying in L1): its 7 rows split 4 and 3,
  after a pad on one thread while the other waited.  Fused into the conv's tiles
  instead, each tile padding the window it reads, it was slower
  (mobilenet_v2: 6.2 to 7.3 ms of CPU time a run, one thread): the windows
  overlap, and each is a loop of small copies.  An input of
  ``PADDED_RESULT_ROWS`` rows or more arrives padded instead
  (conversion/padded_results.py) and is read where it lies; software
  prefetches of the next block's rows while one block's copy ran made that
  copy slower (0.49 to 0.55 ms a call, from 112 pixels at stride 2).
* ``linalg.conv_2d_nhwc_fhwc`` (``tosa.conv2d``): its filter is transposed to HWCF
  (``transpose_conv2d``), putting the output channels innermost.  **Weight
  layout:** a filter that arrives as an HWIO argument and is put into OHWI by a
  ``tosa.transpose`` costs nothing, as the two transposes cancel at compile time;
  an OHWI argument is transposed on every call (16x16 blocks, about 1.5x slower
  on resnet18).  The conv is tiled to one output row, 7 columns, 32 output
  channels, one filter tap and 4 input channels (``CONV_TILE``: a step's
  filter slice in 8 registers; 16 channels were spilled), decomposed to
  ``conv_1d_nwc_wcf`` and vectorised into outer products on a 7x32 accumulator
  (14 AVX-512 registers); 7 divides every width of a 224-pixel CNN.  A conv
  of fewer than 32 filters takes 14 columns by 16 filters instead
  (``NARROW_CONV_TILE``: no 24-wide vectors), one of fewer than 4 input
  channels (a stem's 3 colours) steps over them one at a time
  (``THIN_CONV_TILE``).  A known filter of a multiple of
  128 filters arrives 16 filters wider, sliced (conversion/rules/
  convolutions.py: its rows then do not all fall in a few cache sets).  The tile
  loops run output rows outermost, then filter tiles, then columns where the
  reduction is short (each output row written whole while in cache, a narrow
  conv's too), and taps and channel steps
  outermost where it has ``LONG_REDUCTION`` channels or more into at most
  ``LONG_REDUCTION_ROWS`` output rows (each step's filter rows read whole,
  once from memory; resnet18's last layers went from about 90 to 145
  GFLOP/s in the model, 210 with the filter in cache): see
  ``CONV_ROWS_OUTER``.  A conv of a short
  reduction followed by elementwise ops (its epilogue: a residual add, a
  clamp, made one op by ``linalg-fuse-elementwise-ops``) is tiled from the
  epilogue, with the conv and its bias broadcast fused into each tile
  (``_epilogue_action``; output rows outermost, then filter tiles, then
  columns: ``CONV_EPILOGUE_ORDER``): a tile starts from the bias, sums every tap
  and channel in registers and is clamped before it is stored, once, where
  the bias broadcast, the conv and the epilogue were each a pass over the
  output (resnet50's 1x1 convs at 56x56 to 256 channels: 1.5 to 1.0 ms); the
  sums of a tile go through a tile-sized buffer, allocated once, not a
  second output-sized one (0.9 to 0.5 ms).  A `packed_conv2d` with an
  epilogue is tiled from it too (``_packed_conv_epilogue_action``): rows,
  7-pixel tiles, then the panels, each thread a part of the panels, each
  tile starting from the bias; its epilogue was a second pass over the
  output (mobilenet_v2's 1x1 convs at 14 and 7 pixels 6 to 14 % faster).
  A conv of a short reduction
  and no epilogue is tiled so too, from itself, its bias broadcast (or
  zeros) fused into each tile (``_conv_from_init_action``), not a pass over
  the output before it.
* ``pooling_nhwc_max``/``_sum``: one row of 2 outputs by 64 channels and one
  filter row (``POOL_TILE``: 8 outputs' results were spilled), decomposed to
  1-D pooling and vectorised (the whole channel axis
  made googlenet's pools vectors of 832 elements, 6 s of clang each).  A
  part of a padded max pool, copied into the result (conversion/rules/
  pooling.py), is tiled from its copy, by output rows, the pool fused into
  each row and writing it into a row-sized buffer (``_pooled_copy_action``).
* ``linalg.batch_matmul`` (``tosa.matmul``) and ``linalg.matmul``: an 8x32
  register tile of outputs (``MATMUL_TILE``), its reduction left a rolled loop
  of 8-long steps, each a ``vector.contract`` of 8 outer products (each 8
  broadcast loads of the left operand and 16 AVX-512 FMAs), its accumulator
  carried in registers across the loop, so that code size does not grow with
  the reduction's length K (8x64x64 contracts, unrolled with their peeled
  remainders, made 58 MB of LLVM IR for vit_b_16, in clang for over 13
  minutes; 2.7 MB now).  The
  loop over output columns is outermost: a 32-column panel of the right
  operand (the weights of a dense layer) stays in cache while every row of
  the left one passes.  **Packed weights:** a product by a known float32
  matrix comes from the conversion on the matrix packed when compiling
  (relay_xdsl/conversion/packed_matmul.py: ``[N/32][K][32]``, the last panel
  zero-padded), a ``linalg.generic`` of loops (p, m, j, k); ``PACKED_ENTRY``
  tiles it before ``linalg-fuse-elementwise-ops`` (see there): the panels
  into a forall, then 8x32 tiles of a panel, read in place, the same
  vectorised tile as a matmul's (``_packed_matmul_action``): no copy per
  call (BERT's 768 to 3072 layer: 2.0 to 1.55 ms); each tile's accumulator
  starts in registers from zeros, or from the bias added to the product
  (conversion/rules/bias.py), not from a pass filling the output and one
  adding the bias.  A product of few rows (``PACKED_FEW_ROWS``) runs its
  reduction in blocks (``PACKED_K_BLOCK``) outside its row tiles instead
  (``_blocked_packed_matmul_action``), each block of the panel read from
  memory once for all the row tiles, each tile's accumulator read and
  written once a block.  A product of several batches, each by its own
  packed matrix (loops (b, p, m, j, k): Winograd's 16, conversion/
  winograd.py), is tiled alike, its batches and panels together in the
  forall.  **Packed panel:** any other single float32 matmul first
  copies its
  panel (K rows of 32 columns, ``PANEL_COPY_TILE`` at a time) into a
  contiguous buffer, which the row tiles then read.  Read in place, the
  panel's rows lie N floats apart; at N = 3072 (12 KiB, a multiple of 4 KiB)
  all of them fall in the same two sets of the L1 and in a few of the L2,
  so each row tile fetched its panel from L3 again: BERT's dense layers ran
  at about 90 GFLOP/s, about 180 with the copy (bert-base, 64 tokens: about
  100 ms, then 70 to 77, on one thread, against 64 to 70 for ONNX Runtime).
  A last panel narrower than 32 is padded with zeros by its copy.  The copy,
  strided reads of 128 bytes from DRAM, was about a third of such a layer's
  time: hence the packed weights above (ONNX Runtime packs its weights
  once too, when the session is made).  Several
  batches (attention's heads, 64 or 197 keys) are small enough to stay in
  cache, and read in place; they are tiled first, in a ``foreach_match`` of
  their own before the elementwise rules split their fill of zeros
  (``_batches_matmul_action``), so that their tiles, like a packed
  product's, start from zeros in registers.
* ``linalg.transpose`` of rank 2 to 4 (filters given OHWI, attention's keys):
  16x16 blocks (``TRANSPOSE_TILES``), transposed with shuffles; of rank 4 to
  fewer than 16 innermost elements (a CNN's NCHW input to NHWC), 16 pixels by
  all the channels, each channel's pixels one contiguous read
  (``NARROW_TRANSPOSE_TILE``).
* other all-parallel ops of rank 1 to 4 (elementwise generics, fills, copies):
  64 channels (or columns) of one pixel (row) (``ELEMENTWISE_TILES``), so
  that a vector is a slice of a row, not the tensor.  One row, not 8: an
  operand broadcast along the row (softmax's maxima, layer_norm's means) is
  then one scalar, read and splatted; in an 8x64 tile it was a read of 8x1
  broadcast along its minor dimension, which ``convert-vector-to-scf`` fills
  element by element, through the stack (BERT's layer_norm took 0.8 ms of its
  64x768 elements).
* reductions along the innermost axis only (softmax's maxima and sums,
  layer_norm's means and variances): one row by 64 columns
  (``ROW_REDUCTION_TILES``), in a rolled loop over the columns carrying a
  vector of 64 running results in registers, combined elementwise with each
  tile (``tile_reduction_using_for``), then reduced across once per row,
  reassociated (``reassociate-fp-reductions``: in order, a 64-long chain of
  dependent scalar adds).  Reduced across at every tile instead, a row's
  maximum was a NaN-propagating horizontal ``maximumf`` per 64 columns,
  scalar compares and blends (vit_b_16's softmax, 12x197 rows of 197, one
  thread: on its own about 0.59 to 0.53 ms a call; in the model, CPU time,
  12.0 to 11.1 ms a run).  Most arrive as ``linalg.generic``, not
  ``linalg.reduce``: ``linalg-fuse-elementwise-ops`` fuses the ops before
  them in (layer_norm's subtraction and square) and moves the reshape to
  ``[..., 1]`` after them through them, which adds a unit loop; left to
  loops, vit_b_16's softmax and layer_norm functions took about 10 ms of its 175 (one thread), 4 ms
  vectorised.  The products' tiles, generics reducing along their last loop
  too, are told apart by their multiply-accumulate body (``match_contraction``).
* an elementwise op that reads a row reduction and is its row's last user
  (softmax's scaling by its sums): first, before the rules above, tiled by
  rows into an ``scf.forall`` of one row an iteration, its producers fused
  into each row (``transform.structured.fuse``, through the reshapes):
  softmax's maximum, exponentials, sum and scaling then pass over a row
  while it is in L1, where four passes went over the whole tensor (vit_b_16's
  1.8 MB of scores: its softmax 11.4 to 7.8 ms a run, one thread; vit_b_16
  on two threads 152 to 138 ms, the rows shared among the threads); the
  rules above then tile each of the row's ops.
* a loop whose tile does not divide its extent (widths 7, 14, 28; 3 input
  channels; 1000 classes) is peeled, so every tile has a static shape.
* ``linalg.depthwise_conv_2d_nhwc_hwc`` (the conversion's form of one output per
  channel): one output row of 7 pixels by 32 channels and one filter row,
  decomposed to ``depthwise_conv_1d_nwc_wc``, which the vectoriser takes at any
  stride and dilation (it reads the tile's input row once and picks the strided
  pixels out of it): FMAs on a 7x32 accumulator carried across the filter rows.
  Followed by elementwise ops (mobilenet_v2's clamp to [0, 6]), it is tiled
  from them as a conv is (``_epilogue_action``): mobilenet_v2 6.4 to 5.8 ms
  of CPU time a run.
* ``linalg.depthwise_conv_2d_nhwc_hwcm`` (``tosa.depthwise_conv2d``, which the
  conversion keeps where several outputs share a channel): one tap of 8 pixels by
  32 channels, generalised with its unit dims dropped: an elementwise
  multiply-add, vectorised (stride 1; with stride 2 its input map is ``2*ow``,
  which the vectoriser rejects: loops).
* only tiled ops are vectorised (they carry ``MARK``); an op no rule tiles
  (reductions along other axes, ops of rank 5) and a tile the vectoriser rejects
  go to ``convert-linalg-to-loops``: correct, scalar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from relay_xdsl.compiler.pipeline import DEALLOCATION, SCRIPT, Schedule, Stage
from relay_xdsl.conversion.packed_matmul import PANEL
from relay_xdsl.conversion.padded_results import IN_PLACE
from relay_xdsl.conversion.rules.convolutions import PRODUCT_PIXELS

STACK_BUFFER_BYTES = 4096
"""The largest scratch buffer promoted to the stack on one thread (an 8x32 tile of f32 is 1 KiB)."""


def bufferize(threads: int = 1) -> tuple[str, ...]:
    """Tensors to buffers, each tile's scratch buffer out of its loops (on one
    thread, `threads`, out of the forall loops too) and on the stack
    (``STACK_BUFFER_BYTES``)."""
    # static buffers only (rank 0 for dynamic ones): a dynamic alloca is no register
    to_stack = f"max-alloc-size-in-bytes={STACK_BUFFER_BYTES} max-rank-of-allocated-memref=0"
    return (
        "eliminate-empty-tensors",
        # Identity layouts at the function boundary: the arguments' strides are
        # then constants, not descriptor fields, and the unrolled vector code's
        # address arithmetic folds (with dynamic strides the weight reads of
        # resnet18's convs ran 10x slower).  Callers pass contiguous arrays.
        "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}",
        # Every scratch buffer (a conv's sums on their way to its epilogue, a
        # depthwise tap's accumulator) is hoisted out of its loops, then put
        # on the stack, where LLVM keeps it in registers: the sums written to
        # memory, read back and clamped were a third of the instructions of
        # mobilenet_v2's 1x1 conv from 16 channels.  On one thread the forall
        # loops are plain loops from here, so that it leaves them too; on
        # several it stays in its forall's body, one per thread's share, in an
        # alloca scope (``vector_lowering``).
        *(["scf-forall-to-for"] if threads == 1 else []),
        "func.func(buffer-loop-hoisting)",
        f"func.func(promote-buffers-to-stack{{{to_stack}}})",
        DEALLOCATION,
        "convert-bufferization-to-memref",
    )


def vector_lowering(threads: int = 1) -> tuple[str, ...]:
    """The passes from vectorised tiles on buffers to the LLVM dialect, the
    ``scf.forall`` loops of the schedule run on `threads` threads (OpenMP
    above 1; on one thread they are plain loops, and no OpenMP is involved)."""
    openmp = threads > 1
    return (
        "convert-linalg-to-loops",
        # The parallel tile loops, scf.forall on buffers, as scf.parallel:
        # omp.parallel around an omp.wsloop on several threads; on one,
        # convert-scf-to-cf makes it the loop nest it would have been.  The
        # wsloop's schedule is static: each thread's rows are contiguous.  With
        # schedule(dynamic) or schedule(guided), mobilenet_v2 on two threads
        # took 0.35 and 0.55 ms more a call (medians of 40 alternating rounds).
        "scf-forall-to-parallel",
        *([f"convert-scf-to-openmp{{num-threads={threads}}}"] if openmp else []),
        # exp, tanh, erf, log... as polynomials on the vectors (within 3 ulp), where
        # convert-math-to-libm would call libm once per element (gelu's erf: 35x
        # slower, and its unrolled calls the larger part of swin_t's code).
        # mlir-opt-22 offers MLIR's polynomial approximations only as this pass.
        "func.func(test-math-polynomial-approximation)",
        # No fold-memref-alias-ops: in LLVM 22 it folds a broadcasting
        # transfer_read through memref.expand_shape wrongly (softmax's row sums
        # read as zeros; tests/compiler has the case).
        "func.func(convert-vector-to-scf{full-unroll=true})",
        "canonicalize",
        "cse",
        "lower-affine",
        # convert-scf-to-openmp puts each parallel loop's body in a
        # memref.alloca_scope (stack saved and restored around it, so that a
        # scratch buffer takes the same stack at each iteration), which must be
        # lowered while its body is one block, before convert-scf-to-cf.
        *(["expand-strided-metadata", "finalize-memref-to-llvm"] if openmp else []),
        "convert-scf-to-cf",
        "expand-strided-metadata",
        "lower-affine",
        # reassociate-fp-reductions: a row's horizontal sum as a tree of vector
        # adds, not 64 dependent scalar ones in order.
        "convert-vector-to-llvm{vector-contract-lowering=outerproduct vector-transpose-lowering=shuffle16x16 reassociate-fp-reductions}",
        "convert-to-llvm",
        "convert-math-to-libm",
        "convert-to-llvm",
        *(["convert-openmp-to-llvm"] if openmp else []),
        "reconcile-unrealized-casts",
    )


# glibc serves allocations above 128 KiB (every activation of resnet18) with mmap
# and returns them with munmap, so each call of a compiled model page-faults all
# its buffers afresh: about a third of resnet18's time.  Raising the thresholds
# keeps freed buffers in the heap for the next call.
MALLOPT_SETTINGS = {
    -3: 32 << 20,  # M_MMAP_THRESHOLD: glibc's maximum
    -1: 512 << 20,  # M_TRIM_THRESHOLD
    -2: 64 << 20,  # M_TOP_PAD
}


def keep_freed_buffers() -> bool:
    """Apply ``MALLOPT_SETTINGS`` in this process (glibc); False where unavailable.

    It affects every later ``malloc`` of the process, so only a program's
    entry point calls it, once, before it runs compiled models; nothing in
    the library does.
    """
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except AttributeError:
        return False
    return all(mallopt(option, value) == 1 for option, value in MALLOPT_SETTINGS.items())


PACKED_ENTRY = "__transform_packed"
"""The library's entry point that tiles the products on packed panels
(packed_matmul.py's `packed_matmul` and `batched_packed_matmul`), before
``linalg-fuse-elementwise-ops``: that pass moves reshapes through a generic,
which would split the product's rows (or its reduction) into several loops;
tiled, the product reads slices, which it leaves alone.  A `packed_conv2d`
is tiled after that pass (``__transform_main``), with the epilogue the pass
made one op on the panels' layout: the reshapes it reads are of its group's
arguments, which the pass leaves as they are."""

SCHEDULE_STAGE = (
    f"transform-preload-library{{transform-library-paths={SCRIPT}}}",
    f"transform-interpreter{{entry-point={PACKED_ENTRY}}}",
    # A conv's epilogue (the residual add and the clamp after it) as one op,
    # which the schedule fuses into the conv's tiles.
    "func.func(linalg-fuse-elementwise-ops)",
    "transform-interpreter",
    "canonicalize",
    "loop-invariant-subset-hoisting",
    "canonicalize",
)
"""Runs the transform library on the linalg-on-tensors IR."""


_ANY = "!transform.any_op"


def _tile(
    handle: str,
    sizes: list[int],
    interchange: list[int] | None = None,
    result: str = "%tiled",
    loops: str = "%loops",
) -> str:
    """``tile_using_for`` binding the tiled op to ``result`` and its loops to ``loops``.

    `interchange` orders the tile loops (outermost first, by the op's loop
    dimensions); ``loops`` are bound in nesting order.
    """
    count = sum(1 for s in sizes if s)
    results = ", ".join([_ANY] * (count + 1))
    order = f" interchange = [{', '.join(map(str, interchange))}]" if interchange else ""
    return (
        f"{result}, {loops}:{count} = transform.structured.tile_using_for {handle} "
        f"tile_sizes [{', '.join(map(str, sizes))}]{order} : ({_ANY}) -> ({results})"
    )


_FOR = '!transform.op<"scf.for">'
"""The type of a handle to an ``scf.for``."""


def _on_loop(loop: str, prefix: str, transform: str) -> list[str]:
    """Apply `transform` (a line applying to ``%loop``, of type `_FOR`) to
    ``loop``, a handle to a tile loop, its failure suppressed."""
    name = f"%{prefix}_" + loop.lstrip("%").replace("#", "_")
    return [
        f"{name} = transform.cast {loop} : {_ANY} to {_FOR}",
        f"transform.sequence {name} : {_FOR} failures(suppress) {{",
        f"^bb0(%loop: {_FOR}):",
        f"  {transform}",
        "}",
    ]


def _unroll(loop: str, factor: int) -> list[str]:
    """Unroll ``loop`` (a handle to a tile loop of `factor` iterations) fully."""
    # A loop of another trip count is left rolled: that failure is suppressed.
    return _on_loop(loop, "unrolled", f"transform.loop.unroll %loop {{factor = {factor}}} : {_FOR}")


def _reduction_remainder(tile: list[int], loop: str) -> list[str]:
    """The reduction's last tile loop ``loop`` peeled, or unrolled by
    `THIN_CONV_UNROLL` where `tile` is `THIN_CONV_TILE` (one-channel steps)."""
    return _unroll(loop, THIN_CONV_UNROLL) if tile == THIN_CONV_TILE else _peel(loop)


def _peel(loop: str) -> list[str]:
    """Peel the partial last iteration off ``loop`` (a handle to a tile loop)."""
    # A loop with a single iteration, or none partial, has nothing to peel;
    # that failure is suppressed.
    peel = f"%main, %rest = transform.loop.peel %loop : ({_FOR}) -> ({_ANY}, {_ANY})"
    return _on_loop(loop, "for", peel)


def _rank_is(handle: str, rank: int) -> str:
    """Lines of a structured match that fail unless the op `handle` has
    `rank` loops (the first line unindented, for its call site)."""
    return f"""%rank = transform.match.structured.rank {handle} : ({_ANY}) -> !transform.param<i64>
        %want = transform.param.constant {rank} : i64 -> !transform.param<i64>
        transform.match.param.cmpi eq %rank, %want : !transform.param<i64>"""


def _rank_matcher(name: str, rank: int, parallel_only: bool) -> str:
    parallel = (
        f"\n        transform.match.structured.dim %s[all] {{parallel}} : {_ANY}"
        if parallel_only
        else ""
    )
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> {_ANY} {{
    %m = transform.match.structured failures(propagate) %op : ({_ANY}) -> {_ANY} {{
      ^bb0(%s: {_ANY}):
        {_rank_is("%s", rank)}{parallel}
        transform.match.structured.yield %s : {_ANY}
    }}
    transform.yield %m : {_ANY}
  }}"""


def _row_reduction_matcher(name: str, rank: int) -> str:
    """Matches a ``linalg.reduce`` or ``linalg.generic`` of `rank` loops,
    reducing along its innermost one only (a generic: a reduction that
    ``linalg-fuse-elementwise-ops`` took its operand's elementwise ops
    into, or moved a reshape through), into one result whose body combines
    it with one op (what ``tile_reduction_using_for`` can split; an
    argmax's pair of results or a combination of several ops are left to
    loops)."""
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> {_ANY} {{
    transform.match.operation_name %op ["linalg.reduce", "linalg.generic"] : {_ANY}
    %m = transform.match.structured failures(propagate) %op : ({_ANY}) -> {_ANY} {{
      ^bb0(%s: {_ANY}):
        {_rank_is("%s", rank)}
        transform.match.structured.dim %s[-1] {{reduction}} : {_ANY}
        transform.match.structured.dim %s[except(-1)] {{parallel}} : {_ANY}
        %inits = transform.match.structured.num_inits %s : ({_ANY}) -> !transform.param<i64>
        %one = transform.param.constant 1 : i64 -> !transform.param<i64>
        transform.match.param.cmpi eq %inits, %one : !transform.param<i64>
        transform.match.structured.body %s {{reduction_position = 0 : i64}} : {_ANY}
        transform.match.structured.yield %s : {_ANY}
    }}
    transform.yield %m : {_ANY}
  }}"""


BOOL_OPERANDS = [("input", 0), ("input", 1), ("input", 2), ("init", 0)]
"""The operands whose ``i1`` elements keep an op from being vectorised: LLVM
stores a vector of ``i1`` as packed bits where a memref of ``i1`` holds a byte
per element, so a vectorised producer or consumer of a bool tensor would
disagree with the scalar code on the other side."""


def _bitwidth_matcher(name: str, kind: str, index: int, bits: int, op: str | None = None) -> str:
    """Matches a structured op (named `op`, if given) whose `kind` operand
    `index` has elements of `bits` bits."""
    named = f'\n    transform.match.operation_name %op ["{op}"] : {_ANY}' if op else ""
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> {_ANY} {{{named}
    %m = transform.match.structured failures(propagate) %op : ({_ANY}) -> {_ANY} {{
      ^bb0(%s: {_ANY}):
        %v = transform.match.structured.{kind} %s[{index}] : ({_ANY}) -> !transform.any_value
        %bits = transform.match.structured.elemental_bitwidth %v : (!transform.any_value) -> !transform.param<i64>
        %want = transform.param.constant {bits} : i64 -> !transform.param<i64>
        transform.match.param.cmpi eq %bits, %want : !transform.param<i64>
        transform.match.structured.yield %s : {_ANY}
    }}
    transform.yield %m : {_ANY}
  }}"""


def _contraction_matcher(name: str) -> str:
    """Matches a ``linalg.generic`` reducing along its innermost loop whose
    body is a multiply-accumulate: the tiles of a product on packed panels,
    tiled and marked before the rules run, which are no row reductions."""
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> {_ANY} {{
    transform.match.operation_name %op ["linalg.generic"] : {_ANY}
    %m = transform.match.structured failures(propagate) %op : ({_ANY}) -> {_ANY} {{
      ^bb0(%s: {_ANY}):
        transform.match.structured.dim %s[-1] {{reduction}} : {_ANY}
        transform.match.structured.body %s {{contraction = ["arith.mulf", "arith.addf"]}} : {_ANY}
        transform.match.structured.yield %s : {_ANY}
    }}
    transform.yield %m : {_ANY}
  }}"""


def _bool_matcher(kind: str, index: int) -> str:
    """Matches a structured op whose `kind` operand `index` has ``i1`` elements."""
    return _bitwidth_matcher(f"match_bool_{kind}{index}", kind, index, 1)


LEAVE_ALONE = f"""
  transform.named_sequence @leave_alone(%op: {_ANY} {{transform.readonly}}) {{
    transform.yield
  }}
  transform.named_sequence @leave_both_alone(%op: {_ANY} {{transform.readonly}}, %other: {_ANY} {{transform.readonly}}) {{
    transform.yield
  }}"""


def _name_matcher(name: str, ops: list[str], rank: int | None = None) -> str:
    """Matches the ops named `ops` (of `rank` loops, if given)."""
    names = ", ".join(f'"{op}"' for op in ops)
    ranked = (
        f"""
    %ranked = transform.match.structured failures(propagate) %op : ({_ANY}) -> {_ANY} {{
      ^bb0(%s: {_ANY}):
        {_rank_is("%s", rank)}
        transform.match.structured.yield %s : {_ANY}
    }}"""
        if rank is not None
        else ""
    )
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> {_ANY} {{
    transform.match.operation_name %op [{names}] : {_ANY}{ranked}
    transform.yield %op : {_ANY}
  }}"""


def _f32_matcher(name: str, op: str) -> str:
    """Matches the ops named `op` whose right operand has 32-bit elements (of a
    matmul: float32; TOSA's integer ones take 8 or 16 bits)."""
    return _bitwidth_matcher(name, "input", 1, 32, op)


def _dim_matcher(name: str, op: str, dim: int, predicate: str, bound: int) -> str:
    """Matches the ops named `op` whose loop `dim` compares with `bound` by
    `predicate` (``transform.match.param.cmpi``'s: ``gt``, ``ge``, ...)."""
    return _dims_matcher(name, op, [(dim, predicate, bound)])


DimConditions = Sequence[tuple[int, str, int]]
"""``(dim, predicate, bound)``: the loop `dim` compares with `bound` by
`predicate` (``transform.match.param.cmpi``'s: ``gt``, ``ge``, ...)."""


def _dim_checks(conditions: DimConditions) -> str:
    """The match lines, on ``%s``, of `conditions`."""
    return "".join(
        f"""
        %size{i} = transform.match.structured.dim %s[{dim}] : ({_ANY}) -> !transform.param<i64>
        %bound{i} = transform.param.constant {bound} : i64 -> !transform.param<i64>
        transform.match.param.cmpi {predicate} %size{i}, %bound{i} : !transform.param<i64>"""
        for i, (dim, predicate, bound) in enumerate(conditions)
    )


def _dims_matcher(name: str, op: str, conditions: DimConditions) -> str:
    """Matches the ops named `op` whose loops meet every one of `conditions`."""
    checks = _dim_checks(conditions)
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> {_ANY} {{
    transform.match.operation_name %op ["{op}"] : {_ANY}
    %m = transform.match.structured failures(propagate) %op : ({_ANY}) -> {_ANY} {{
      ^bb0(%s: {_ANY}):{checks}
        transform.match.structured.yield %s : {_ANY}
    }}
    transform.yield %m : {_ANY}
  }}"""


def _batches_matcher(name: str, op: str) -> str:
    """Matches the ops named `op` whose first loop (the batch) runs more than once."""
    return _dim_matcher(name, op, 0, "gt", 1)


def _action(name: str, body: list[str], handles: Sequence[str] = ("%op",)) -> str:
    """The named sequence `name` of the lines `body`, consuming `handles`."""
    lines = "\n    ".join(body)
    arguments = ", ".join(f"{handle}: {_ANY} {{transform.consumed}}" for handle in handles)
    return f"""
  transform.named_sequence @{name}({arguments}) {{
    {lines}
    transform.yield
  }}"""


# Tile sizes; the conv's (N, OH, OW, F, KH, KW, C) tile is a 7x32 f32
# accumulator, 14 AVX-512 registers, updated by 4 input channels at a time.
# Seven divides the widths of a CNN on 224-pixel images (112, 56, 28, 14, 7),
# so no columns are peeled (8 columns left 4-, 6- and 7-wide remainder tiles:
# resnet18's 3x3 convs at 28, 14 and 7 pixels ran 10 to 35% slower).  A step
# of 4 channels reads a 4x32 slice of the filter, 8 registers beside the 14
# of the accumulator; a step of 16 read a 16x32 slice, 32 registers, which
# LLVM loaded whole before the step's outer products and spilled to the
# stack and back (resnet50's stride-2 convs at 56 pixels, each on its own,
# best of 20 calls at one thread: the 1x1 one 2.84 to 1.62 ms, the 3x3 one
# 2.97 to 1.78; its 3x3 convs at 56 and 28 pixels 5 to 8% faster, resnet18's
# 3x3 stride-2 conv 1.19 to 0.72 ms; steps of 8 channels, 16 registers, took
# about 0.3 ms more of resnet50's time than steps of 4).  A 14x32 tile in
# steps of 2 channels (28 accumulators) made resnet18 1.6x slower; 14x32 or
# 6x64 in steps of one channel ran resnet18 and resnet50 no faster (one
# thread, alternating, per function under `perf`).  Nor did blocking the
# reduction by 16 or 32 channels, each output row's sums kept in a row-sized
# buffer between blocks, so that a filter tile's slice of a block stays in L1
# across the row's column tiles (the whole slice, 72 KiB at 64 channels, does
# not): resnet's 3x3 conv at 56 pixels of 64 channels, on its own, ran 1.33 ms
# a call with tiles of 7x32, 6x64, 14x32 and 8x32 alike, blocked or not
# (medians of 300 alternating calls, one thread).
CONV_TILE = [1, 1, 7, 32, 1, 1, 4]
# A conv of fewer input channels than that (a stem's 3 colours) steps over
# them one at a time: read whole, 3 at a time, the tile's input was 7x3
# vectors (resnet50's stem on its own, best of 20 calls, one thread: 2.08 ms
# with 3-channel steps, 1.86 with 2, 1.65 with 1).  Tiles of 14x32 or 7x64
# (28 accumulators) ran resnet18 no faster (medians of 60 alternating
# rounds, one thread: 23.46 ms with 7x32, 23.43 and 23.41).
THIN_CONV_TILE = [1, 1, 7, 32, 1, 1, 1]
# Its loop of one-channel steps is unrolled by THIN_CONV_UNROLL, a stem's 3
# colours as three steps in line: rolled, a loop of 3 between the taps' loops,
# resnet18's stem on its own took 1.71 ms a call, unrolled 1.63 (medians of
# 300 alternating calls, one thread, the same bits; resnet18 21.55 to 21.47
# ms). A loop of fewer channels stays rolled; the taps' loops unrolled too
# made the stem slower (2.10 ms).
THIN_CONV_UNROLL = 3
# The order of the conv's tile loops (outermost first, by the op's dims).  A
# reduction of fewer than LONG_REDUCTION input channels, or an output of
# more than LONG_REDUCTION_ROWS rows: the output rows outermost, then the
# filter tiles, then the columns (CONV_ROWS_OUTER), so that each output row
# is written whole while in cache and the row's input stays in L1 while the
# filter's 32-column slices pass, the filter (at most a few hundred KiB in
# resnet's and mobilenet_v2's such convs) read again from L2 for each row.
# With filter tiles outermost, as every conv once ran, each tile's pass read
# the input and wrote the output 128 bytes a pixel, a row of the output
# apart, over the whole output (resnet50's 1x1 convs of no epilogue, each on
# its own, best of 30 calls: 56 pixels 64 to 256 channels 0.881 to 0.818 ms,
# stride 2 from 56 pixels 256 to 512 channels 1.559 to 1.470; for those tiled
# from an epilogue, see CONV_EPILOGUE_ORDER).  A narrow conv (NARROW_FILTERS)
# runs so too: its filter tiles outermost (16 and 8 of 24 filters), it read
# its input twice from L2 (mobilenet_v2's 1x1 convs at 56 pixels from 144 and
# 96 channels to 24 took 13 to 16% and 8 to 10% more CPU time, one thread,
# `perf`, both libraries alternating in one process).  A
# longer one on a small output
# (a large filter of a late, 7-pixel layer, whose slices 7 rows only share;
# a known float32 one is a product by packed panels instead, PRODUCT_PIXELS
# in relay_xdsl/conversion/rules/convolutions.py):
# the taps and the channel steps outermost, then the rows, then
# the filter tiles and the columns, the partial sums (the small output) kept
# in cache between steps.  Each step's filter rows, contiguous in HWCF,
# come from memory once, for the first row, as its filter tiles pass along
# them, and from L1 for the other rows.  Filter tiles outermost instead read
# a 3x3x512x512 filter by 32-column slices 2 KiB apart, which few cache sets
# hold and the prefetchers do not follow (resnet18's last layers ran at about
# 90 GFLOP/s in the model, against 145 in this order).  Rows and columns
# outermost, filter tiles innermost, for a 1x1 conv of at most 128 channels (its filter small) ran slower too:
# resnet50's at 56 and 28 pixels with a residual add, 10 to 25%.  A conv of no
# epilogue has its bias fused into its tiles (`_conv_from_init_action`).
CONV_ROWS_OUTER = [0, 1, 3, 2, 4, 5, 6]
CONV_REDUCTION_OUTER = [0, 4, 5, 6, 1, 3, 2]
LONG_REDUCTION = 256
LONG_REDUCTION_ROWS = 7
CONV_PEELED = [2, 3, 6]
"""The conv dims whose tile may not divide the extent: width, filters, channels."""
# A conv tiled from its epilogue (`_epilogue_action`) runs its output rows
# outermost, then the filter tiles, then the columns: each output row, and
# the residual row the epilogue adds, is written whole while it is in cache,
# and the row's input (a few KiB) stays in L1 while the filter tiles pass.
# With filter tiles outermost, every pass of a filter tile wrote and read
# 128 bytes a pixel, a row of the output apart (1 KiB at 256 channels), over
# the whole output: resnet50's 1x1 convs at 56 pixels from 64 to 256
# channels with a residual add took 1.03 ms a call, 0.79 in this order;
# those of 28 and 56 pixels to 128 to 512 channels 2-6% less; mobilenet_v2's
# at 112 pixels to 96 channels 0.46 to 0.39 ms (each function on its own,
# best of 20 calls, one thread).  In a model, where the residual comes from
# L3 and a tile's 7 pixels read 128 bytes of it each, 1 KiB apart (a quarter
# of the time of resnet50's 1x1 convs at 56 pixels to 256 channels is spent
# waiting for those reads), the columns outermost and the filter tiles
# innermost, so that a tile's pixels are read whole, ran at most 1 % faster:
# resnet18 24.85 against 24.57 ms, resnet50 57.67 against 57.49 and 62.64
# against 62.08 (medians of 150 to 250 alternating calls, one thread, a busy
# phase of the machine), its functions faster and slower by up to 0.18 ms,
# as much as those it does not tile moved: not enough to settle it.  Those
# reads are prefetched a tile ahead instead (prefetch.py).
CONV_EPILOGUE_ORDER = [dim for dim in CONV_ROWS_OUTER if dim < 4]
# A conv of fewer than NARROW_FILTERS filters (mobilenet_v2's 1x1 convs to 24
# channels) takes 14 columns by 16 filters: its last filter tile is then 16 or
# 8 wide, where in CONV_TILE it is as wide as the filters, 24, a vector that
# LLVM splits into a 16- and an 8-lane half with shuffles between (those convs
# ran 1.7x slower, about 60 GFLOP/s).
NARROW_FILTERS = 32
NARROW_CONV_TILE = [1, 1, 14, 16, 1, 1, 16]
# A pool's tile: one row of 2 outputs by 64 channels (8 AVX-512 registers of
# results), one filter row at a time.  Of 8 outputs, 32 registers, LLVM
# spilled most of them to the stack around each tap's maximum (resnet50's
# stem pool on its own, best of 60 calls, one thread: 0.30-0.31 ms with 8
# outputs, 0.27 with 4, 0.26 with 2).
POOL_TILE = [1, 1, 2, 64, 1, 0]
# linalg.matmul (M, N, K): 8 rows by 32 columns of f32 accumulate in 16 AVX-512
# registers, 8 steps of K at a time; batch_matmul (B, M, N, K) has one batch per
# tile.  The interchanges put the column loop outermost.  (A 7x7 conv's product
# of 49 rows ran 2-4% slower a model as 7 tiles of 7 rows, or with its rows
# padded to 56, than as 8-row tiles and a 1-row remainder; 16 or 4 steps of K
# no faster.)
MATMUL_TILE = [8, PANEL, 8]
MATMUL_INTERCHANGE = [1, 0, 2]
# A product on packed panels of few rows (at most PACKED_FEW_ROWS: BERT's and
# GPT-2's 64 tokens, a classifier's one) runs its reduction in blocks of
# PACKED_K_BLOCK outermost in each panel, its row tiles inside: each block of
# the panel (48 KiB) comes from memory once and serves every row tile from
# L2.  Whole, the panel (K x 128 bytes, 96 to 384 KiB) was read from memory
# by the first row tile, which waited for it, and from L2 by the few others
# (docs/compiler.md has the figures).  Each tile reads and writes its
# accumulator once a block: in blocks of 32 rows (4 KiB, which stayed in
# L1) that was a sixth of the block's loads and stores, and on a core of
# half the FMA throughput of the one they were measured on, bert ran 133.7
# ms a call against 106.7 in blocks of 384, which divide 768, 2304 and 3072
# (256: 110.1, 512: 110.3, 768: 110.1; one thread, medians of alternating
# calls).  With many rows (vit_b_16's 197) the first tile's wait is spread
# over 25, and the blocks' column-wise reads of a left operand larger than
# L2 (197x3072) were slower: those run whole (vit_b_16 343 ms against 330
# with 197 rows in blocks of 384), as did 12- or 14-row tiles of the whole
# panel (vit_b_16; resnet50, whose 14x14 products have 196 rows, 61.5 ms
# against 59.9, one thread).
PACKED_FEW_ROWS = 128
PACKED_K_BLOCK = 384
BATCH_MATMUL_TILE = [1, *MATMUL_TILE]
BATCH_MATMUL_INTERCHANGE = [0, *(1 + d for d in MATMUL_INTERCHANGE)]
# In parallel: column panels, each thread's panel of the right operand staying in
# its cache; a last panel narrower than 32 (1000 classes: 8 columns) is padded
# to 32 by its copy (float32), or has a dynamic width and goes to loops (other
# types).  Several batches (attention's heads) are
# shared out instead, their tiles as static as on one thread (197 keys: a
# 5-column panel on loops made the product 1.6x slower).
# On several threads, a product of a 14x14 layer (PRODUCT_PIXELS rows) of
# few, short panels (at most SHARED_ROWS_PANELS of at most SHARED_ROWS_STEPS
# rows: 216 KiB) shares out its rows instead, each thread taking its part of
# every panel's rows (98 on two threads: 12 tiles and a static remainder of
# 2).  The 3 panels of mobilenet_v2's 96-filter products no longer split 2:1,
# and its depthwise convs at 14 pixels, which share out rows too, find their
# rows in the cache of the thread that wrote them (two threads, medians of
# 150 alternating rounds: 4.50 to 4.38 ms a call; 4.66 to 4.61 after a 64 MB
# write).  Sharing out both (``num_threads [3, 2]``, six parts) raised those
# products' CPU time from 0.33 to 0.47 ms a call.  Longer panels stay split
# among the threads: with every product of its 14x14 layers sharing out rows
# (1 MiB of panels each, beside convs that split their panels), resnet50 ran
# 34.5 ms a call against 32.7 (20 rounds).
SHARED_ROWS_PANELS = 18
SHARED_ROWS_STEPS = 576
MATMUL_PARALLEL = [0, 32]
BATCH_MATMUL_PARALLEL = [1, *MATMUL_PARALLEL]
BATCHES_PARALLEL = [1]
# The copy of a panel of the right operand (K rows of 32 columns): 8 rows at a time.
PANEL_COPY_TILE = [8, 32]
# linalg.depthwise_conv_2d_nhwc_hwcm (N, OH, OW, C, M, KH, KW): the vectoriser
# has no 2-D depthwise conv and decompose no HWCM form, but a tile of one tap is,
# once its unit dims are dropped, an elementwise multiply-add on 8x32 pixels by
# channels (with stride 2 its input map is 2*ow, which the vectoriser rejects:
# those stay loops).
DEPTHWISE_TILE = [1, 1, 8, 32, 1, 1, 1]
# linalg.depthwise_conv_2d_nhwc_hwc (N, OH, OW, C, KH, KW), the conversion's
# form of one output per channel: one output row of 7 pixels by 32 channels
# and one filter row, decomposed to depthwise_conv_1d_nwc_wc, which the
# vectoriser takes at any stride and dilation (the 7x32 accumulator is 14
# AVX-512 registers, the filter row's taps unrolled).  Seven pixels, as in
# CONV_TILE, leave no remainder tile at 14 pixels (8 left a 6-wide one):
# mobilenet_v2 up to 2% faster.  Its padded input is written by blocks of
# DEPTHWISE_PAD_BLOCK output rows (below): written by the rows each output
# row reads, in the row loop, it made the stride-2 convs up to 1.6x faster
# but the model no faster (2% slower: three rows written per output row at
# stride 1).
DEPTHWISE_HWC_TILE = [1, 1, 7, 32, 1, 0]
DEPTHWISE_PAD_BLOCK = 7
"""Output rows of a depthwise conv whose padded input rows are written together
(see the module docstring): 7 divides each thread's rows of a 224-pixel CNN's
layers on one and two threads, so the blocks have one static shape."""
# A depthwise conv of fewer output rows than this (28 and less) writes and
# reads its padded input by blocks of DEPTHWISE_PAD_BLOCK rows and
# DEPTHWISE_CHANNEL_BLOCK channels: a block of mobilenet_v2's 14x14x384 layer
# is 36 KiB, which stays in cache while the block's tiles read each row three
# times, where the block of all channels (221 KiB) came from L2.  (Its
# 14x14 and 7x7 depthwise convs took 35 to 45% less CPU time, its stride-2
# ones from 56, 28 and 14 pixels 10, 25 and 45% less; those of 56 and 112
# rows, whose channel blocks outgrow L1 too, 0 to 4% more.)  Each pixel's 64
# channels are 256 contiguous bytes of the input, where 32 were 128 bytes a
# pixel apart: read from L3 (the 7x7x960 input, written a tile at a time by a
# 1x1 conv between 614 KiB of its panels), the conv took 0.116 ms a call in
# blocks of 32 channels, 0.075 in blocks of 64, 0.074 of 128; the others
# moved by -0.007 to 0.005 ms with 64, and by up to 0.021 with 128 (one
# thread, `perf`, both libraries alternating in one process).
DEPTHWISE_CHANNEL_BLOCK_ROWS = 56
DEPTHWISE_CHANNEL_BLOCK = 64
# Transposes left at run time (filters given OHWI, attention's keys): 16x16
# blocks, which LLVM transposes with shuffles (an 8x64 elementwise tile of a
# transpose became 512 element extracts and inserts).
TRANSPOSE_TILES = {4: [1, 1, 16, 16], 3: [1, 16, 16], 2: [16, 16]}
# A transpose of rank 4 to fewer than 16 innermost elements (a CNN's NCHW
# input to NHWC: 3 channels): 16 pixels by all the channels, the tile's unit
# dims dropped, so that it reads 3 contiguous rows of 16 and transposes them
# in registers.  In TRANSPOSE_TILES' 16x3 tile, the read of a (1, 3, 1, 16)
# slice transposed was a loop of masked scalar loads per pixel, a third of
# mobilenet_v2's stem conv (the stem: 0.53 to 0.47 ms of CPU time, one
# thread).
NARROW_TRANSPOSE_TILE = [1, 1, 16, 0]
# Elementwise ops (and fills, copies) by rank: 64 channels of one pixel, or
# 64 columns of one row (untiled channels made vectors of up to 8x3072
# elements on vit_b_16, whose unrolled code took clang minutes; 8 rows made an
# operand broadcast along the row a read filled element by element).  Up to
# rank 7: Winograd's transforms (conversion/winograd.py), their windows seen as
# blocks of 2x2 pixels, their filters split by the panels by the fusion.
ELEMENTWISE_TILES = {rank: [1] * (rank - 1) + [64] for rank in range(7, 0, -1)}
# Reductions along the innermost axis, by rank: one row, 64 columns at a time,
# combined into a vector of 64 running results (4 AVX-512 registers; 8 rows
# would be all 32), reduced across once per row (`_row_reduction_action`).
ROW_REDUCTION_TILES = {
    5: [1, 1, 1, 1, 64],
    4: [1, 1, 1, 64],
    3: [1, 1, 64],
    2: [1, 64],
}

# Tiled ops carry this unit attribute, so that only they are vectorised: an op no
# rule tiled (a reduction along another axis, an elementwise op of rank 5) stays
# whole and would become one vector the size of its tensor, or not vectorise at
# all; it goes to loops.
MARK = "schedule.vectorize"
ZEROS = "schedule.zeros"
"""Marks the initial sums of a product's output tiles (zeros, or a bias
broadcast along the rows), vectorised with the tiles' loops
(`_packed_matmul_action`, `_batches_matmul_action`)."""


def _rows(tile: list[int]) -> list[int]:
    """The leading dims `tile` tiles by 1 (batch, output rows), parallel in the
    windowed ops: tiled by 1 in the ``scf.forall`` too, its tiles stay static."""
    count = next((i for i, size in enumerate(tile) if size != 1), len(tile))
    return [1] * count


def _parallel(sizes: list[int], split: bool = False) -> tuple[list[str], str]:
    """Tile ``%op`` 's leading dims by `sizes` into an ``scf.forall`` (none: no
    forall), or, with `split`, split each into `sizes` parts (0: not split): the
    lines, and the handle of the op inside (or ``%op``)."""
    if not sizes:
        return [], "%op"
    how = "num_threads" if split else "tile_sizes"
    forall = (
        f"%inner, %forall = transform.structured.tile_using_forall %op "
        f"{how} [{', '.join(map(str, sizes))}] : ({_ANY}) -> ({_ANY}, {_ANY})"
    )
    return [forall], "%inner"


def _parallel_with_init(sizes: list[int]) -> tuple[list[str], str]:
    """`_parallel`'s lines, then the producer of ``%op``'s output (its fill,
    or its initial sums) fused into each ``scf.forall`` iteration."""
    parallel, inner = _parallel(sizes)
    return [
        f"%init = transform.get_producer_of_operand %op[2] : ({_ANY}) -> {_ANY}",
        *parallel,
        f"%init_p, %forall_1 = transform.structured.fuse_into_containing_op %init into %forall : ({_ANY}, {_ANY}) -> ({_ANY}, {_ANY})",
    ], inner


def _packed_panel(inner: str, columns: int) -> tuple[list[str], str]:
    """Copy the right operand's panel that the matmul ``inner`` reads into a
    contiguous buffer (a ``tensor.pad`` of nothing, ``nofold``, padding the
    loop `columns` to the panel's static width), the copy tiled by
    ``PANEL_COPY_TILE`` and marked: the lines, and the handle of the matmul
    that reads the copy."""
    rank = columns + 1  # the panel's: (batch,) K, N, as the matmul's loops (batch,) M, N
    copy_tile = [1] * (rank - 2) + PANEL_COPY_TILE
    zeros = ", ".join(["0.0 : f32"] * 3)
    pad = (
        f"%padded, %pads, %copy_back = transform.structured.pad {inner} {{"
        f"padding_values = [{zeros}], padding_dimensions = [{columns}], "
        f'nofold_flags = [0, 1, 0], copy_back_op = "none"}} : ({_ANY}) -> ({_ANY}, {_ANY}, {_ANY})'
    )
    return [
        pad,
        f"%panel_pad = transform.get_producer_of_operand %padded[1] : ({_ANY}) -> {_ANY}",
        f"%panel_dps = transform.structured.rewrite_in_destination_passing_style %panel_pad : ({_ANY}) -> {_ANY}",
        # A panel narrower than the tile (1000 classes: the last is 8 wide) is
        # padded: a fill, then the panel inserted, which becomes a copy too.
        f'%panel_insert = transform.structured.match ops{{["tensor.insert_slice"]}} in %forall : ({_ANY}) -> {_ANY}',
        f"%panel_insert_copy = transform.structured.insert_slice_to_copy %panel_insert : ({_ANY}) -> {_ANY}",
        f'%panel = transform.structured.match ops{{["linalg.copy"]}} in %forall : ({_ANY}) -> {_ANY}',
        _tile("%panel", copy_tile, result="%panel_tile", loops="%panel_loops"),
        f'transform.annotate %panel_tile "{MARK}" : {_ANY}',
        *_peel(f"%panel_loops#{rank - 2}"),
    ], "%padded"


def _tiling_action(
    name: str,
    tile: list[int],
    peel: list[int],
    interchange: list[int] | None = None,
    parallel: list[int] | None = None,
    split: bool = False,
    packed: int | None = None,
    folded: bool = False,
) -> str:
    """Tile the `parallel` dims into an ``scf.forall`` (if any; with `split`,
    split into that many parts), copy the right operand's panel (if `packed`,
    the loop of its columns; `_packed_panel`), then tile what is inside (loops
    ordered by `interchange`), mark the tile (if `folded`, generalised, its
    unit dims dropped), peel the loops (indices in nesting order) whose tile
    may not divide the extent.

    Peeling clones the tile, mark included, into the remainder loop.
    """
    body, inner = _parallel(parallel or [], split)
    if packed is not None:
        panel, inner = _packed_panel(inner, packed)
        body += panel
    body.append(_tile(inner, tile, interchange))
    if folded:
        innermost = f"%loops#{sum(1 for size in tile if size) - 1}"
        body += [
            f"%generic = transform.structured.generalize %tiled : ({_ANY}) -> {_ANY}",
            f"transform.apply_patterns to {innermost} {{",
            "  transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices",
            f"}} : {_ANY}",
            f'%folded = transform.structured.match ops{{["linalg.generic"]}} in {innermost} : ({_ANY}) -> {_ANY}',
            f'transform.annotate %folded "{MARK}" : {_ANY}',
        ]
    else:
        body.append(f'transform.annotate %tiled "{MARK}" : {_ANY}')
    for loop in peel:
        body += _peel(f"%loops#{loop}")
    return _action(name, body)


def _multiply_add_matcher(name: str, rank: int, reductions: int, conditions: str = "") -> str:
    """Matches a ``linalg.generic`` of `rank` loops, the last `reductions`
    reductions and the others parallel, whose body is a multiply-add, and
    which meets `conditions` (more match lines on ``%s``)."""
    parallel = ", ".join(map(str, range(rank - reductions)))
    reduced = ", ".join(map(str, range(rank - reductions, rank)))
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> {_ANY} {{
    transform.match.operation_name %op ["linalg.generic"] : {_ANY}
    %m = transform.match.structured failures(propagate) %op : ({_ANY}) -> {_ANY} {{
      ^bb0(%s: {_ANY}):
        {_rank_is("%s", rank)}
        transform.match.structured.dim %s[{parallel}] {{parallel}} : {_ANY}
        transform.match.structured.dim %s[{reduced}] {{reduction}} : {_ANY}
        transform.match.structured.body %s {{contraction = ["arith.mulf", "arith.addf"]}} : {_ANY}{conditions}
        transform.match.structured.yield %s : {_ANY}
    }}
    transform.yield %m : {_ANY}
  }}"""


def _packed_matmul_matcher(name: str, conditions: DimConditions = (), batched: bool = False) -> str:
    """Matches the ``linalg.generic`` of packed_matmul.py: loops ``(p, m, j,
    k)``, with `batched` ``(b, p, m, j, k)`` (`batched_packed_matmul`), the
    last a reduction, a multiply-add body, ``j`` a panel's width; and its
    loops (counted without ``b``) meet `conditions`."""
    lead = int(batched)
    shifted = [(dim + lead, predicate, bound) for dim, predicate, bound in conditions]
    return _multiply_add_matcher(
        name, 4 + lead, 1, _dim_checks([(2 + lead, "eq", PANEL), *shifted])
    )


def _packed_matmul_action(
    name: str = "tile_packed_matmul", share: int | None = None, batched: bool = False
) -> str:
    """The panels in parallel, one at a time (an ``scf.forall`` tiled by 1;
    `batched`: each batch's, one at a time too),
    or, with `share`, the rows in parts of that many (an ``scf.forall`` of
    them), each part's panels one at a time (``SHARED_ROWS_PANELS``);
    inside each, the rows tiled by ``MATMUL_TILE`` with the sums the
    product starts from (``transform.structured.fuse``: each row tile's
    zeros, or its bias broadcast along the rows), then the reduction, the
    tiles' unit panel dim dropped (a plain (M, N, K) product, vectorised as
    the named matmul's tiles are), marked, both loops peeled; then each row tile's initial sums vectorised, here,
    so that no elementwise rule splits them into rows: a vector that the
    accumulator, hoisted out of the reduction loop, starts from in
    registers.  Filled in a pass over the panel's rows, 128 bytes at a
    stride of a row, then read back, the zeros were about 5% of vit_b_16's
    768 to 3072 layer (one thread), and the bias added after it 3%."""
    rows, _, steps = MATMUL_TILE
    lead = [0] * batched
    if share is None:
        parallel, inner = _parallel_with_init([1, *[1] * batched])
        tiles = f"%row_loop:1 = transform.structured.fuse {inner} tile_sizes [{', '.join(map(str, [*lead, 0, rows, 0, 0]))}] : ({_ANY}) -> ({_ANY}, {_ANY})"
        row_loop = "%row_loop#0"
    else:
        parallel, inner = _parallel_with_init([0, share])
        tiles = f"%row_loop:2 = transform.structured.fuse {inner} tile_sizes [1, {rows}, 0, 0] : ({_ANY}) -> ({_ANY}, {_ANY}, {_ANY})"
        row_loop = "%row_loop#1"
    return _action(
        name,
        [
            *parallel,
            f"%row_tile, {tiles}",
            _tile("%row_tile", [*lead, 0, 0, 0, steps], result="%tiled", loops="%steps"),
            f'%row_fill = transform.structured.match ops{{["linalg.fill", "linalg.broadcast"]}} in %row_loop#0 : ({_ANY}) -> {_ANY}',
            # a generic, so that its unit dim is dropped as the product's is
            f"%row_zeros = transform.structured.generalize %row_fill : ({_ANY}) -> {_ANY}",
            "transform.apply_patterns to %row_loop#0 {",
            "  transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices",
            f"}} : {_ANY}",
            f'%row_generics = transform.structured.match ops{{["linalg.generic"]}} in %row_loop#0 : ({_ANY}) -> {_ANY}',
            f"%zeros, %product = transform.split_handle %row_generics : ({_ANY}) -> ({_ANY}, {_ANY})",
            f'transform.annotate %zeros "{ZEROS}" : {_ANY}',
            f'transform.annotate %product "{MARK}" : {_ANY}',
            *_peel("%steps#0"),
            *_peel(row_loop),
            *_vectorise_in("%forall_1", [ZEROS]),
        ],
    )


def _packed_conv_matcher(name: str) -> str:
    """Matches the ``linalg.generic`` of packed_matmul.py's `packed_conv2d`:
    loops ``(n, p, y, x, j, kh, kw, c)``, the last three reductions, a
    multiply-add body."""
    return _multiply_add_matcher(name, 8, 3)


def _packed_conv_action() -> str:
    """The panels in parallel, one at a time, their initial sums fused in;
    inside each, the output tiled by one image's row of ``CONV_TILE`` 's
    pixels (the tile's initial sums fused in), then its taps one at a time and its
    channels by ``CONV_TILE`` 's steps: the register tile of a direct conv,
    reading a panel's contiguous rows instead of a filter's slices a row
    of filters apart.  (Alone, best of 200 calls at one thread, resnet50's
    14x14 3x3 256-filter conv with its layout transposes: 1.28 ms with
    these tiles, 1.33 with steps of 8 channels, 1.58 to 1.66 with tiles of
    14 pixels, 1.37 as a product of copied taps.)"""
    _, _, width, _, _, _, steps = CONV_TILE
    parallel, inner = _parallel_with_init([0, 1])
    return _action(
        "tile_packed_conv",
        [
            *parallel,
            f"%row_tile, %row_loop:3 = transform.structured.fuse {inner} tile_sizes [1, 0, 1, {width}, 0, 0, 0, 0] : ({_ANY}) -> ({_ANY}, {_ANY}, {_ANY}, {_ANY})",
            _tile("%row_tile", [0, 0, 0, 0, 0, 1, 1, steps], result="%tiled", loops="%steps"),
            "transform.apply_patterns to %row_loop#2 {",
            "  transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices",
            f"}} : {_ANY}",
            f'%product = transform.structured.match ops{{["linalg.generic"]}} in %row_loop#2 : ({_ANY}) -> {_ANY}',
            f'transform.annotate %product "{MARK}" : {_ANY}',
            *_peel("%steps#2"),
            *_peel("%row_loop#2"),
            f'%row_fill = transform.structured.match ops{{["linalg.fill"]}} in %forall_1 : ({_ANY}) -> {_ANY}',
            f'transform.annotate %row_fill "{ZEROS}" : {_ANY}',
            *_vectorise_in("%forall_1", [ZEROS]),
        ],
    )


def _packed_conv_epilogue_action(threads: int) -> str:
    """A `packed_conv2d` tiled from its epilogue (its residual add and clamp,
    on the panels' layout ``[N, H, W, P, PANEL]``): the panels split into one
    part per thread, the conv and its initial sums (the bias broadcast, or
    zeros) fused in; inside each part, the epilogue tiled by one image's row
    of ``CONV_TILE`` 's pixels of one panel, the panels innermost, the conv
    and its initial sums fused into each tile; then the conv's taps one at a
    time and its channels by ``CONV_TILE`` 's steps (`_packed_conv_action`).
    A tile starts from the bias in registers and goes through the epilogue
    before it is stored, once, where the conv's sums were stored whole and a
    second pass read them back, added the bias and clamped them; a tile's
    pixels stay in L1 while the panels pass, and the output is written a row
    of pixels at a time."""
    _, _, width, _, _, _, steps = CONV_TILE
    fuse = "transform.structured.fuse_into_containing_op"
    types = f"({_ANY}, {_ANY}) -> ({_ANY}, {_ANY})"
    forall, inner = _parallel([0, 0, 0, threads], split=True)
    body = [
        f"%init = transform.get_producer_of_operand %conv[2] : ({_ANY}) -> {_ANY}",
        *forall,
        f"%conv_p, %forall_1 = {fuse} %conv into %forall : {types}",
        f"%init_p, %forall_2 = {fuse} %init into %forall_1 : {types}",
        _tile(inner, [1, 1, width, 1, 0], None, "%epilogue", "%loops"),
        f"%conv_t, %pixels_1 = {fuse} %conv_p into %loops#3 : {types}",
        f"%init_t, %pixels_2 = {fuse} %init_p into %pixels_1 : {types}",
        # the tile's sums in a tile-sized buffer (see `_epilogue_action`)
        "transform.apply_patterns to %forall_2 {",
        "  transform.apply_patterns.tensor.fold_tensor_empty",
        f"}} : {_ANY}",
        _tile("%conv_t", [0, 0, 0, 0, 0, 1, 1, steps], result="%tiled", loops="%steps"),
        "transform.apply_patterns to %steps#2 {",
        "  transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices",
        f"}} : {_ANY}",
        f'%product = transform.structured.match ops{{["linalg.generic"]}} in %steps#2 : ({_ANY}) -> {_ANY}',
        *(f'transform.annotate {handle} "{MARK}" : {_ANY}' for handle in ("%product", "%epilogue")),
        f'transform.annotate %init_t "{ZEROS}" : {_ANY}',
        *_peel("%steps#2"),
        *_peel("%loops#2"),
        *_vectorise_in("%forall_2", [ZEROS]),
    ]
    return _action("tile_packed_conv_epilogue", body, ("%op", "%conv"))


def _blocked_packed_matmul_action(
    name: str = "tile_blocked_packed_matmul", batched: bool = False
) -> str:
    """A product on packed panels of few rows (``PACKED_FEW_ROWS``): the
    panels in parallel, one at a time (`batched`: each batch's), their
    initial sums (zeros, or the
    bias) fused in; inside each, the reduction in blocks of
    ``PACKED_K_BLOCK``, then the rows tiled by ``MATMUL_TILE`` and the
    block's steps, the tiles' unit panel dim dropped, marked, the loops
    peeled; each panel's initial sums vectorised here, a vector the first
    block's tiles read their accumulators from."""
    rows, _, steps = MATMUL_TILE
    lead = [0] * batched
    parallel, inner = _parallel_with_init([1, *[1] * batched])
    return _action(
        name,
        [
            *parallel,
            _tile(inner, [*lead, 0, 0, 0, PACKED_K_BLOCK], result="%block", loops="%blocks"),
            _tile("%block", [*lead, 0, rows, 0, 0], result="%row_tile", loops="%row_loop"),
            _tile("%row_tile", [*lead, 0, 0, 0, steps], result="%tiled", loops="%steps"),
            "transform.apply_patterns to %row_loop#0 {",
            "  transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices",
            f"}} : {_ANY}",
            f'%product = transform.structured.match ops{{["linalg.generic"]}} in %row_loop#0 : ({_ANY}) -> {_ANY}',
            f'transform.annotate %product "{MARK}" : {_ANY}',
            *_peel("%steps#0"),
            *_peel("%row_loop#0"),
            *_peel("%blocks#0"),
            f'transform.annotate %init_p "{ZEROS}" : {_ANY}',
            *_vectorise_in("%forall_1", [ZEROS]),
        ],
    )


def _row_reduction_action(name: str, tile: list[int], parallel: list[int] | None = None) -> str:
    """Split the `parallel` dims into that many parts (an ``scf.forall``; none:
    no forall), then tile a row reduction's rows by `tile` (all but its last size), then
    its columns by the last into a loop of partial reductions: each step
    combines a slice of the row into a vector of running results, elementwise,
    and one op after the loop reduces that vector across (``tile_reduction_using_for``);
    mark the three (the partial results' fill, the steps, the combination)
    and peel the column and row loops."""
    rows = [*tile[:-1], 0]
    columns = [0] * (len(tile) - 1) + [tile[-1]]
    row_loops = sum(1 for size in rows if size)
    results = ", ".join([_ANY] * 4)
    forall, inner = _parallel(parallel or [], split=True)
    split = (
        "%partial_fill, %partial, %combined, %columns = "
        f"transform.structured.tile_reduction_using_for %row_tile "
        f"by tile_sizes = [{', '.join(map(str, columns))}] : ({_ANY}) -> ({results})"
    )
    return _action(
        name,
        [
            *forall,
            _tile(inner, rows, result="%row_tile", loops="%rows"),
            split,
            *(
                f'transform.annotate {handle} "{MARK}" : {_ANY}'
                for handle in ("%partial_fill", "%partial", "%combined")
            ),
            *_peel("%columns"),
            *_peel(f"%rows#{row_loops - 1}"),
        ],
    )


ROW_CONSUMER_OPERANDS = (0, 1, 2)
"""The inputs of an elementwise op checked for a row reduction
(`_row_consumer_matcher`): softmax's scaling reads its exponentials and their
sums, after a mask (vit_b_16's) or not."""


def _row_consumer_matcher(name: str, rank: int, reduction_rank: int, operand: int) -> str:
    """Matches an all-parallel ``linalg.generic`` of `rank` loops, of one user,
    whose input `operand` is a reduction along the innermost of its
    `reduction_rank` loops (one more than `rank` where
    ``linalg-fuse-elementwise-ops`` moved the reshape of the reduction's result
    through it): softmax's scaling by its sums.  Its exponentials, read by the
    sum and by the scaling, have two users: the last op of the rows is matched,
    not one before it."""
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> {_ANY} {{
    transform.match.operation_name %op ["linalg.generic"] : {_ANY}
    %m, %producer = transform.match.structured failures(propagate) %op : ({_ANY}) -> ({_ANY}, {_ANY}) {{
      ^bb0(%s: {_ANY}):
        {_rank_is("%s", rank)}
        transform.match.structured.dim %s[all] {{parallel}} : {_ANY}
        %input = transform.match.structured.input %s[{operand}] : ({_ANY}) -> {_ANY}
        %user = transform.match.structured.result %s[0] {{single}} : ({_ANY}) -> {_ANY}
        transform.match.structured.yield %s, %input : {_ANY}, {_ANY}
    }}
    %reduction = transform.match.structured failures(propagate) %producer : ({_ANY}) -> {_ANY} {{
      ^bb0(%r: {_ANY}):
        {_rank_is("%r", reduction_rank)}
        transform.match.structured.dim %r[-1] {{reduction}} : {_ANY}
        transform.match.structured.dim %r[except(-1)] {{parallel}} : {_ANY}
        transform.match.structured.yield %r : {_ANY}
    }}
    transform.yield %m : {_ANY}
  }}"""


def _fused_rows_action(name: str, rank: int) -> str:
    """Tile an op that `_row_consumer_matcher` matched by rows (an
    ``scf.forall`` of one row an iteration) and fuse its producers into each
    row, greedily, through the reshapes (``transform.structured.fuse``): a
    softmax's maximum, exponentials, sum and scaling as one pass over each row,
    which stays in L1 between them, where four passes over the whole tensor
    (vit_b_16's 1.8 MB of scores) went to L2 and beyond.  An elementwise
    producer read twice in a row (the exponentials, by the sum and by the
    scaling) is fused twice; CSE makes one of the copies.  The row's ops are
    then tiled and vectorised by the rules below, as on the whole tensor."""
    rows = [1] * (rank - 1) + [0]
    return _action(
        name,
        [
            (
                f"%tiled, %forall = transform.structured.fuse %op tile_sizes "
                f"[{', '.join(map(str, rows))}] {{apply_cleanup, use_forall}} "
                f": ({_ANY}) -> ({_ANY}, {_ANY})"
            ),
            "transform.apply_patterns to %forall {",
            "  transform.apply_patterns.canonicalization",
            "  transform.apply_patterns.tensor.fold_tensor_empty",
            f"}} : {_ANY}",
            f"transform.apply_cse to %forall : {_ANY}",
        ],
    )


def _vectorise_in(container: str, marks: list[str]) -> list[str]:
    """Canonicalise ``container`` (a peeled tile's static shape, which the
    vectoriser needs) and vectorise the ops in it marked by any of `marks`
    (one the vectoriser rejects is left to the rules that follow)."""
    handles = [f"%marked_{i}" for i in range(len(marks))]
    return [
        f"transform.apply_patterns to {container} {{",
        "  transform.apply_patterns.linalg.tiling_canonicalization",
        "  transform.apply_patterns.canonicalization",
        f"}} : {_ANY}",
        *(
            f"{handle} = transform.structured.match attributes {{{mark}}} in {container} : ({_ANY}) -> {_ANY}"
            for handle, mark in zip(handles, marks)
        ),
        f"%marked = transform.merge_handles {', '.join(handles)} : {_ANY}",
        f"transform.foreach %marked : {_ANY} {{",
        f"^bb0(%each: {_ANY}):",
        f"  transform.sequence %each : {_ANY} failures(suppress) {{",
        f"  ^bb1(%one: {_ANY}):",
        f"    transform.structured.vectorize %one : {_ANY}",
        "  }",
        "}",
    ]


def _batches_matmul_action() -> str:
    """A batch matmul of several batches (attention's heads): the batches in
    parallel (an ``scf.forall`` tiled by 1, its zeros fused in), each
    batch's output tiled by ``MATMUL_TILE`` (columns outer) with the zeros
    (``transform.structured.fuse``), then the reduction; the loops peeled,
    and the tiles and their fills vectorised here: each accumulator starts
    from zeros in registers, where a pass filled the output first (a
    quarter of vit_b_16's 12x197x64 by 12x64x197 product), and no later
    rule takes the tiles, batch matmuls of one batch, again."""
    rows, columns, steps = MATMUL_TILE
    parallel, inner = _parallel_with_init(BATCHES_PARALLEL)
    order = ", ".join(map(str, BATCH_MATMUL_INTERCHANGE))
    return _action(
        "tile_batches_matmul",
        [
            *parallel,
            f"%tile, %outputs:2 = transform.structured.fuse {inner} tile_sizes [0, {rows}, {columns}, 0] interchange [{order}] : ({_ANY}) -> ({_ANY}, {_ANY}, {_ANY})",
            _tile("%tile", [0, 0, 0, steps], result="%tiled", loops="%steps"),
            f'%zeros = transform.structured.match ops{{["linalg.fill"]}} in %outputs#1 : ({_ANY}) -> {_ANY}',
            f'transform.annotate %zeros "{ZEROS}" : {_ANY}',
            f'transform.annotate %tiled "{MARK}" : {_ANY}',
            *_peel("%steps#0"),
            *_peel("%outputs#1"),
            *_peel("%outputs#0"),
            *_vectorise_in("%forall_1", [ZEROS, MARK]),
        ],
    )


def _depthwise_action() -> str:
    """Tile (rows in parallel), drop the tile's unit dims (inside its innermost
    loop only), mark, peel."""
    parallel, inner = _parallel(_rows(DEPTHWISE_TILE))
    return _action(
        "tile_depthwise",
        [
            *parallel,
            _tile(inner, DEPTHWISE_TILE),
            f"%generic = transform.structured.generalize %tiled : ({_ANY}) -> {_ANY}",
            "transform.apply_patterns to %loops#6 {",
            "  transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices",
            f"}} : {_ANY}",
            f'%folded = transform.structured.match ops{{["linalg.generic"]}} in %loops#6 : ({_ANY}) -> {_ANY}',
            f'transform.annotate %folded "{MARK}" : {_ANY}',
            *_peel("%loops#3"),
            *_peel("%loops#2"),
        ],
    )


class _Rule(NamedTuple):
    """Ops `matcher` (``@match_<name>``) matches, tiled by `_tiling_action`
    (`parallel`: the ``scf.forall`` 's tile sizes, or with `split` its number
    of parts per dim; None: no forall)."""

    name: str
    matcher: str
    tile: list[int]
    peel: list[int]
    interchange: list[int] | None = None
    parallel: list[int] | None = None
    split: bool = False
    packed: int | None = None
    """The loop of the columns whose right-operand panel is copied (`_packed_panel`)."""
    folded: bool = False
    """Whether the tile's unit dims are dropped before it is vectorised (`_tiling_action`)."""


def _narrow_transpose_matcher(name: str) -> str:
    """Matches a ``linalg.transpose`` of rank 4 whose innermost loop (its
    result's innermost dim) runs fewer than 16 times."""
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> {_ANY} {{
    transform.match.operation_name %op ["linalg.transpose"] : {_ANY}
    %m = transform.match.structured failures(propagate) %op : ({_ANY}) -> {_ANY} {{
      ^bb0(%s: {_ANY}):
        {_rank_is("%s", 4)}
        %inner = transform.match.structured.dim %s[3] : ({_ANY}) -> !transform.param<i64>
        %sixteen = transform.param.constant 16 : i64 -> !transform.param<i64>
        transform.match.param.cmpi lt %inner, %sixteen : !transform.param<i64>
        transform.match.structured.yield %s : {_ANY}
    }}
    transform.yield %m : {_ANY}
  }}"""


def _conv_matcher(name: str, kind: str) -> str:
    """Matches the ``linalg.conv_2d_nhwc_hwcf`` of `kind`: ``long``, a
    reduction over at least `LONG_REDUCTION` input channels into at most
    `LONG_REDUCTION_ROWS` output rows; ``narrow``, fewer than `NARROW_FILTERS`
    filters; ``thin``, fewer input channels than `CONV_TILE` steps over;
    ``any`` (for the place after the others in a ``foreach_match``)."""
    op = "linalg.conv_2d_nhwc_hwcf"
    if kind == "long":
        return _dims_matcher(name, op, [(6, "ge", LONG_REDUCTION), (1, "le", LONG_REDUCTION_ROWS)])
    if kind == "narrow":
        return _dim_matcher(name, op, 3, "lt", NARROW_FILTERS)
    if kind == "thin":
        return _dim_matcher(name, op, 6, "lt", CONV_TILE[6])
    return _name_matcher(name, [op])


def _conv_rule(name: str, kind: str, threads: int) -> _Rule:
    """The conv's rule: its output rows split into one part per thread (each
    part's rows one at a time inside, filter tiles and reductions in the
    order of `CONV_REDUCTION_OUTER` for a long reduction, else of
    `CONV_ROWS_OUTER`),
    tiled by `NARROW_CONV_TILE` if narrow, by `THIN_CONV_TILE` if thin, else
    by `CONV_TILE`; the peeled loops innermost first."""
    order = CONV_REDUCTION_OUTER if kind == "long" else CONV_ROWS_OUTER
    peel = sorted((order.index(dim) for dim in CONV_PEELED), reverse=True)
    return _Rule(
        name,
        _conv_matcher(f"match_{name}", kind),
        {"narrow": NARROW_CONV_TILE, "thin": THIN_CONV_TILE}.get(kind, CONV_TILE),
        peel,
        order,
        [0, threads],
        split=True,
    )


def _from_linalg_init_matcher(name: str, base: str) -> str:
    """Matches what ``@<base>`` matches where its initial sums (its output
    operand) are made by a linalg op, which `_conv_from_init_action` can
    fuse into its tiles (a reshape of them cannot be)."""
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> {_ANY} {{
    %m = transform.include @{base} failures(propagate) (%op) : ({_ANY}) -> {_ANY}
    %init = transform.get_producer_of_operand %m[2] : ({_ANY}) -> {_ANY}
    transform.match.operation_name %init ["linalg.fill", "linalg.broadcast", "linalg.generic"] : {_ANY}
    transform.yield %m : {_ANY}
  }}"""


def _conv_from_init_action(name: str, threads: int, tile: list[int], order: list[int]) -> str:
    """Tile a conv of no epilogue as `_epilogue_action` tiles one with an
    epilogue: its output rows split into one part per thread, then `tile` 's
    output dims in `order` (``transform.structured.fuse``: its initial sums,
    the bias broadcast or zeros, fused into each tile), then its reduction by
    the rest of `tile`, decomposed to 1-D; the reduction's last loop and the
    loops of the columns and the filters peeled; the initial sums vectorised
    here, one vector of the tile's shape, which the accumulator's first read
    folds into.  A tile starts from the bias in registers, where a pass
    broadcast it over the whole output first and each tile read it back
    (resnet50's 1x1 conv at 56 pixels from 64 to 256 channels: 40% less CPU
    time), and where the initial sums, left to the elementwise rule, were
    written into the tile's output pixel by pixel and read back, waiting
    for the output's lines (the same conv: 1.52 to 1.22 ms)."""
    outputs, reduction = [*tile[:4], 0, 0, 0], [0] * 4 + tile[4:]
    output_order = [dim for dim in order if dim < 4]
    peel = sorted((output_order.index(dim) for dim in (2, 3)), reverse=True)
    steps = sum(1 for size in reduction if size)
    fuse = "transform.structured.fuse_into_containing_op"
    return _action(
        name,
        [
            f"%init = transform.get_producer_of_operand %op[2] : ({_ANY}) -> {_ANY}",
            *_parallel([0, threads], split=True)[0],
            f"%init_p, %forall_1 = {fuse} %init into %forall : ({_ANY}, {_ANY}) -> ({_ANY}, {_ANY})",
            (
                f"%tile, %loops:4 = transform.structured.fuse %inner "
                f"tile_sizes [{', '.join(map(str, outputs))}] "
                f"interchange [{', '.join(map(str, order))}] : ({_ANY}) -> ({', '.join([_ANY] * 5)})"
            ),
            f'%init_t = transform.structured.match ops{{["linalg.fill", "linalg.broadcast", "linalg.generic"]}} in %loops#3 : ({_ANY}) -> {_ANY}',
            _tile("%tile", reduction, None, "%tiled", "%steps"),
            # 1-D before the rules run, which would tile a 2-D window again
            f"%one_d = transform.structured.decompose %tiled : ({_ANY}) -> {_ANY}",
            f'transform.annotate %one_d "{MARK}" : {_ANY}',
            f'transform.annotate %init_t "{ZEROS}" : {_ANY}',
            *_reduction_remainder(tile, f"%steps#{steps - 1}"),
            *(line for loop in peel for line in _peel(f"%loops#{loop}")),
            *_vectorise_in("%forall_1", [ZEROS]),
        ],
    )


EPILOGUE_OPERANDS = ("", "_second")
"""The suffixes of the epilogue matchers by the operand the conv (or the
product) is: the first, or the second (a residual add written ``add(x,
conv(x))``, as mobilenet_v2's)."""


PACKED_CONV_OUTPUT_DIMS = [0, 2, 3, 1, 4]
"""A `packed_conv2d` 's loops of its output ``[N, H, W, P, PANEL]``, in that order."""


def _conv_epilogue_matcher(
    name: str, conv: str, operand: int = 0, conv_dims: Sequence[int] = (0, 1, 2, 3)
) -> str:
    """Matches an all-parallel ``linalg.generic`` (a conv's epilogue: its adds
    and clamps, made one op by ``linalg-fuse-elementwise-ops``) whose input
    `operand` is the only use of a conv that ``@<conv>`` matches, its loops
    the conv's output dims `conv_dims` in order (not, say, a transpose to
    NCHW): yields it and the conv."""
    rank = len(conv_dims)
    dims = f"[{', '.join(map(str, range(rank)))}] : ({_ANY}) -> !transform.param<i64>"
    conv_output = f"[{', '.join(map(str, conv_dims))}] : ({_ANY}) -> !transform.param<i64>"
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> ({_ANY}, {_ANY}) {{
    transform.match.operation_name %op ["linalg.generic"] : {_ANY}
    %m, %producer, %sizes = transform.match.structured failures(propagate) %op : ({_ANY}) -> ({_ANY}, {_ANY}, !transform.param<i64>) {{
      ^bb0(%s: {_ANY}):
        {_rank_is("%s", rank)}
        transform.match.structured.dim %s[all] {{parallel}} : {_ANY}
        %input = transform.match.structured.input %s[{operand}] {{permutation}} : ({_ANY}) -> {_ANY}
        %d = transform.match.structured.dim %s{dims}
        transform.match.structured.yield %s, %input, %d : {_ANY}, {_ANY}, !transform.param<i64>
    }}
    %conv = transform.include @{conv} failures(propagate) (%producer) : ({_ANY}) -> {_ANY}
    %only, %outputs = transform.match.structured failures(propagate) %conv : ({_ANY}) -> ({_ANY}, !transform.param<i64>) {{
      ^bb0(%c: {_ANY}):
        %user = transform.match.structured.result %c[0] {{single}} : ({_ANY}) -> {_ANY}
        %d = transform.match.structured.dim %c{conv_output}
        transform.match.structured.yield %c, %d : {_ANY}, !transform.param<i64>
    }}
    transform.match.param.cmpi eq %sizes, %outputs : !transform.param<i64>
    transform.yield %m, %only : {_ANY}, {_ANY}
  }}"""


def _pooled_copy_matcher(name: str) -> str:
    """Matches a ``linalg.copy`` of rank 4 (a part of a padded pool inserted
    into the result, pooling.py's ``_assembled``, made a copy before the
    products are tiled) whose input is the only use of a max pool: yields it
    and the pool."""
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> ({_ANY}, {_ANY}) {{
    transform.match.operation_name %op ["linalg.copy"] : {_ANY}
    %m, %producer = transform.match.structured failures(propagate) %op : ({_ANY}) -> ({_ANY}, {_ANY}) {{
      ^bb0(%s: {_ANY}):
        {_rank_is("%s", 4)}
        %input = transform.match.structured.input %s[0] : ({_ANY}) -> {_ANY}
        transform.match.structured.yield %s, %input : {_ANY}, {_ANY}
    }}
    transform.match.operation_name %producer ["linalg.pooling_nhwc_max"] : {_ANY}
    %pool = transform.match.structured failures(propagate) %producer : ({_ANY}) -> {_ANY} {{
      ^bb0(%p: {_ANY}):
        %user = transform.match.structured.result %p[0] {{single}} : ({_ANY}) -> {_ANY}
        transform.match.structured.yield %p : {_ANY}
    }}
    transform.yield %m, %pool : {_ANY}, {_ANY}
  }}"""


def _pooled_copy_action() -> str:
    """Tile a pooled copy (`_pooled_copy_matcher`) as its pool would be, by
    output rows in an ``scf.forall``, and fuse into each row the pool and
    the lowest values it starts from, in a buffer of one row (a row's
    ``tensor.empty``, once the fused slices of the whole one fold): the pool,
    tiled by ``POOL_TILE``, writes each row into that buffer, in cache, and
    the copy moves it to the result.  Pooled whole
    into a buffer of its own, first filled, then copied, resnet's stem pool
    made three passes over its output, the last two through memory."""
    fuse = "transform.structured.fuse_into_containing_op"
    types = f"({_ANY}, {_ANY}) -> ({_ANY}, {_ANY})"
    rows = _rows(POOL_TILE)
    parallel, copy = _parallel(rows)
    body = [
        f"%init = transform.get_producer_of_operand %pool[2] : ({_ANY}) -> {_ANY}",
        *parallel,
        f"%pool_p, %forall_1 = {fuse} %pool into %forall : {types}",
        f"%init_p, %forall_2 = {fuse} %init into %forall_1 : {types}",
        "transform.apply_patterns to %forall_2 {",
        "  transform.apply_patterns.tensor.fold_tensor_empty",
        f"}} : {_ANY}",
        _tile("%pool_p", [0] * len(rows) + POOL_TILE[len(rows) :]),
        f"%one_d = transform.structured.decompose %tiled : ({_ANY}) -> {_ANY}",
        *(
            f'transform.annotate {handle} "{MARK}" : {_ANY}'
            for handle in ("%one_d", "%init_p", copy)
        ),
        # the columns' loop, outermost of the row's (its 2-output tiles may not divide them)
        *_peel("%loops#0"),
    ]
    return _action("tile_pooled_copy", body, ("%op", "%pool"))


def _padded_epilogue_matcher(name: str, epilogue: str, rows: int, predicate: str = "ge") -> str:
    """Matches what ``@<epilogue>`` matches (an epilogue and its windowed op)
    where the op's output rows compare with `rows` by `predicate` and its
    input is written by an op of no inputs (conversion/linalg.py's
    ``zero_padded``): yields the epilogue, the op and that one."""
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> ({_ANY}, {_ANY}, {_ANY}) {{
    %epilogue, %conv = transform.include @{epilogue} failures(propagate) (%op) : ({_ANY}) -> ({_ANY}, {_ANY})
    %c, %producer = transform.match.structured failures(propagate) %conv : ({_ANY}) -> ({_ANY}, {_ANY}) {{
      ^bb0(%s: {_ANY}):
        %rows = transform.match.structured.dim %s[1] : ({_ANY}) -> !transform.param<i64>
        %enough = transform.param.constant {rows} : i64 -> !transform.param<i64>
        transform.match.param.cmpi {predicate} %rows, %enough : !transform.param<i64>
        %input = transform.match.structured.input %s[0] : ({_ANY}) -> {_ANY}
        transform.match.structured.yield %s, %input : {_ANY}, {_ANY}
    }}
    %padded = transform.match.structured failures(propagate) %producer : ({_ANY}) -> {_ANY} {{
      ^bb0(%p: {_ANY}):
        %inputs = transform.match.structured.num_inputs %p : ({_ANY}) -> !transform.param<i64>
        %none = transform.param.constant 0 : i64 -> !transform.param<i64>
        transform.match.param.cmpi eq %inputs, %none : !transform.param<i64>
        transform.match.structured.yield %p : {_ANY}
    }}
    transform.yield %epilogue, %c, %padded : {_ANY}, {_ANY}, {_ANY}
  }}"""


def _rows_below_matcher(name: str, base: str, rows: int) -> str:
    """Matches what ``@<base>`` matches (an epilogue, its windowed op and the
    op's padded input) where the op has fewer than `rows` output rows."""
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> ({_ANY}, {_ANY}, {_ANY}) {{
    %epilogue, %conv, %padded = transform.include @{base} failures(propagate) (%op) : ({_ANY}) -> ({_ANY}, {_ANY}, {_ANY})
    %c = transform.match.structured failures(propagate) %conv : ({_ANY}) -> {_ANY} {{
      ^bb0(%s: {_ANY}):
        %rows = transform.match.structured.dim %s[1] : ({_ANY}) -> !transform.param<i64>
        %bound = transform.param.constant {rows} : i64 -> !transform.param<i64>
        transform.match.param.cmpi lt %rows, %bound : !transform.param<i64>
        transform.match.structured.yield %s : {_ANY}
    }}
    transform.yield %epilogue, %c, %padded : {_ANY}, {_ANY}, {_ANY}
  }}"""


PARALLEL_EPILOGUE_ROWS = 14
"""A product's epilogue of fewer rows stays on one thread: a pass of 7 rows
(mobilenet_v2's at 7 pixels, about 10 to 20 us) is short against a fork and a
join, which on a busy machine wait for a core (on two threads at a load of 5,
mobilenet_v2 ran 5 to 10% slower with every product's epilogue split; at a
load of 1, no faster: medians of 60 alternating rounds, 4.627 ms a call with
the 7-row ones split too, 4.624 without)."""


def _product_epilogue_matcher(name: str, operand: int = 0) -> str:
    """Matches an all-parallel ``linalg.generic`` of rank 4, of at least
    `PARALLEL_EPILOGUE_ROWS` rows, whose input `operand` is a
    ``tensor.collapse_shape``: the epilogue of a conv made a product of
    copied taps on packed panels (its clamp, on the product's panels
    collapsed to NHWC), whose rows are split among the threads: a pass over
    the output that ran on one thread while the other waited (mobilenet_v2's
    1x1 convs at 14 pixels, before their epilogues ran in their tiles)."""
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> {_ANY} {{
    transform.match.operation_name %op ["linalg.generic"] : {_ANY}
    %m, %producer = transform.match.structured failures(propagate) %op : ({_ANY}) -> ({_ANY}, {_ANY}) {{
      ^bb0(%s: {_ANY}):
        {_rank_is("%s", 4)}
        transform.match.structured.dim %s[all] {{parallel}} : {_ANY}
        %rows = transform.match.structured.dim %s[1] : ({_ANY}) -> !transform.param<i64>
        %enough = transform.param.constant {PARALLEL_EPILOGUE_ROWS} : i64 -> !transform.param<i64>
        transform.match.param.cmpi ge %rows, %enough : !transform.param<i64>
        %input = transform.match.structured.input %s[{operand}] : ({_ANY}) -> {_ANY}
        transform.match.structured.yield %s, %input : {_ANY}, {_ANY}
    }}
    transform.match.operation_name %producer ["tensor.collapse_shape"] : {_ANY}
    transform.yield %m : {_ANY}
  }}"""


def _epilogue_action(
    name: str,
    threads: int,
    tile: list[int],
    order: list[int],
    padded_block: int = 0,
    padded_channels: bool = False,
    padded_block_channels: int = 0,
) -> str:
    """Tile an epilogue as its windowed op's output (rows split per thread,
    then `tile` 's output dims, the first four, in `order`) and fuse into each
    tile the op and its initial sums (the bias broadcast, or zeros), then tile
    the op's reduction by the rest of `tile`, decomposed to 1-D, and peel the
    loops of the columns and the channels (dims 2 and 3, whose tiles may not
    divide them) and the reduction's last loop, and vectorise the initial
    sums here (see `_conv_from_init_action`): a tile starts from the bias in
    registers, sums every tap and channel, and goes through the epilogue
    before it is stored, once.

    With `padded_block`, the op's padded input (``%padded``, a third
    argument) is fused too, into blocks of that many rows (and, with
    `padded_block_channels`, that many channels) of each thread's share, a
    last smaller block peeled; with `padded_channels`, the channels are split
    per thread instead of the rows, and the padded input fused into each
    thread's part (and into its blocks, with `padded_block`)."""
    outputs, reduction = tile[:4], [0] * 4 + tile[4:]
    steps = sum(1 for size in reduction if size)
    peel = sorted((order.index(dim) for dim in (2, 3)), reverse=True)
    fuse = "transform.structured.fuse_into_containing_op"
    types = f"({_ANY}, {_ANY}) -> ({_ANY}, {_ANY})"
    body = [
        f"%init = transform.get_producer_of_operand %conv[2] : ({_ANY}) -> {_ANY}",
        *_parallel([0, 0, 0, threads] if padded_channels else [0, threads], split=True)[0],
        f"%conv_p, %forall_1 = {fuse} %conv into %forall : {types}",
        f"%init_p, %forall_2 = {fuse} %init into %forall_1 : {types}",
    ]
    if padded_channels or padded_block:
        body.append(f"%pad_p, %forall_3 = {fuse} %padded into %forall_2 : {types}")
    inner = "%inner"
    if padded_block:
        blocks = 2 if padded_block_channels else 1
        body += [
            _tile(
                "%inner",
                [0, padded_block, 0, padded_block_channels],
                None,
                "%block_epilogue",
                "%block",
            ),
            f"%conv_b, %block_1 = {fuse} %conv_p into %block#{blocks - 1} : {types}",
            f"%init_b, %block_2 = {fuse} %init_p into %block_1 : {types}",
            f"%pad_b, %block_3 = {fuse} %pad_p into %block_2 : {types}",
        ]
        inner = "%block_epilogue"
    conv, init = ("%conv_b", "%init_b") if padded_block else ("%conv_p", "%init_p")
    body += [
        _tile(inner, outputs, order, "%epilogue", "%loops"),
        f"%conv_t, %pixels_1 = {fuse} {conv} into %loops#3 : {types}",
        f"%init_t, %pixels_2 = {fuse} {init} into %pixels_1 : {types}",
        # The tile's sums start from a tile-sized empty tensor, not a slice of
        # a full-size one: a buffer the size of the tile (hoisted out of the
        # loops, see bufferize), where a second output-sized buffer took every
        # tile's sums on their way to the epilogue (resnet50's 1x1 convs at
        # 56x56 to 256 channels with a residual add: 0.9 to 0.5 ms).
        f"transform.apply_patterns to {'%forall_3' if padded_block or padded_channels else '%forall_2'} {{",
        "  transform.apply_patterns.tensor.fold_tensor_empty",
        f"}} : {_ANY}",
        _tile("%conv_t", reduction, None, "%tiled", "%steps"),
        # 1-D before the rules run, which would tile a 2-D window again
        f"%one_d = transform.structured.decompose %tiled : ({_ANY}) -> {_ANY}",
        *(f'transform.annotate {handle} "{MARK}" : {_ANY}' for handle in ("%one_d", "%epilogue")),
        f'transform.annotate %init_t "{ZEROS}" : {_ANY}',
        *_reduction_remainder(tile, f"%steps#{steps - 1}"),
        *(line for loop in peel for line in _peel(f"%loops#{loop}")),
        *(_peel("%block#1") if padded_block and padded_block_channels else []),
        *(_peel("%block#0") if padded_block else []),
        *_vectorise_in("%forall_1", [ZEROS]),
    ]
    padded = ("%padded",) if padded_block or padded_channels else ()
    return _action(name, body, ("%op", "%conv", *padded))


PAD_ROWS = {3: 0, 4: 1}
"""The rows' dim of a padded tensor by its rank: ``tosa.pad`` 's (an NHWC tensor
of one image padded as HWC), and a conv's pad (NHWC)."""


PARALLEL_PAD_ROWS = 48
"""A pad of fewer padded rows stays on one thread: its pass is short against
a fork and a join, which on a busy machine wait for a core (mobilenet_v2's
pads of 57 to 114 rows are three quarters of its padding's bytes, those of 9 to
30 rows the other quarter)."""


def _pad_rows_matcher(name: str, rank: int) -> str:
    """Matches an all-parallel op of `rank` loops, of at least
    `PARALLEL_PAD_ROWS` rows (`PAD_ROWS`)."""
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> {_ANY} {{
    %m = transform.match.structured failures(propagate) %op : ({_ANY}) -> {_ANY} {{
      ^bb0(%s: {_ANY}):
        {_rank_is("%s", rank)}
        transform.match.structured.dim %s[all] {{parallel}} : {_ANY}
        %rows = transform.match.structured.dim %s[{PAD_ROWS[rank]}] : ({_ANY}) -> !transform.param<i64>
        %enough = transform.param.constant {PARALLEL_PAD_ROWS} : i64 -> !transform.param<i64>
        transform.match.param.cmpi ge %rows, %enough : !transform.param<i64>
        transform.match.structured.yield %s : {_ANY}
    }}
    transform.yield %m : {_ANY}
  }}"""


def _parallel_pads(threads: int) -> tuple[str, list[str]]:
    """The sequences and the lines (after ``%pad_copies``) that split the rows
    of each pad's fill and copy, of `PARALLEL_PAD_ROWS` rows or more, among
    `threads` threads (none on one): a pad is a whole pass over a tensor, as long as the
    conv's own after it (mobilenet_v2's pads before its depthwise convs took
    about a tenth of its time on two threads, all on one of them)."""
    if threads < 2:
        return "", []
    sequences = ""
    rules = []
    for rank, dim in PAD_ROWS.items():
        parts = [0] * dim + [threads]
        sequences += _pad_rows_matcher(f"match_pad_rows{rank}", rank)
        sequences += f"""
  transform.named_sequence @split_pad_rows{rank}(%op: {_ANY} {{transform.consumed}}) {{
    {_parallel(parts, split=True)[0][0]}
    transform.yield
  }}"""
        rules.append(f"@match_pad_rows{rank} -> @split_pad_rows{rank}")
    lines = [
        f"%pad_slices = transform.get_producer_of_operand %pad_copies[1] : ({_ANY}) -> {_ANY}",
        f"%pad_fills = transform.get_producer_of_operand %pad_slices[0] : ({_ANY}) -> {_ANY}",
        f"%pad_ops = transform.merge_handles %pad_copies, %pad_fills : {_ANY}",
        f"transform.foreach %pad_ops : {_ANY} {{",
        f"^bb0(%one: {_ANY}):",
        "  %split = transform.foreach_match restrict_root in %one",
        f"      {', '.join(rules)} : ({_ANY}) -> {_ANY}",
        "}",
    ]
    return sequences, lines


PARALLEL_ROWS = 128
PARALLEL_COLUMNS = 64
"""An elementwise op, transpose or row reduction is split among the threads
(`_large_op_splits`) only with at least `PARALLEL_ROWS` in one of its outer
dims and `PARALLEL_COLUMNS` in its innermost: a pass long against a fork and a
join (vit_b_16's softmax over 12x197 rows of 197, gelu over 197x3072), where
resnet18's and mobilenet_v2's many elementwise loops at 112 pixels or fewer
stay on one thread (on two threads, all 65 of resnet18's took it from 85 to
110 ms at a load of 11), and so do bert's and gpt2's at 64 rows of 768 (split,
at 64 rows, they took bert from 90 to 103 ms a run and gpt2 from 88 to 100, at
a load of about 2.5: their time in the OpenMP runtime 2.5 times as long; at a
load of about 1.3 they saved 4 %, 50.3 to 48.4 ms and 50.5 to 48.8)."""


def _large_op_matcher(name: str, base: str, rank: int, split: int, rows: int) -> str:
    """Matches what ``@<base>`` matches (an op of `rank` loops) where loop
    `split` runs at least twice, loop `rows` (outer) at least `PARALLEL_ROWS`
    times and the innermost at least `PARALLEL_COLUMNS` times."""
    return f"""
  transform.named_sequence @{name}(%op: {_ANY} {{transform.readonly}}) -> {_ANY} {{
    %base = transform.include @{base} failures(propagate) (%op) : ({_ANY}) -> {_ANY}
    %m = transform.match.structured failures(propagate) %base : ({_ANY}) -> {_ANY} {{
      ^bb0(%s: {_ANY}):
        %parts = transform.match.structured.dim %s[{split}] : ({_ANY}) -> !transform.param<i64>
        %two = transform.param.constant 2 : i64 -> !transform.param<i64>
        transform.match.param.cmpi ge %parts, %two : !transform.param<i64>
        %rows = transform.match.structured.dim %s[{rows}] : ({_ANY}) -> !transform.param<i64>
        %enough_rows = transform.param.constant {PARALLEL_ROWS} : i64 -> !transform.param<i64>
        transform.match.param.cmpi ge %rows, %enough_rows : !transform.param<i64>
        %columns = transform.match.structured.dim %s[{rank - 1}] : ({_ANY}) -> !transform.param<i64>
        %enough_columns = transform.param.constant {PARALLEL_COLUMNS} : i64 -> !transform.param<i64>
        transform.match.param.cmpi ge %columns, %enough_columns : !transform.param<i64>
        transform.match.structured.yield %s : {_ANY}
    }}
    transform.yield %m : {_ANY}
  }}"""


def _large_op_splits(threads: int) -> tuple[str, list[str], list[str]]:
    """The sequences and the ``foreach_match`` pairs (before the transposes'
    and elementwise ops', and before the row reductions') that split a large
    elementwise op, transpose or row reduction (`PARALLEL_ROWS`) among
    `threads` threads (none on one): its outermost loop that runs at least
    twice and that its tile takes one at a time (heads, rows; not a
    transpose's 16-row blocks, whose remainder would not be static), split
    into one part per thread, then tiled as on one thread.  Each row is
    reduced whole by one thread, in the same order: the results are those
    of one thread.  On one thread, each of these passes ran while the other
    waited (vit_b_16 on two threads: its softmax, gelu, attention
    transposes and layer_norm about 33 ms of its 170 a run)."""
    if threads < 2:
        return "", [], []
    sequences = ""
    parallel_pairs: list[str] = []
    reduction_pairs: list[str] = []
    kinds = [
        ("transpose", TRANSPOSE_TILES, False),
        ("elementwise", ELEMENTWISE_TILES, False),
        ("row_reduction", ROW_REDUCTION_TILES, True),
    ]
    for kind, tiles, reduction in kinds:
        for rank, tile in tiles.items():
            outer = _rows(tile)[: rank - 1]
            for split in range(len(outer)):
                parts = [0] * split + [threads]
                action = f"split_large_{kind}{rank}_{split}"
                if reduction:
                    sequences += _row_reduction_action(action, tile, parts)
                else:
                    nonzero = sum(1 for size in tile if size)
                    peel = (
                        [nonzero - 1, nonzero - 2]
                        if kind == "elementwise"
                        else [rank - 1, rank - 2]
                    )
                    sequences += _tiling_action(action, tile, peel, parallel=parts, split=True)
                for rows in range(split, rank - 1):
                    matcher = f"match_large_{kind}{rank}_{split}_{rows}"
                    sequences += _large_op_matcher(
                        matcher, f"match_{kind}{rank}", rank, split, rows
                    )
                    pair = f"@{matcher} -> @{action}"
                    (reduction_pairs if reduction else parallel_pairs).append(pair)
    return sequences, parallel_pairs, reduction_pairs


def _build_schedule(threads: int = 1) -> str:
    rules = [
        # Widths, channel counts and filter counts that a tile does not divide
        # (7, 14, 28; the stem's 3 channels; 1000 classes) leave a remainder
        # tile; peeling it keeps every tile's shape static, as vectorising needs.
        # A conv's output rows are split among the threads, not shared out one
        # at a time, so that each thread keeps its filter slices in its cache
        # across its rows.
        # (those whose initial sums are a linalg op, with them first:
        # _conv_from_init_action)
        _conv_rule("conv_long", "long", threads),
        _conv_rule("conv_narrow", "narrow", threads),
        _conv_rule("conv_thin", "thin", threads),
        _conv_rule("conv", "any", threads),
        _Rule(
            "depthwise_hwc",
            _name_matcher("match_depthwise_hwc", ["linalg.depthwise_conv_2d_nhwc_hwc"]),
            DEPTHWISE_HWC_TILE,
            [3, 2],
            parallel=_rows(DEPTHWISE_HWC_TILE),
        ),
        _Rule(
            "pool",
            _name_matcher("match_pool", ["linalg.pooling_nhwc_max", "linalg.pooling_nhwc_sum"]),
            POOL_TILE,
            [3, 2],
            parallel=_rows(POOL_TILE),
        ),
        # float32 matmuls read a packed copy of their panel (its zero padding
        # is a float32), others their operand in place.
        _Rule(
            "batch_matmul_f32",
            _f32_matcher("match_batch_matmul_f32", "linalg.batch_matmul"),
            BATCH_MATMUL_TILE,
            [3, 2, 1],
            BATCH_MATMUL_INTERCHANGE,
            BATCH_MATMUL_PARALLEL,
            packed=2,
        ),
        _Rule(
            "batch_matmul",
            _name_matcher("match_batch_matmul", ["linalg.batch_matmul"]),
            BATCH_MATMUL_TILE,
            [3, 2, 1],
            BATCH_MATMUL_INTERCHANGE,
            BATCH_MATMUL_PARALLEL,
        ),
        _Rule(
            "matmul_f32",
            _f32_matcher("match_matmul_f32", "linalg.matmul"),
            MATMUL_TILE,
            [2, 1, 0],
            MATMUL_INTERCHANGE,
            MATMUL_PARALLEL,
            packed=1,
        ),
        _Rule(
            "matmul",
            _name_matcher("match_matmul", ["linalg.matmul"]),
            MATMUL_TILE,
            [2, 1, 0],
            MATMUL_INTERCHANGE,
            MATMUL_PARALLEL,
        ),
    ]
    rules.append(
        _Rule(
            "narrow_transpose",
            _narrow_transpose_matcher("match_narrow_transpose"),
            NARROW_TRANSPOSE_TILE,
            [2],
            # its rows split among the threads: a CNN's input, the first
            # pass of the model, which one thread ran while the other waited
            parallel=[0, threads] if threads > 1 else None,
            split=True,
            folded=True,
        )
    )
    for rank, tile in TRANSPOSE_TILES.items():
        rules.append(
            _Rule(
                f"transpose{rank}",
                _name_matcher(f"match_transpose{rank}", ["linalg.transpose"], rank=rank),
                tile,
                [rank - 1, rank - 2],
            )
        )
    for rank, tile in ELEMENTWISE_TILES.items():
        nonzero = sum(1 for size in tile if size)
        rules.append(
            _Rule(
                f"elementwise{rank}",
                _rank_matcher(f"match_elementwise{rank}", rank, parallel_only=True),
                tile,
                [nonzero - 1, nonzero - 2] if nonzero > 1 else [0],
            )
        )
    sequences = "".join(
        rule.matcher
        + _tiling_action(
            f"tile_{rule.name}",
            rule.tile,
            rule.peel,
            rule.interchange,
            rule.parallel,
            rule.split,
            rule.packed,
            rule.folded,
        )
        for rule in rules
    )
    sequences += (
        _name_matcher("match_depthwise", ["linalg.depthwise_conv_2d_nhwc_hwcm"])
        + _depthwise_action()
        + _batches_matcher("match_batches_matmul", "linalg.batch_matmul")
        + _batches_matmul_action()
        + _packed_matmul_matcher("match_few_rows_packed_matmul", [(1, "le", PACKED_FEW_ROWS)])
        + _blocked_packed_matmul_action()
        + _packed_conv_matcher("match_packed_conv")
        + _packed_conv_action()
        + _packed_conv_epilogue_action(threads)
        + _packed_matmul_matcher("match_packed_matmul")
        + _packed_matmul_action()
        + _packed_matmul_matcher(
            "match_few_rows_batched_packed_matmul", [(1, "le", PACKED_FEW_ROWS)], batched=True
        )
        + _blocked_packed_matmul_action("tile_blocked_batched_packed_matmul", batched=True)
        + _packed_matmul_matcher("match_batched_packed_matmul", batched=True)
        + _packed_matmul_action("tile_batched_packed_matmul", batched=True)
        + _pooled_copy_matcher("match_pooled_copy")
        + _pooled_copy_action()
        + "".join(_bool_matcher(kind, index) for kind, index in BOOL_OPERANDS)
        + "".join(
            _row_reduction_matcher(f"match_row_reduction{rank}", rank)
            + _row_reduction_action(f"tile_row_reduction{rank}", tile)
            for rank, tile in ROW_REDUCTION_TILES.items()
        )
        + _contraction_matcher("match_contraction")
        + LEAVE_ALONE
        + "".join(
            _conv_epilogue_matcher(
                f"match_conv{kind}_epilogue{suffix}", f"match_conv{kind}", operand
            )
            for kind in ("_long", "_narrow", "_thin", "")
            for operand, suffix in enumerate(EPILOGUE_OPERANDS)
        )
        + "".join(
            _conv_epilogue_matcher(
                f"match_packed_conv_epilogue{suffix}",
                "match_packed_conv",
                operand,
                PACKED_CONV_OUTPUT_DIMS,
            )
            for operand, suffix in enumerate(EPILOGUE_OPERANDS)
        )
        + _epilogue_action(
            "tile_conv_narrow_epilogue", threads, NARROW_CONV_TILE, CONV_EPILOGUE_ORDER
        )
        + _epilogue_action("tile_conv_thin_epilogue", threads, THIN_CONV_TILE, CONV_EPILOGUE_ORDER)
        + _epilogue_action("tile_conv_epilogue", threads, CONV_TILE, CONV_EPILOGUE_ORDER)
        + "".join(
            _from_linalg_init_matcher(f"match_{name}_from_init", f"match_{name}")
            for name in ("conv_narrow", "conv_thin", "conv")
        )
        + _conv_from_init_action(
            "tile_conv_narrow_from_init", threads, NARROW_CONV_TILE, CONV_ROWS_OUTER
        )
        + _conv_from_init_action(
            "tile_conv_thin_from_init", threads, THIN_CONV_TILE, CONV_ROWS_OUTER
        )
        + _conv_from_init_action("tile_conv_from_init", threads, CONV_TILE, CONV_ROWS_OUTER)
        + _conv_epilogue_matcher("match_depthwise_hwc_epilogue", "match_depthwise_hwc")
        + _epilogue_action("tile_depthwise_hwc_epilogue", threads, DEPTHWISE_HWC_TILE, [0, 1, 2, 3])
        + _padded_epilogue_matcher(
            "match_depthwise_hwc_padded_epilogue",
            "match_depthwise_hwc_epilogue",
            DEPTHWISE_PAD_BLOCK * threads,
        )
        + _epilogue_action(
            "tile_depthwise_hwc_padded_epilogue",
            threads,
            DEPTHWISE_HWC_TILE,
            [0, 1, 2, 3],
            DEPTHWISE_PAD_BLOCK,
        )
        + _rows_below_matcher(
            "match_depthwise_hwc_small_padded_epilogue",
            "match_depthwise_hwc_padded_epilogue",
            DEPTHWISE_CHANNEL_BLOCK_ROWS,
        )
        + _epilogue_action(
            "tile_depthwise_hwc_small_padded_epilogue",
            threads,
            DEPTHWISE_HWC_TILE,
            [0, 1, 2, 3],
            DEPTHWISE_PAD_BLOCK,
            padded_block_channels=DEPTHWISE_CHANNEL_BLOCK,
        )
        + _padded_epilogue_matcher(
            "match_depthwise_hwc_few_rows_epilogue",
            "match_depthwise_hwc_epilogue",
            DEPTHWISE_PAD_BLOCK * threads,
            "lt",
        )
        + _epilogue_action(
            "tile_depthwise_hwc_few_rows_epilogue",
            threads,
            DEPTHWISE_HWC_TILE,
            [0, 1, 2, 3],
            DEPTHWISE_PAD_BLOCK,
            padded_channels=True,
            padded_block_channels=DEPTHWISE_CHANNEL_BLOCK,
        )
    )
    row_consumers = [
        (rank, reduction_rank, operand)
        for rank in ELEMENTWISE_TILES
        if rank > 1
        for reduction_rank in (rank + 1, rank)
        if reduction_rank in ROW_REDUCTION_TILES
        for operand in ROW_CONSUMER_OPERANDS
    ]
    sequences += "".join(
        _row_consumer_matcher(
            f"match_row_consumer{rank}_{reduction}_{operand}", rank, reduction, operand
        )
        for rank, reduction, operand in row_consumers
    ) + "".join(
        _fused_rows_action(f"fuse_rows{rank}", rank)
        for rank in sorted({rank for rank, _, _ in row_consumers})
    )
    row_pairs = ",\n        ".join(
        f"@match_row_consumer{rank}_{reduction}_{operand} -> @fuse_rows{rank}"
        for rank, reduction, operand in row_consumers
    )
    large_sequences, large_pairs, large_reduction_pairs = _large_op_splits(threads)
    sequences += large_sequences
    heavy = [rule.name for rule in rules if not rule.name.startswith(("transpose", "elementwise"))]
    light = [rule.name for rule in rules if rule.name not in heavy]
    pairs = ",\n        ".join(
        [f"@match_bool_{kind}{index} -> @leave_alone" for kind, index in BOOL_OPERANDS]
        + ["@match_contraction -> @leave_alone"]
        + [f"@match_{name} -> @tile_{name}" for name in heavy]
        + large_pairs
        + [f"@match_{name} -> @tile_{name}" for name in [*light, "depthwise"]]
        + large_reduction_pairs
        + [
            f"@match_row_reduction{rank} -> @tile_row_reduction{rank}"
            for rank in ROW_REDUCTION_TILES
        ]
    )
    pad_sequences, pad_lines_list = _parallel_pads(threads)
    sequences += pad_sequences
    product_epilogue_rule = few_rows_rule = ""
    if threads > 1:
        few_rows_rule = "\n        @match_depthwise_hwc_few_rows_epilogue -> @tile_depthwise_hwc_few_rows_epilogue,"
        sequences += "".join(
            _product_epilogue_matcher(f"match_product_epilogue{suffix}", operand)
            for operand, suffix in enumerate(EPILOGUE_OPERANDS)
        ) + _action("split_product_epilogue", _parallel([0, threads], split=True)[0])
        product_epilogue_rule = "".join(
            f",\n        @match_product_epilogue{suffix} -> @split_product_epilogue"
            for suffix in EPILOGUE_OPERANDS
        )
    pad_lines = "\n    ".join(pad_lines_list)
    shared_rows_rule = ""
    if threads > 1 and PRODUCT_PIXELS % threads == 0:
        sequences += _packed_matmul_matcher(
            "match_shared_rows_packed_matmul",
            [
                (1, "eq", PRODUCT_PIXELS),
                (0, "le", SHARED_ROWS_PANELS),
                (3, "le", SHARED_ROWS_STEPS),
            ],
        ) + _packed_matmul_action("tile_shared_rows_packed_matmul", PRODUCT_PIXELS // threads)
        shared_rows_rule = (
            "\n        @match_shared_rows_packed_matmul -> @tile_shared_rows_packed_matmul,"
        )
    return f"""module attributes {{transform.with_named_sequence}} {{{sequences}
  transform.named_sequence @{PACKED_ENTRY}(%root: {_ANY} {{transform.readonly}}) {{
    // Pads become a fill and a linalg.copy into the padded tensor, which are
    // tiled and vectorised later like any elementwise op (left alone, the pad's
    // strided copy calls memrefCopy of MLIR's runner library, element by element);
    // here, before the products on packed panels are tiled, so that their
    // tiles' inserts stay inserts.
    %pads = transform.structured.match ops{{["tensor.pad"]}} in %root : ({_ANY}) -> {_ANY}
    %padded = transform.structured.rewrite_in_destination_passing_style %pads : ({_ANY}) -> {_ANY}
    %pad_copies = transform.structured.insert_slice_to_copy %padded : ({_ANY}) -> {_ANY}
    // Other inserts become copies too, except in the functions that build a
    // padded result (IN_PLACE, conversion/padded_results.py), whose inserts
    // bufferization writes in place. (A failed match stops the inner sequence,
    // which propagates it; the outer one suppresses it.)
    %functions = transform.structured.match ops{{["func.func"]}} in %root : ({_ANY}) -> {_ANY}
    transform.foreach %functions : {_ANY} {{
    ^bb0(%function: {_ANY}):
      transform.sequence %function : {_ANY} failures(suppress) {{
      ^bb1(%unless_marked: {_ANY}):
        transform.sequence %unless_marked : {_ANY} failures(propagate) {{
        ^bb2(%copying: {_ANY}):
          %marked = transform.structured.match attributes{{{IN_PLACE}}} in %copying : ({_ANY}) -> {_ANY}
          %count = transform.num_associations %marked : ({_ANY}) -> !transform.param<i64>
          %none = transform.param.constant 0 : i64 -> !transform.param<i64>
          transform.match.param.cmpi eq %count, %none : !transform.param<i64>
          %inserts = transform.structured.match ops{{["tensor.insert_slice"]}} in %copying : ({_ANY}) -> {_ANY}
          %copies = transform.structured.insert_slice_to_copy %inserts : ({_ANY}) -> {_ANY}
        }}
      }}
    }}
    {pad_lines}
    %func = transform.structured.match ops{{["func.func"]}} in %root : ({_ANY}) -> {_ANY}
    %after = transform.foreach_match in %func
        @match_few_rows_packed_matmul -> @tile_blocked_packed_matmul,{shared_rows_rule}
        @match_packed_matmul -> @tile_packed_matmul,
        @match_few_rows_batched_packed_matmul -> @tile_blocked_batched_packed_matmul,
        @match_batched_packed_matmul -> @tile_batched_packed_matmul : ({_ANY}) -> {_ANY}
    transform.yield
  }}
  transform.named_sequence @__transform_main(%root: {_ANY} {{transform.readonly}}) {{
    %fhwc = transform.structured.match ops{{["linalg.conv_2d_nhwc_fhwc"]}} in %root : ({_ANY}) -> {_ANY}
    %hwcf = transform.structured.transpose_conv2d %fhwc : ({_ANY}) -> {_ANY}
    // A filter that arrives HWIO and goes through tosa.transpose to OHWI now
    // meets its inverse transpose: the pair folds away here.
    transform.apply_patterns to %root {{
      transform.apply_patterns.canonicalization
    }} : {_ANY}
    %func = transform.structured.match ops{{["func.func"]}} in %root : ({_ANY}) -> {_ANY}
    // A conv of a short reduction with an epilogue is tiled with it first (the
    // elementwise rules below find its epilogue's tiles again, and split each
    // into one pixel's channels: the loop stays inside the conv's tile).
    %fused = transform.foreach_match in %func
        @match_pooled_copy -> @tile_pooled_copy,
        @match_packed_conv_epilogue -> @tile_packed_conv_epilogue,
        @match_packed_conv_epilogue_second -> @tile_packed_conv_epilogue,
        @match_conv_long_epilogue -> @leave_both_alone,
        @match_conv_long_epilogue_second -> @leave_both_alone,
        @match_conv_narrow_epilogue -> @tile_conv_narrow_epilogue,
        @match_conv_narrow_epilogue_second -> @tile_conv_narrow_epilogue,
        @match_conv_thin_epilogue -> @tile_conv_thin_epilogue,
        @match_conv_thin_epilogue_second -> @tile_conv_thin_epilogue,
        @match_conv_epilogue -> @tile_conv_epilogue,
        @match_conv_epilogue_second -> @tile_conv_epilogue,
        @match_depthwise_hwc_small_padded_epilogue -> @tile_depthwise_hwc_small_padded_epilogue,
        @match_depthwise_hwc_padded_epilogue -> @tile_depthwise_hwc_padded_epilogue,{few_rows_rule}
        @match_depthwise_hwc_epilogue -> @tile_depthwise_hwc_epilogue{product_epilogue_rule} : ({_ANY}) -> {_ANY}
    // The other convs of a short reduction, with their initial sums.
    %started = transform.foreach_match in %fused
        @match_packed_conv -> @tile_packed_conv,
        @match_conv_long -> @leave_alone,
        @match_conv_narrow_from_init -> @tile_conv_narrow_from_init,
        @match_conv_thin_from_init -> @tile_conv_thin_from_init,
        @match_conv_from_init -> @tile_conv_from_init : ({_ANY}) -> {_ANY}
    %batches = transform.foreach_match in %started
        @match_batches_matmul -> @tile_batches_matmul : ({_ANY}) -> {_ANY}
    // A softmax's passes as one pass a row, before the rules below tile
    // each of its ops.
    %rows = transform.foreach_match in %batches
        {row_pairs} : ({_ANY}) -> {_ANY}
    %after = transform.foreach_match in %rows
        {pairs} : ({_ANY}) -> {_ANY}
    transform.apply_patterns to %root {{
      transform.apply_patterns.linalg.tiling_canonicalization
      transform.apply_patterns.scf.for_loop_canonicalization
      transform.apply_patterns.canonicalization
    }} : {_ANY}
    // Tiled to one output row and one filter row, 2-D convs and pools are 1-D
    // ones, which the vectoriser handles.
    %windowed = transform.structured.match ops{{["linalg.conv_2d_nhwc_hwcf", "linalg.depthwise_conv_2d_nhwc_hwc", "linalg.pooling_nhwc_max", "linalg.pooling_nhwc_sum"]}} attributes {{{MARK}}} in %root : ({_ANY}) -> {_ANY}
    %one_d = transform.structured.decompose %windowed : ({_ANY}) -> {_ANY}
    transform.annotate %one_d "{MARK}" : {_ANY}
    // A tile the vectoriser rejects (an elementwise generic reading through an
    // unusual map) is left to convert-linalg-to-loops, not an error.
    %tiles = transform.structured.match attributes {{{MARK}}} in %root : ({_ANY}) -> {_ANY}
    transform.foreach %tiles : {_ANY} {{
    ^bb0(%tile: {_ANY}):
      transform.sequence %tile : {_ANY} failures(suppress) {{
      ^bb1(%one: {_ANY}):
        transform.structured.vectorize %one {{vectorize_nd_extract}} : {_ANY}
      }}
    }}
    transform.apply_patterns to %root {{
      transform.apply_patterns.linalg.tiling_canonicalization
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      // A vectorised matmul tile reads its operands broadcast and transposed
      // into the (M, N, K) space and multiplies elementwise; as plain reads,
      // broadcasts and transposes, these fold into one vector.contract of
      // (M, K) by (K, N), lowered to outer products.
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.reduction_to_contract
      transform.apply_patterns.vector.fold_arith_extension
      transform.apply_patterns.canonicalization
    }} : {_ANY}
    // What is left of reductions (row reductions' tiles) is a horizontal
    // reduction of each row; once the contracts have formed above.
    transform.apply_patterns to %root {{
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    }} : {_ANY}
    transform.yield
  }}
}}
"""


TRANSFORM_SCHEDULE = _build_schedule()
"""The transform library on one thread (``vectorize(threads)`` builds its own)."""


def vectorize(threads: int = 1) -> Schedule:
    """The schedule, as the build runs it (see the module docstring), its
    parallel loops on `threads` threads."""
    if threads < 1:
        raise ValueError(f"a thread count must be at least 1, not {threads}")
    return Schedule(
        "vectorize",
        _build_schedule(threads),
        {
            "schedule": (Stage("schedule", SCHEDULE_STAGE),),
            "bufferize": (Stage("bufferize", bufferize(threads)),),
            "loops": (Stage("vector-lowering", vector_lowering(threads)),),
            "to-llvm": (),
        },
        threads,
    )


SCHEDULE = vectorize()
"""The schedule on one thread."""
