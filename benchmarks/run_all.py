"""Run every benchmark script in turn and print its figures.

    python benchmarks/run_all.py [name ...]     # e.g. core sliding

Each script is run in its own interpreter (start-up costs stay separate).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SKIP = {"run_all", "timing", "seed004_article"}  # seed004 needs perl and the seed text


def main() -> None:
    wanted = set(sys.argv[1:])
    for script in sorted(HERE.glob("*.py")):
        if script.stem in SKIP or (wanted and script.stem not in wanted):
            continue
        print(f"== {script.stem} ==", flush=True)
        subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False)


if __name__ == "__main__":
    main()
