"""The lit test format of tests/filecheck/relay_corpus (see its lit.local.cfg).

It lives here, in an importable module, because lit's worker processes unpickle
the format by its qualified name.
"""

import json
import os
import re
import subprocess

import lit.formats
import lit.Test

from bench.relay_corpus.check import check_text, expected_outcome
from bench.relay_corpus.extract import DEFAULT_OUT as CORPUS

# The test files whose texts are lit tests; the rest of the corpus is measured only.
SELECTED = {"tests/python/relay/test_ir_parser.py", "tests/python/relay/test_ir_text_printer.py"}


class RelayCorpusFormat(lit.formats.TestFormat):
    """One test per selected corpus text; names in ``xfail_list`` are expected to fail."""

    def __init__(self, xfail_list):
        with open(os.path.join(str(CORPUS), "index.json")) as index:
            texts = json.load(index)["texts"]
        self.expect = {t["name"]: expected_outcome(t) for t in texts if t["file"] in SELECTED}
        with open(xfail_list) as xfails:
            self.xfails = {ln.strip() for ln in xfails if ln.strip() and not ln.startswith("#")}

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        for name in sorted(self.expect):
            yield lit.Test.Test(
                testSuite,
                path_in_suite + (f"{name}.relay",),
                localConfig,
                file_path=os.path.join(str(CORPUS), f"{name}.relay"),
            )

    def execute(self, test, litConfig):
        path = test.getFilePath()
        name = os.path.basename(path)[: -len(".relay")]
        env = dict(os.environ, **test.config.environment)
        if self.expect[name] == "parse":
            # In the worker process: starting Python and xDSL per text would cost
            # ten times the check itself.
            with open(path) as text:
                outcome = check_text(text.read(), os.path.basename(path))
            passed = outcome.ok
            output = f"check_text: {outcome.stage}: {outcome.message}\n" if not passed else ""
        else:
            command = ["xdsl-opt", path]
            done = subprocess.run(command, check=False, env=env, capture_output=True, text=True)
            first = (done.stderr.splitlines() or [""])[0]
            pattern = rf"(.*/)?{re.escape(os.path.basename(path))}:\d+:\d+: error: "
            passed = (
                done.returncode != 0
                and re.match(pattern, first) is not None
                and "Traceback" not in done.stderr
            )
            output = f"$ {' '.join(command)}\n{done.stdout}{done.stderr}"
        if name in self.xfails:
            if passed:
                output += (
                    "listed in xfail.txt but passes: python -m bench.relay_corpus --update-xfail\n"
                )
            return (lit.Test.XPASS if passed else lit.Test.XFAIL), output
        return (lit.Test.PASS if passed else lit.Test.FAIL), output
