"""A lowered program to a shared library, with upstream MLIR's tools.

`build` runs the whole way:

1. `generic_text` 's module (its function's arguments marked
   ``bufferization.writable = false``, so that the compiled code never
   writes into the caller's inputs and weights) split into units
   (units.py): the model's function, and each fused group on its own;
2. each unit, at the same time as others (``jobs`` processes at once), looked
   up in the object cache (cache.py) or compiled: ``mlir-opt-22
   --pass-pipeline=...`` (the stages of pipeline.py),
   ``mlir-translate-22 --mlir-to-llvmir``, with the schedule the packed
   products' prefetches of their next panel or block (prefetch.py), ``clang-22 -O3
   -c``, and kept;
3. the objects, with `MEMREF_COPY_C` 's (the one runner-library function
   compiled code calls), linked by clang into the library, and, where the
   schedule runs loops on several threads, with LLVM's OpenMP runtime (one
   thread needs no runtime);

and the signature and weights are written beside the library (artifact.py).
The whole module also goes through the tools in one piece, as ``relay-xdsl
compile --emit llvm`` and the tests do: `lower_to_llvm_dialect`,
`translate_to_llvm_ir`, `compile_library`.

The steps report progress through `step`, a context manager factory
(``relay-xdsl`` passes its terminal progress line; the default shows
nothing), and, given `log`, state the pipeline and the tools' command lines.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1
from xdsl.dialects.func import FuncOp

from relay_xdsl.compiler.artifact import Program, Signature, write_artifact
from relay_xdsl.compiler.cache import ObjectCache, cache_key, default_cache
from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.generic import module_text
from relay_xdsl.compiler.pipeline import (
    SCRIPT,
    Schedule,
    Stage,
    describe,
    pass_pipeline,
    stages,
    without_deallocation,
)
from relay_xdsl.compiler.prefetch import PREFETCH_KEY, prefetch_next_panels
from relay_xdsl.compiler.toolchain import (
    native_target,
    openmp_library,
    run_tool,
    tool,
    tool_identity,
)
from relay_xdsl.compiler.units import Unit, split_units, with_argument_attribute

ProgressStep = Callable[[str], AbstractContextManager[object]]
"""``step(what)``: a context manager around a step that may take a while."""

# -fno-unroll-loops: the schedule already unrolled what it wants; LLVM's full
# unrolling of the 3x3 tap loops makes basic blocks of thousands of
# instructions, whose scheduling took clang 150 s on resnet18 instead of 11 s,
# for no measurable speed.
COMPILE_FLAGS = ("-O3", "-fno-unroll-loops", "-fPIC", "-Wno-override-module")
"""clang's flags for an object file (from LLVM IR or C)."""
CALLS_ONLY_FLAGS = ("-O1", *COMPILE_FLAGS[1:])
"""clang's flags for the object file of a model's function of calls only (units.py,
``Unit.calls_only``)."""
LINK_FLAGS = ("-shared", "-lm")
"""clang's flags that link the objects into the library."""
CLANG_FLAGS = (*COMPILE_FLAGS, "-shared")
"""clang's flags for the library in one step (LLVM IR on stdin)."""

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
    cache: ObjectCache | bool = True,
    jobs: int | None = None,
    step: ProgressStep = no_progress,
    log: Callable[[str], None] | None = None,
) -> Signature:
    """Compile `program` into `library` (a ``.so``), its signature and weights beside it.

    `schedule` is the vectorising schedule (None: plain loops, on one
    thread); `native` compiles for this machine's CPU (``-march=native``);
    `cache` is the object cache (True: `default_cache`, False: none); `jobs`
    units compile at once (None: one per CPU this process may use).
    """
    signature = Signature.of(program)
    if schedule is not None and schedule.threads > 1:
        openmp_library()  # missing: say so before the minutes of compiling
    pipeline = stages(schedule)
    if log is not None:
        log(f"pipeline (mlir-opt stages):\n{describe(pipeline).rstrip()}")
    jobs = jobs or _cpus()
    with step("printing the module as generic MLIR, in units"):
        # twice as many units as jobs: the model's function, which does not split,
        # then weighs about as much as a unit of groups, and no CPU waits for it
        units = split_units(_read_only_arguments(program), program.function, 2 * jobs - 1)
    kept = default_cache() if cache is True else cache or None
    with tempfile.TemporaryDirectory(prefix="relay-xdsl-") as directory:
        compiler = _UnitCompiler(Path(directory), pipeline, schedule, native, kept)
        compiler.log_commands(log, units)
        tools = _names("mlir-opt", "mlir-translate", "clang")
        with step(f"compiling {len(units)} unit{'s' * (len(units) != 1)} with {tools}"):
            objects = compiler.compile_all([*units, MEMREF_COPY_UNIT], jobs)
        arguments = [*LINK_FLAGS, *map(str, objects), "-o", str(library)]
        arguments += _openmp_flags(schedule is not None and schedule.threads > 1)
        _log_command(log, "clang", arguments)
        with step(f"linking {library.name} with {_names('clang')}"):
            run_tool("clang", arguments)
    write_artifact(library, signature, list(program.weights))
    return signature


