"""``python -m bench.tvm019``: see compare.py."""

import sys

from bench.tvm019.compare import main

sys.exit(main())
