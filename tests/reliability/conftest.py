import sys
from pathlib import Path

# The CLI battery reuses tests/cli/cli_support.py (in-process runs, SacreBLEU in a subprocess).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))
