"""Run every benchmark in this folder, one after another: ``make bench``.

Each ``bench_*.py`` prints its own table (medians, and ratios against a baseline measured in
the same run) and writes its results under ``benches/results/``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main() -> int:
    here = Path(__file__).parent
    failed = 0
    for script in sorted(here.glob("bench_*.py")):
        print(f"\n== {script.name}", flush=True)
        failed += subprocess.call([sys.executable, str(script)]) != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
