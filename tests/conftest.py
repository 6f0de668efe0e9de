import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted((ROOT / "rules").glob("*.pai"))

# The games the native engine's equivalence tests play (bench/engine_equivalence.py's configurations):
# every bundled variant, 龙岩 at each player count and without dots, and a wildcard rule set of the bench.
ENGINE_CONFIGS = [("rules/baijindao.pai", {}), ("rules/baicheng.pai", {}), ("rules/chehuzi.pai", {}),
                  ("rules/guobiao.pai", {}), ("rules/longyan.pai", {"人数": 4}), ("rules/longyan.pai", {"人数": 3}),
                  ("rules/longyan.pai", {"人数": 2}), ("rules/longyan.pai", {"有筒子": False}),
                  ("bench/rules/joker.pai", {})]


def native_engine_only():
    """The mark of a test comparing the native engine with the Python one: skipped, with the reason,
    where the package was installed without a Rust toolchain."""
    from paili.runtime import backend
    return pytest.mark.skipif(not backend.available(), reason="the native core is not built here (installed "
                              "without a Rust toolchain); the Python engine is in use")


def rules_edited(path: str, old: str, new: str, backend: str = "native"):
    """The rule file at `path` (from the checkout's root) with the passage `old` replaced by `new`,
    compiled and loaded: the passage must be there and the edited file must compile clean."""
    from paili.dsl.compiler import compile_text
    from paili.runtime.rules import Rules
    text = (ROOT / path).read_text(encoding="utf-8")
    assert old in text
    res = compile_text(text.replace(old, new), Path(path).name)
    assert res.ok, res.render()
    return Rules(res.ruleset, backend=backend)


@pytest.fixture
def compiled_copy(tmp_path, monkeypatch) -> Path:
    """A copy of the bundled rule files and their compiled directory, which the batch's set-up
    (runtime/batchsetup.py) reads instead of the checkout's for the test: the compiled directory."""
    from paili.runtime import batchsetup
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    monkeypatch.setattr(batchsetup, "RULES_DIR", rules)
    monkeypatch.setattr(batchsetup, "COMPILED_DIR", rules / "compiled")
    return rules / "compiled"


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


# ---------------------------------------------------------------------- the browser of the browser tests
# (tests/test_pages_browser.py, tests/test_serve_browser.py): one headless Chromium for the session


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        exe = shutil.which(name)
        if exe:
            return exe
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def _cjk_font_dirs() -> list[str]:
    try:
        out = subprocess.run(["fc-list", ":lang=zh", "file"], capture_output=True, text=True, timeout=30,
                             check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return sorted({str(Path(line.split(":")[0].strip()).parent) for line in out.splitlines() if line.strip()})


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install "
                                   "-e '.[test]' installs it)")
    exe = _chromium()
    if exe is None:
        pytest.skip("Chromium is not installed and this machine cannot install it (.ci/run installs it with "
                    "apt-get install chromium fonts-noto-cjk where apt-get exists)")
    dirs = _cjk_font_dirs()
    if not dirs:
        pytest.skip("no CJK font is installed (apt-get install fonts-noto-cjk)")
    home = tmp_path_factory.mktemp("fonts")
    conf = home / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
                    + "".join(f"  <dir>{d}</dir>\n" for d in dirs)
                    + f"  <cachedir>{home / 'cache'}</cachedir>\n</fontconfig>\n", encoding="utf-8")
    env = dict(os.environ, FONTCONFIG_FILE=str(conf))
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=exe, env=env,
                               args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                     "--disable-component-update", "--no-first-run"])
        yield b
        b.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory) -> Path:
    """The folder the screenshots go to: $PAILI_SCREENSHOTS if set, else a temporary one."""
    if os.environ.get("PAILI_SCREENSHOTS"):
        d = Path(os.environ["PAILI_SCREENSHOTS"])
        d.mkdir(parents=True, exist_ok=True)
    else:
        d = tmp_path_factory.mktemp("page-screenshots")
    print(f"\nscreenshots of the pages: {d}")
    return d
