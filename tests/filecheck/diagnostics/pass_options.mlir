// Bad pass pipelines are diagnostics on the -p argument: unknown passes with
// the closest names, unknown options and bad values with the valid ones.
// RUN: not xdsl-opt %s -p 'relay-defuse{foo=1}' 2>&1 | filecheck %s --check-prefix=KEY
// RUN: not xdsl-opt %s -p 'relay-defuse{inline-globals=maybe}' 2>&1 | filecheck %s --check-prefix=VALUE
// RUN: not xdsl-opt %s -p 'relay-defuse{' 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not xdsl-opt %s -p 'relay-defuse,relay-defusee' 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not xdsl-opt %s -p 'relay-merge-composite{tabel=conv2d-add-relu}' 2>&1 | filecheck %s --check-prefix=MERGE
// RUN: not xdsl-opt %s -p 'relay-fuse-ops{fuse-opt-level=high}' 2>&1 | filecheck %s --check-prefix=FUSE

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}

// KEY:      <pass pipeline>:1:14: error: relay-defuse has no option 'foo' (valid options: composite=<comma-separated strings> (default: none), inline-globals=<true or false> (default: false), external=<true or false> (default: false))
// KEY-NEXT: relay-defuse{foo=1}
// KEY-NEXT:              ^~~
// KEY-NOT:  Traceback

// VALUE:      <pass pipeline>:1:29: error: option 'inline-globals' of relay-defuse expects true or false, found 'maybe'
// VALUE-NEXT: relay-defuse{inline-globals=maybe}
// VALUE-NEXT:                             ^~~~~

// SYNTAX:      <pass pipeline>:1:14: error: expected an option name or '}', found the end of the pipeline

// PASS:      <pass pipeline>:1:14: error: unknown pass 'relay-defusee'; did you mean 'relay-defuse'
// PASS-NEXT: relay-defuse,relay-defusee
// PASS-NEXT:              ^~~~~~~~~~~~~

// MERGE:     <pass pipeline>:1:23: error: relay-merge-composite has no option 'tabel'; did you mean 'table'? (valid options: table=

// FUSE:      <pass pipeline>:1:31: error: option 'fuse-opt-level' of relay-fuse-ops expects an integer, found 'high'
