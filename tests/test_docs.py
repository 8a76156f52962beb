"""The documentation cannot rot: its Python examples run as doctests (pytest --doctest-glob), every `goat`
command docs/cli.md shows is run and its output compared, and every public name is documented."""

from __future__ import annotations

import codecs
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import goat
from goat.cli import main

DOCS = Path(__file__).resolve().parent.parent / "docs"
TIMING = re.compile(r"in \d+\.\d s")


def console_blocks(page: Path) -> list[tuple[str, str]]:
    """(command, expected output) for each console block whose command is a goat command."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S):
        first, _, rest = block.partition("\n")
        if first.startswith("$ goat ") or (first.startswith("$ printf") and "| goat " in first):
            found.append((first[2:], rest))
    return found


def normalise(text: str) -> list[str]:
    return [TIMING.sub("in N s", line.rstrip()) for line in text.strip("\n").splitlines()]


def test_cli_page_outputs_are_real(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    blocks = console_blocks(DOCS / "cli.md")
    assert len(blocks) >= 5
    for command, expected in blocks:
        stdin = None
        if command.startswith("printf"):
            quoted, command = command.split(" | ", 1)
            stdin = codecs.decode(quoted[len("printf '") : -1], "unicode_escape")
        args = command.split()[1:]
        result = CliRunner().invoke(main, args, input=stdin, catch_exceptions=False)
        assert result.exit_code == 0, (command, result.output)
        assert normalise(result.stdout) == normalise(expected), command


def test_every_public_name_is_documented() -> None:
    api = (DOCS / "api.md").read_text(encoding="utf-8")
    for name in goat.__all__:
        value = getattr(goat, name)
        if not isinstance(value, (tuple, str)):
            assert (value.__doc__ or "").strip(), f"goat.{name} has no docstring"
    for module in (
        "goat",
        "goat.testing",
        "goat.arena",
        "goat.records",
        "goat.svg",
        "goat.batch",
        "goat.bots.greedy",
        "goat.bots.ismcts",
        "goat.bots.uniform",
        "goat.bots.worlds",
        "goat.bots.model",
        "goat.bots.inference",
    ):
        assert f"automodule:: {module}\n" in api or f"automodule:: {module}\r" in api, module


ROOT = DOCS.parent
# The files a user gets: everything in the repository but hidden folders (git, virtual environments, caches),
# builds and the vendored intersphinx inventories.
SKIP = {"_build", "_inventories", "__pycache__", "build", "dist", "node_modules"}
TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".json", ".js", ""}


def project_text_files() -> list[Path]:
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        # pruned as the walk goes: a checkout's virtual environments hold far more files than the project
        subfolders[:] = [d for d in subfolders if not (d.startswith(".") or d in SKIP or d.endswith(".egg-info"))]
        found += [
            Path(folder, name)
            for name in files
            if Path(name).suffix in {".py", ".md", ".toml", ".txt", ".json", ".js", ""}
        ]
    return found


def test_the_rules_page_numbers_every_rule_once() -> None:
    rules = (DOCS / "rules.md").read_text(encoding="utf-8")
    for number in range(1, 24):
        assert len(re.findall(rf"^\*\*R{number} ", rules, flags=re.M)) == 1, f"R{number}"
    assert not re.search(r"^\*\*R" + "24 ", rules, flags=re.M)


def test_the_project_cites_only_its_own_files() -> None:
    # The rules live in docs/rules.md and the API in the reference: the design notes the project was built from
    # (RULES, API, ARCHITECTURE, PROTOCOL, each a .md file) are not in it, so nothing may send a reader to them.
    cited = re.compile(r"\b(RULES|API|ARCHITECTURE|PROTOCOL)" + r"\.md\b")
    offenders = []
    for path in project_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        offenders += [f"{path.relative_to(ROOT)}: {m[0]}" for m in cited.finditer(text)]
    assert offenders == []


def test_every_rule_number_cited_exists() -> None:
    numbers = set()
    for path in project_text_files():
        try:
            numbers |= {int(n) for n in re.findall(r"\bR(\d{1,3})\b", path.read_text(encoding="utf-8"))}
        except UnicodeDecodeError:
            continue
    assert numbers and max(numbers) <= 23 and min(numbers) >= 1
