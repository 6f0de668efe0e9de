"""paili rule language: grammar, parser, builders, checker, pages and the command line (the IR is runtime/ir/)."""
