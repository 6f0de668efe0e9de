"""No absolute path of a machine in the project: files name the seeds and each other relative to the
checkout (../shared/seeds/…), and a compiled rule set carries no path of the machine that built it."""
from __future__ import annotations

import re
import subprocess

from conftest import ROOT, RULES
from paili.dsl.compiler import compile_file
from paili.runtime.ir.serialize import dumps, loads

# A path under a machine's own folders (a checkout, a home, a temporary directory), written out: the folder
# name follows a slash that starts the path and is followed by a further name. System paths such as
# /usr/bin/env are not machine-specific and are not matched; neither is the temporary folder's name quoted
# as a pattern to look for.
ABSOLUTE = re.compile(r"(?<![\w.$~-])/(?:work|root|home|tmp|Users|mnt)/[\w.-]|\b[A-Za-z]:\\(?:Users|home)\\")


def project_files():
    """The files of the checkout (git's list; without git, every file outside build and cache folders)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60)
        names = [n for n in out.stdout.decode("utf-8").split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", "build", "target", "__pycache__", ".venv", ".pytest_cache"}
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                 if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]
    return [ROOT / n for n in names]


def test_the_pattern_finds_machine_paths_only():
    slash = "/"  # built up, so that this file itself holds no such path
    assert ABSOLUTE.search(f"see {slash}work{slash}shared/seeds/000.txt")
    assert ABSOLUTE.search(f'Path("{slash}root{slash}x")') and ABSOLUTE.search(f"({slash}tmp{slash}out.json)")
    assert ABSOLUTE.search("C:\\Users\\me\\paili")
    assert not ABSOLUTE.search("../shared/seeds/000.txt")
    assert not ABSOLUTE.search(f"#!{slash}usr/bin/env bash")
    assert not ABSOLUTE.search(f'r"20\\d\\d|{slash}work{slash}|{slash}tmp{slash}"')  # a pattern, not a path
    assert not ABSOLUTE.search(f"docs{slash}work{slash}x.md")  # relative


def test_no_absolute_machine_path_in_the_project():
    files = project_files()
    assert len(files) > 50 and any(f.name == "language.md" for f in files)
    hits = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # binary (images, fonts) or absent
        for no, line in enumerate(text.splitlines(), 1):
            if ABSOLUTE.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{no}: {line.strip()[:120]}")
    assert not hits, "absolute machine paths (name them relative to the checkout):\n" + "\n".join(hits)


def test_compiled_json_carries_no_build_path():
    path = RULES[0].resolve()  # compiled from an absolute path, as `paili build` does
    res = compile_file(path)
    assert res.ok, res.render()
    text = dumps(res.ruleset)
    assert str(ROOT) not in text and not ABSOLUTE.search(text)
    assert f'"{path.name}"' in text  # spans name the file, by its name only
    back = loads(text)
    assert back.source == path.name and back.variant.span.file == path.name