MEMREF_COPY_UNIT = Unit(MEMREF_COPY_C, ("memrefCopy",), language="c")
"""`MEMREF_COPY_C` as a unit of the build."""


@dataclass
class _UnitCompiler:
    """Units to object files in `directory`, through `pipeline` (and `schedule` 's script),
    kept in and taken from `cache`."""

    directory: Path
    pipeline: Sequence[Stage]
    schedule: Schedule | None
    native: bool
    cache: ObjectCache | None

    def __post_init__(self) -> None:
        script_path = None
        if self.schedule is not None:
            script_path = self.directory / f"{self.schedule.name}.mlir"
            script_path.write_text(self.schedule.script)
        script = str(script_path) if script_path is not None else None
        self.mlir_opt = [f"--pass-pipeline={pass_pipeline(self.pipeline, script)}"]
        freeing = pass_pipeline(without_deallocation(self.pipeline), script)
        self.mlir_opt_freeing = [f"--pass-pipeline={freeing}"]
        target = ["-march=native"] if self.native else []
        self.clang = [*COMPILE_FLAGS, *target, "-c"]
        self.clang_calls_only = [*CALLS_ONLY_FLAGS, *target, "-c"]

    def log_commands(self, log: Callable[[str], None] | None, units: Sequence[Unit]) -> None:
        """State the tools' command lines, as `units` run them."""
        _log_command(log, "mlir-opt", self.mlir_opt, " (each unit)")
        if any(unit.frees_buffers for unit in units):
            what = " (instead, the model's function of calls only, which frees its buffers)"
            _log_command(log, "mlir-opt", self.mlir_opt_freeing, what)
        _log_command(log, "mlir-translate", TRANSLATE_ARGUMENTS, " (each unit)")
        _log_command(log, "clang", [*self.clang, "-x", "ir", "-", "-o", "UNIT.o"], " (each unit)")
        if any(unit.calls_only for unit in units):
            arguments = [*self.clang_calls_only, "-x", "ir", "-", "-o", "UNIT.o"]
            _log_command(log, "clang", arguments, " (instead, the model's function of calls only)")

    def compile_all(self, units: Sequence[Unit], jobs: int) -> list[Path]:
        """Each of `units` 's object files, `jobs` units compiling at once, the largest first."""
        order = sorted(range(len(units)), key=lambda index: -len(units[index].text))
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {index: pool.submit(self.compile, units[index], index) for index in order}
            try:
                return [futures[index].result() for index in range(len(units))]
            finally:
                for future in futures.values():
                    future.cancel()

    def compile(self, unit: Unit, index: int) -> Path:
        """`unit` 's object file: the cache's, or compiled (and kept)."""
        key = self.key(unit) if self.cache is not None else ""
        if self.cache is not None and (kept := self.cache.get(key)) is not None:
            return kept
        object_file = self.directory / f"unit{index}.o"
        clang = self._clang(unit)
        if unit.language == "c":
            source = self.directory / f"unit{index}.c"
            source.write_text(unit.text)
            run_tool("clang", [*clang, "-x", "c", str(source), "-o", str(object_file)])
        else:
            mlir_opt = self.mlir_opt_freeing if unit.frees_buffers else self.mlir_opt
            llvm_dialect = run_tool("mlir-opt", mlir_opt, unit.text).decode()
            llvm_ir = internalized(translate_to_llvm_ir(llvm_dialect), unit.defines)
            if self.schedule is not None:
                llvm_ir = prefetch_next_panels(llvm_ir)
            run_tool("clang", [*clang, "-x", "ir", "-", "-o", str(object_file)], llvm_ir)
        return object_file if self.cache is None else self.cache.put(key, object_file)

    def _clang(self, unit: Unit) -> list[str]:
        """clang's arguments for `unit` 's object file, but its input and output."""
        return self.clang_calls_only if unit.calls_only else self.clang

    def _pipeline(self, unit: Unit) -> Sequence[Stage]:
        """The stages that take `unit` to the LLVM dialect."""
        return without_deallocation(self.pipeline) if unit.frees_buffers else self.pipeline

    def key(self, unit: Unit) -> str:
        """`unit` 's key in the cache: all that its object depends on (cache.py)."""
        script = self.schedule.script if self.schedule is not None else ""
        return cache_key(
            [
                unit.language,
                unit.text,
                " ".join(unit.defines),
                pass_pipeline(self._pipeline(unit), SCRIPT if script else None),
                script,
                " ".join(TRANSLATE_ARGUMENTS),
                f"prefetch {PREFETCH_KEY}" if script else "",
                " ".join(self._clang(unit)),
                native_target() if self.native else "",
                *(tool_identity(name) for name in ("mlir-opt", "mlir-translate", "clang")),
            ]
        )


