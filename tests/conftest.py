import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted((ROOT / "rules").glob("*.pai"))


def _seeds() -> Path:
    """The seed texts, found relative to the checkout: $PAILI_SEEDS if set, else the first `shared/seeds`
    beside the checkout or beside a folder above it (../shared/seeds; ../../shared/seeds for a git
    worktree kept in a folder of the project). No machine's absolute path is written here."""
    if os.environ.get("PAILI_SEEDS"):
        return Path(os.environ["PAILI_SEEDS"])
    for parent in ROOT.parents:
        if (parent / "shared" / "seeds").is_dir():
            return parent / "shared" / "seeds"
    return ROOT.parent / "shared" / "seeds"


SEEDS = _seeds()


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
