"""The repository keeps its promises: README commands, CI script, version defined once."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

import pytest

import parbleu
from helpers import REPO

try:
    import tomllib
except ImportError:  # Python < 3.11: the TOML parser of the test install instead
    import tomli as tomllib


def test_ci_runs_the_readme_test_command() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", readme, re.S)
    assert len(blocks) >= 2, "README must start with two set-up commands"
    test_cmd = [ln for ln in blocks[1].splitlines() if ln and not ln.startswith("#")]
    assert len(test_cmd) == 1
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    section = ci.split("# --- begin README test command")[1].split("# --- end README")[0]
    ci_cmd = [ln for ln in section.splitlines()[1:] if ln.strip()]
    assert ci_cmd == test_cmd


def test_ci_fails_when_pytest_collects_nothing() -> None:
    # pytest exits 5 when it collects no test; the README command ends with pytest in an &&
    # list under `set -e`, so that status ends CI (nothing may swallow it).
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    head, section = ci.split("# --- begin README test command")
    assert "set -euo pipefail" in head
    cmd = next(ln for ln in section.split("# --- end README")[0].splitlines()[1:] if ln.strip())
    assert cmd.endswith("&& python -m pytest -q") and "||" not in cmd
    script = "set -euo pipefail\ntrue && (exit 5)\necho passed\n"
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    assert out.returncode == 5 and "passed" not in out.stdout
    # The extras' steps run pytest as plain commands under the same `set -e`.
    for line in ci.splitlines():
        if "python -m pytest" in line:
            assert "||" not in line and not line.rstrip().endswith("&"), line


def test_test_modules_import_helpers_as_pytest_runs_them() -> None:
    # `pytest` (not `python -m pytest`) puts tests/ on sys.path but not the repository root,
    # so `from tests.helpers import ...` fails to collect there: one error, the whole run red.
    bad = [
        f"{path.relative_to(REPO)}:{n}"
        for path in sorted((REPO / "tests").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.match(r"\s*(from|import)\s+tests(\.|\s|$)", line)
    ]
    assert not bad, f"import helpers as `helpers`, not `tests.helpers`: {bad}"


def test_version_is_defined_once_in_cargo() -> None:
    cargo = tomllib.loads((REPO / "Cargo.toml").read_text(encoding="utf-8"))
    assert parbleu.__version__ == cargo["workspace"]["package"]["version"]
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" in pyproject["project"]["dynamic"]


def test_import_is_light() -> None:
    # numpy and the CLI are imported lazily, on first use.
    code = (
        "import sys, parbleu; print(' '.join(sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('numpy', 'argparse'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_demo_prints_a_multi_system_table_with_signatures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from parbleu.demo import main

    assert main([]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert "Online-W.de" in out and "VolcTrans-GLAT.de" in out
    # It says what it scored and the command to copy (issue 34): running that command gives
    # the same table.
    err = captured.err.splitlines()
    assert "first 500 lines of WMT21 en-de" in err[0] and "reference A" in err[0]
    command = err[1].strip()
    assert command.startswith("cd ") and " && parbleu ref.A.de -i " in command
    from parbleu.cli import main as cli_main

    directory, parbleu_cmd = command[3:].split(" && ", 1)
    cwd = os.getcwd()
    os.chdir(shlex.split(directory)[0])
    try:
        assert cli_main(shlex.split(parbleu_cmd)[1:]) == 0
    finally:
        os.chdir(cwd)
    assert capsys.readouterr().out == out
    assert "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:parbleu-" in out


def test_torch_extra_says_its_size_and_the_cpu_index_where_listed() -> None:
    # Issue 34: `pip install '.[torch]'` pulls PyPI's CUDA build (about 6 GB) without a word.
    for path in (REPO / "README.md", REPO / "docs" / "install.md"):
        text = path.read_text(encoding="utf-8")
        assert "`torch`" in text or "'.[torch]'" in text, path
        assert "6 GB" in text, f"{path.name}: the torch extra's size is not said"
        assert "--index-url https://download.pytorch.org/whl/cpu" in text, path.name
