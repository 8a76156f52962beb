"""The README's Python examples run: each top-level print prints what the comment on its line says,
and the test functions the README defines pass."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 2


def test_readme_examples_run_and_print_what_they_promise() -> None:
    for block in BLOCKS:
        out = io.StringIO()
        namespace: dict[str, object] = {}
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(README), "exec"), namespace)
        for name, value in namespace.items():
            if name.startswith("test_") and callable(value):
                value()
        promised = [line.split("# ")[-1] for line in block.splitlines() if line.startswith("print(") and "# " in line]
        assert out.getvalue().splitlines() == promised
