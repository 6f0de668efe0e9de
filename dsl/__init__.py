"""paili rule language: grammar, parser, IR, checker."""
