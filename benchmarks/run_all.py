"""Run every benchmark script in turn and print its figures.

    python benchmarks/run_all.py [name ...]     # e.g. core sliding ipc

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
    scripts = {s.stem: s for s in HERE.glob("*.py")}
    scripts.update({s.parent.name: s for s in HERE.glob("*/run.py")})  # ipc/run.py: "ipc"
    for name, script in sorted(scripts.items()):
        if name in SKIP or (wanted and name not in wanted):
            continue
        print(f"== {name} ==", flush=True)
        subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False)


if __name__ == "__main__":
    main()
