"""`python -m paili …` is the `paili` command."""
import sys

from .dsl.cli_quick import quick_main

# A batch on a bundled variant starts without the command line's parser and modules (dsl/cli_quick.py).
code = quick_main(sys.argv[1:])
if code is None:
    from .dsl.cli import main

    code = main(quick=False)
sys.exit(code)
