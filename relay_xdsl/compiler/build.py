"""A lowered program to a shared library, with upstream MLIR's tools.

`build` runs the whole way; each step is also a function of its own:

1. `generic_text`: the module in MLIR's generic form (xDSL's custom forms
   of some upstream ops differ from upstream's), its function's arguments
   marked ``bufferization.writable = false`` so that the compiled code
   never writes into the caller's inputs and weights;
2. `lower_to_llvm_dialect`: ``mlir-opt-22 --pass-pipeline=...``, the
   stages of pipeline.py;
3. `translate_to_llvm_ir`: ``mlir-translate-22 --mlir-to-llvmir``;
4. `compile_library`: ``clang-22 -O3 -shared -fPIC -x ir -``, with
   `MEMREF_COPY_C`, the one runner-library function compiled code calls,
   and, where the schedule runs loops on several threads, linked with
   LLVM's OpenMP runtime (one thread needs no runtime);

and the signature and weights are written beside the library (artifact.py).

The steps report progress through `step`, a context manager factory
(``relay-xdsl`` passes its terminal progress line; the default shows
nothing), and, given `log`, state the pipeline and the tools' command lines.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from io import StringIO
from pathlib import Path

from xdsl.dialects.builtin import ArrayAttr, Builtin, DictionaryAttr, IntegerAttr, ModuleOp, i1
from xdsl.dialects.func import FuncOp
from xdsl.printer import Printer

from relay_xdsl.compiler.artifact import Program, Signature, write_artifact
from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.pipeline import Schedule, Stage, describe, pass_pipeline, stages
from relay_xdsl.compiler.toolchain import openmp_library, run_tool, tool

ProgressStep = Callable[[str], AbstractContextManager[object]]
"""``step(what)``: a context manager around a step that may take a while."""

# -fno-unroll-loops: the schedule already unrolled what it wants; LLVM's full
# unrolling of the 3x3 tap loops makes basic blocks of thousands of
# instructions, whose scheduling took clang 150 s on resnet18 instead of 11 s,
# for no measurable speed.
CLANG_FLAGS = ("-O3", "-fno-unroll-loops", "-shared", "-fPIC", "-Wno-override-module")
"""clang's flags for the library (LLVM IR on stdin)."""

MEMREF_COPY_C = r"""
/* memref.copy between layouts that are not both contiguous lowers to a call
   of memrefCopy, which MLIR's libmlir_c_runner_utils defines; that library
   drags in libMLIR and libLLVM, so the library carries its own. */
#include <stdint.h>
#include <string.h>

typedef struct { int64_t rank; void *descriptor; } UnrankedMemRef;
typedef struct { char *allocated; char *aligned; int64_t offset; int64_t sizes_strides[]; } MemRef;

void memrefCopy(int64_t element_size, UnrankedMemRef *source, UnrankedMemRef *target) {
  int64_t rank = source->rank;
  MemRef *from = source->descriptor, *to = target->descriptor;
  char *src = from->aligned + from->offset * element_size;
  char *dst = to->aligned + to->offset * element_size;
  if (rank == 0) {
    memcpy(dst, src, element_size);
    return;
  }
  const int64_t *sizes = from->sizes_strides;
  const int64_t *src_strides = from->sizes_strides + rank;
  const int64_t *dst_strides = to->sizes_strides + rank;
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] == 0) return;
  int64_t index[rank];
  memset(index, 0, sizeof index);
  int64_t inner = sizes[rank - 1], src_step = src_strides[rank - 1];
  int64_t dst_step = dst_strides[rank - 1], src_at = 0, dst_at = 0;
  for (;;) {
    if (src_step == 1 && dst_step == 1) {
      memcpy(dst + dst_at * element_size, src + src_at * element_size, inner * element_size);
    } else {
      for (int64_t i = 0; i < inner; ++i)
        memcpy(dst + (dst_at + i * dst_step) * element_size,
               src + (src_at + i * src_step) * element_size, element_size);
    }
    int64_t d = rank - 2;
    for (; d >= 0; --d) {
      src_at += src_strides[d];
      dst_at += dst_strides[d];
      if (++index[d] < sizes[d]) break;
      src_at -= sizes[d] * src_strides[d];
      dst_at -= sizes[d] * dst_strides[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}
"""


@contextlib.contextmanager
def no_progress(what: str) -> Iterator[None]:
    """A `ProgressStep` that shows nothing."""
    yield


