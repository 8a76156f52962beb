"""The suite's warning filters (pyproject.toml): goat's warnings and those its tests trigger are errors; a
third-party package's deprecation warnings about itself (as pygame's and PettingZoo's at import) are not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CONFIG = Path(__file__).resolve().parent.parent / "pyproject.toml"

TESTS = """
import warnings

def test_a_package_deprecating_itself_at_import_is_no_failure():
    import oldpackage  # noqa: F401

def test_a_deprecation_the_tests_trigger_fails():
    warnings.warn("old", DeprecationWarning)

def test_any_other_warning_fails():
    warnings.warn("odd", UserWarning)
"""


def test_only_goats_and_the_tests_own_warnings_are_errors(tmp_path: Path) -> None:
    (tmp_path / "oldpackage.py").write_text('import warnings\nwarnings.warn("deprecated", DeprecationWarning)\n')
    (tmp_path / "test_filters.py").write_text(TESTS)
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", str(CONFIG)]
    done = subprocess.run(
        [*pytest, "--rootdir", str(tmp_path), "test_filters.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert "1 passed" in done.stdout and "2 failed" in done.stdout, done.stdout
    assert "FAILED test_filters.py::test_a_package_deprecating_itself_at_import_is_no_failure" not in done.stdout