TRANSLATE_ARGUMENTS = ("--mlir-to-llvmir",)
"""mlir-translate's arguments."""

_DEFINITION = re.compile(r"^define (?!internal |private )(.*?@([A-Za-z0-9_.$]+)\()", re.MULTILINE)


def internalized(llvm_ir: str, exported: Sequence[str]) -> str:
    """`llvm_ir` with every function it defines internal but `exported` (and their
    ``_mlir_ciface_`` wrappers).

    MLIR emits its helpers (bufferization's ``dealloc_helper``) as public
    definitions in every module that needs one; internal, each object keeps its own.
    """
    public = {*exported, *(f"_mlir_ciface_{name}" for name in exported)}

    def definition(match: re.Match[str]) -> str:
        if match.group(2) in public:
            return match.group(0)
        return f"define internal {match.group(1)}"

    return _DEFINITION.sub(definition, llvm_ir)


def _cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _names(*tools: str) -> str:
    """The tools' executables' names, for progress."""
    names = [Path(tool(name)).name for name in tools]
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1]


def generic_text(program: Program) -> str:
    """`program` 's module in generic form, its function's arguments read-only."""
    return module_text(_read_only_arguments(program))


def _read_only_arguments(program: Program) -> ModuleOp:
    """A copy of `program` 's module, ``bufferization.writable = false`` on each argument
    of its function.

    One-shot bufferization takes function arguments as writable unless told
    otherwise, and could then compute in place in the caller's arrays.
    """
    module = program.module.clone()
    for op in module.ops:
        if isinstance(op, FuncOp) and op.sym_name.data == program.function:
            op.arg_attrs = with_argument_attribute(op, "bufferization.writable", IntegerAttr(0, i1))
            return module
    raise CompileError(f"the module has no function @{program.function}")


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
        with step(f"lowering to the LLVM dialect with {_names('mlir-opt')}"):
            return run_tool("mlir-opt", arguments, text).decode()


def translate_to_llvm_ir(
    llvm_dialect: str,
    *,
    step: ProgressStep = no_progress,
    log: Callable[[str], None] | None = None,
) -> str:
    """LLVM-dialect MLIR as LLVM IR (``mlir-translate --mlir-to-llvmir``)."""
    _log_command(log, "mlir-translate", TRANSLATE_ARGUMENTS)
    with step(f"translating to LLVM IR with {_names('mlir-translate')}"):
        return run_tool("mlir-translate", TRANSLATE_ARGUMENTS, llvm_dialect).decode()


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
        arguments += _openmp_flags(openmp)
        _log_command(log, "clang", arguments)
        with step(f"compiling {library.name} with {_names('clang')}"):
            run_tool("clang", arguments, llvm_ir)


def _openmp_flags(openmp: bool) -> list[str]:
    """clang's flags that link LLVM's OpenMP runtime, found again at run time (none
    unless `openmp`)."""
    if not openmp:
        return []
    runtime = Path(openmp_library()).parent
    return [f"-L{runtime}", "-lomp", f"-Wl,-rpath,{runtime}"]


def _log_command(
    log: Callable[[str], None] | None, name: str, arguments: Sequence[str], note: str = ""
) -> None:
    if log is not None:
        log(f"running{note}: {shlex.join([tool(name), *arguments])}")