def build(
    program: Program,
    library: Path,
    *,
    schedule: Schedule | None = None,
    native: bool = True,
    step: ProgressStep = no_progress,
    log: Callable[[str], None] | None = None,
) -> Signature:
    """Compile `program` into `library` (a ``.so``), its signature and weights beside it.

    `schedule` is the vectorising schedule (None: plain loops, on one
    thread); `native` compiles for this machine's CPU (``-march=native``).
    """
    signature = Signature.of(program)
    if schedule is not None and schedule.threads > 1:
        openmp_library()  # missing: say so before the minutes of compiling
    pipeline = stages(schedule)
    if log is not None:
        log(f"pipeline (mlir-opt stages):\n{describe(pipeline).rstrip()}")
    with step("printing the module as generic MLIR"):
        text = generic_text(program)
    llvm_dialect = lower_to_llvm_dialect(text, pipeline, schedule, step=step, log=log)
    llvm_ir = translate_to_llvm_ir(llvm_dialect, step=step, log=log)
    openmp = schedule is not None and schedule.threads > 1
    compile_library(llvm_ir, library, native=native, openmp=openmp, step=step, log=log)
    write_artifact(library, signature, list(program.weights))
    return signature


def generic_text(program: Program) -> str:
    """`program` 's module in generic form, its function's arguments read-only."""
    module = program.module.clone()
    _mark_arguments_read_only(module, program.function)
    return module_text(module)


def module_text(module: ModuleOp) -> str:
    """`module` in MLIR's generic form, with the blobs of its ``dense_resource`` attributes."""
    stream = StringIO()
    printer = Printer(stream=stream, print_generic_format=True)
    printer.print_op(module)
    printer.print_metadata([Builtin])
    stream.write("\n")
    return stream.getvalue()


def _mark_arguments_read_only(module: ModuleOp, function: str) -> None:
    """``bufferization.writable = false`` on each argument of @`function`.

    One-shot bufferization takes function arguments as writable unless told
    otherwise, and could then compute in place in the caller's arrays.
    """
    for op in module.ops:
        if isinstance(op, FuncOp) and op.sym_name.data == function:
            count = len(op.function_type.inputs.data)
            old = op.arg_attrs.data if op.arg_attrs is not None else (DictionaryAttr({}),) * count
            op.arg_attrs = ArrayAttr(
                DictionaryAttr({**attrs.data, "bufferization.writable": IntegerAttr(0, i1)})
                for attrs in old
            )
            return
    raise CompileError(f"the module has no function @{function}")


def lower_to_llvm_dialect(
    text: str,
    pipeline: Sequence[Stage],
    schedule: Schedule | None = None,
    *,
    step: ProgressStep = no_progress,
    log: Callable[[str], None] | None = None,
) -> str:
    """Generic MLIR `text` through mlir-opt's `pipeline` (with `schedule` 's script)."""
    with tempfile.TemporaryDirectory(prefix="relay-xdsl-") as directory:
        script_path = None
        if schedule is not None:
            script_path = str(Path(directory) / f"{schedule.name}.mlir")
            Path(script_path).write_text(schedule.script)
        arguments = [f"--pass-pipeline={pass_pipeline(pipeline, script_path)}"]
        _log_command(log, "mlir-opt", arguments)
        with step(f"lowering to the LLVM dialect with {Path(tool('mlir-opt')).name}"):
            return run_tool("mlir-opt", arguments, text).decode()


def translate_to_llvm_ir(
    llvm_dialect: str,
    *,
    step: ProgressStep = no_progress,
    log: Callable[[str], None] | None = None,
) -> str:
    """LLVM-dialect MLIR as LLVM IR (``mlir-translate --mlir-to-llvmir``)."""
    arguments = ["--mlir-to-llvmir"]
    _log_command(log, "mlir-translate", arguments)
    with step(f"translating to LLVM IR with {Path(tool('mlir-translate')).name}"):
        return run_tool("mlir-translate", arguments, llvm_dialect).decode()


def compile_library(
    llvm_ir: str,
    library: Path,
    *,
    native: bool = True,
    openmp: bool = False,
    step: ProgressStep = no_progress,
    log: Callable[[str], None] | None = None,
) -> None:
    """LLVM IR compiled into the shared library `library` by clang, with `MEMREF_COPY_C`
    (and, if `openmp`, linked with LLVM's OpenMP runtime, found again at run time)."""
    with tempfile.TemporaryDirectory(prefix="relay-xdsl-") as directory:
        memref_copy = Path(directory) / "memref_copy.c"
        memref_copy.write_text(MEMREF_COPY_C)
        arguments = [*CLANG_FLAGS, *(["-march=native"] if native else [])]
        arguments += ["-x", "ir", "-", "-x", "c", str(memref_copy), "-lm", "-o", str(library)]
        if openmp:
            runtime = Path(openmp_library()).parent
            arguments += [f"-L{runtime}", "-lomp", f"-Wl,-rpath,{runtime}"]
        _log_command(log, "clang", arguments)
        with step(f"compiling {library.name} with {Path(tool('clang')).name}"):
            run_tool("clang", arguments, llvm_ir)


def _log_command(log: Callable[[str], None] | None, name: str, arguments: list[str]) -> None:
    if log is not None:
        import shlex

        log(f"running: {shlex.join([tool(name), *arguments])}")
