"""Install instructions that work: the missing-extra messages, and the plugin tutorial's commands as written.

The tutorial test (marked ``slow``: a fresh virtual environment, two pip installs, a tournament) runs every
``$ `` line of docs/tutorial-bot.md's console blocks in order, in one shell, in a new virtual environment, in a
folder holding the plugin's files (the tutorial's "make a folder": examples/goat-plugin-example) -- with one
substitution: ``git clone`` of the repository is a copy of this checkout, as the test runs without the web.
pip installs from whatever indexes the machine's pip is configured with (hatchling, click, Hypothesis, pytest ...).
``.ci/run`` runs it once, in the oldest interpreter's compiled run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

from goat.errors import install_command

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial-bot.md"
CLONE = "git clone https://github.com/goat-cards/goat-cards"


def normalized(requirement: str) -> str:
    name, rest = re.fullmatch(r"([A-Za-z0-9._-]+)(.*)", requirement.strip()).groups()  # type: ignore[union-attr]
    return re.sub(r"[-_.]+", "-", name).lower() + rest


@pytest.mark.parametrize(
    "extra", ["cli", "testing", "pettingzoo", "gymnasium", "openspiel", "sandbox", "schemas", "train"]
)
def test_a_missing_extra_names_a_command_that_installs_it(extra: str) -> None:
    """No index entry needed: the command names the extra's requirements (those pyproject.toml declares)."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    command = install_command(extra)
    listed = re.fullmatch(rf"pip install ((?:'[^']+' ?)+) \(goat-cards\[{extra}\]\)", command)
    assert listed is not None, command
    named = {normalized(item) for item in re.findall(r"'([^']+)'", listed.group(1))}
    assert named == flattened(declared["optional-dependencies"], extra)


def flattened(extras: dict[str, list[str]], extra: str) -> set[str]:
    """An extra's requirements, with those of the extras it names (``goat-cards[render]``) in their place."""
    found: set[str] = set()
    for item in extras[extra]:
        nested = re.fullmatch(r"goat-cards\[([a-z,]+)\]", item)
        for name in nested.group(1).split(",") if nested else ():
            found |= flattened(extras, name)
        if not nested:
            found.add(normalized(item))
    return found


def test_several_extras_are_named_together() -> None:
    command = install_command("batch,gymnasium")
    assert command.startswith("pip install 'numpy>=1.24' 'gymnasium>=1.0'") and command.count("numpy") == 1
    assert command.endswith("(goat-cards[batch,gymnasium])")


def test_the_tutorial_says_how_to_install_before_the_first_release() -> None:
    text = TUTORIAL.read_text(encoding="utf-8")
    assert f"$ {CLONE}\n" in text
    assert "$ pip install 'goat-cards" not in text  # no command that needs an index entry goat-cards lacks


def shell_steps() -> list[str]:
    """The tutorial's shell commands, in order: every ``$ `` line of its console blocks."""
    blocks = re.findall(r"```console\n(.*?)```", TUTORIAL.read_text(encoding="utf-8"), flags=re.DOTALL)
    return [line[2:] for block in blocks for line in block.splitlines() if line.startswith("$ ")]


def copy_of_the_checkout(target: Path) -> None:
    skip = shutil.ignore_patterns(".*", "__pycache__", "*.so", "*.pyd", "_build", "build", "dist", "*.egg-info")
    shutil.copytree(ROOT, target, ignore=skip)


@pytest.mark.slow
def test_the_plugin_tutorial_works_as_written_in_a_fresh_venv(tmp_path: Path) -> None:
    steps = shell_steps()
    assert steps[0] == CLONE, steps
    copy_of_the_checkout(tmp_path / "goat-cards")
    shutil.copytree(
        ROOT / "examples" / "goat-plugin-example",
        tmp_path / "goat-plugin-example",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", ".*"),
    )
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    bin_directory = environment / ("Scripts" if sys.platform == "win32" else "bin")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "GOAT_PURE_PYTHON")}
    env.update(VIRTUAL_ENV=str(environment), PATH=f"{bin_directory}{os.pathsep}{env.get('PATH', '')}")
    script = "set -eu\n" + "".join(f"echo '>>> {step}'\n{step}\n" for step in steps[1:])
    done = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1200, check=False
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-6000:]
    assert re.search(r"hoarder\s*│\s*goat-plugin-example\s*│.*│\s*ok\s*│", output), output[-6000:]
    assert "passed" in output  # the plugin's own tests ran
