"""The README's Python examples run: each top-level print prints what the comment on its line says,
and the test functions the README defines pass.

Each ```python block is written to a real ``.py`` file and imported from there, so that tracebacks, ``inspect`` and
Hypothesis (which reads the source of a ``@given`` test) see Python source, not Markdown.  The file is padded with
blank lines so that its line numbers are the README's: an error at line N of the file is at line N of README.md.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from pathlib import Path
from types import ModuleType

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
TEXT = README.read_text(encoding="utf-8")
# (line of README.md where the block's code starts, the block's code)
BLOCKS = [
    (TEXT.count("\n", 0, match.start(1)) + 1, match.group(1))
    for match in re.finditer(r"^```python\n(.*?)^```", TEXT, flags=re.S | re.M)
]


def test_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 2


def import_block(path: Path, line: int, code: str) -> tuple[ModuleType, str]:
    """Import ``code`` from ``path`` (with README.md's line numbers); what it printed."""
    path.write_text("\n" * (line - 1) + code, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        spec.loader.exec_module(module)
    return module, out.getvalue()


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"README.md:{line}" for line, _ in BLOCKS])
def test_readme_examples_run_and_print_what_they_promise(tmp_path: Path, line: int, code: str) -> None:
    module, printed = import_block(tmp_path / f"readme_line_{line}.py", line, code)
    for name, value in vars(module).items():
        if name.startswith("test_") and callable(value):
            value()
    promised = [text.split("# ")[-1] for text in code.splitlines() if text.startswith("print(") and "# " in text]
    assert printed.splitlines() == promised, f"README.md, block at line {line}"
