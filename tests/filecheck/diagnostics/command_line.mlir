// relay-xdsl's own arguments: the command line is the source, exit status 1.
// RUN: not relay-xdsl export %s --to mlir 2>&1 | filecheck %s --check-prefix=CHOICE
// RUN: not relay-xdsl import 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not relay-xdsl import %s --bogus 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not relay-xdsl import %S/no_such_file.relay 2>&1 | filecheck %s --check-prefix=NOFILE

// CHOICE:      <command line>:1:{{[0-9]+}}: error: argument --to: expected one of relay, relax-script, found 'mlir'
// CHOICE-NEXT: relay-xdsl export {{.*}}command_line.mlir --to mlir
// CHOICE-NEXT:                   {{ *}}^~~~
// CHOICE-NEXT: usage: relay-xdsl export
// CHOICE-NOT:  Traceback

// MISSING:      <command line>:1:18: error: the following arguments are required: input
// MISSING-NEXT: relay-xdsl import
// MISSING-NEXT:                  ^

// UNKNOWN:      <command line>:1:{{[0-9]+}}: error: unrecognized arguments: --bogus

// NOFILE:       error: cannot read {{.*}}no_such_file.relay: No such file or directory
