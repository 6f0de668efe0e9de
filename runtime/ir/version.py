"""The compiled JSON's format name and version, alone in a module so that what only checks them (the quick
batch's verified files, runtime/batchsetup.py) reads them without the IR's node classes."""

FORMAT = "paili-ruleset"
VERSION = 2  # 2: pattern labels carry their resolved `{…}` expressions (label_exprs)
