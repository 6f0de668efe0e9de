from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted((ROOT / "rules").glob("*.pai"))


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
