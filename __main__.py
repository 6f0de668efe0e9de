"""`python -m paili …` is the `paili` command."""
import sys

from .dsl.cli_quick import quick_main

# A batch on a bundled variant starts without the command line's parser and modules (dsl/cli_quick.py).
code = quick_main(sys.argv[1:])
if code is None:
    from .dsl.cli import main

    code = main(quick=False)
else:
    # The quick batch has written its output and the process ends here: its objects are put out of the
    # collector's reach, so that the interpreter's teardown does not walk them all for cycles (~15 M
    # instructions, 7% of a batch's start-up). Nothing the quick path leaves holds a resource to release:
    # its input is closed, its output flushed (standard streams are still flushed at exit).
    import gc

    gc.freeze()
sys.exit(code)
