"""`python -m paili …` is the `paili` command."""
import sys

from .dsl.cli import main

sys.exit(main())
