"""Issue 25, items 4 to 7: each ratio cpsolve / peer, whole processes, measured in one run.

    python benchmarks/speed_round3.py [--repeat N] [--limit S] [SECTION ...]

Sections (default: all), each run interleaved with its peer round by round (median of
``--repeat``), so a burst of load on the shared machine hits both alike:

* ``hanoi`` — Tower of Hanoi with 6, 7 and 8 discs, ``solve --engine cpsat`` (the
  transition graph: one automaton constraint) against Fast Downward's seq-opt-lmcut
  (the PDDL of ``cpsat_long.py``; the ``up-fast-downward`` wheel).  Target <= 5x.
* ``eight`` — the 8-puzzle's 31 by ``--engine cpsat`` against the same Fast Downward.
  Target <= 1.0x.
* ``tour`` — a closed knight's tour of 50x50 by ``--engine cpsat`` against Warnsdorff's
  rule in plain Python (``warnsdorff.py``, an open tour: the easier problem).  Target
  <= 5x.
* ``sliding`` — the 2x5 sliding puzzle's farthest position (55 moves) by the default
  ``auto``: seconds, target <= 20 s (no peer).
* ``queens`` — queens on a board of 0/1 cells, ``count --engine search``: 8 queens (92,
  target <= 2 s) and 10 queens (724, target <= 60 s); seconds, no peer.

Every cpsolve answer is re-checked by its checker; the script prints what each
process answered next to its time.  The machine is shared: read the ratios.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from cpsat_long import fast_downward, run_fd  # noqa: E402

SECTIONS = ("hanoi", "eight", "tour", "sliding", "queens")

FARTHEST_2X5 = '''family = "sliding"
name = "2x5, the farthest position"
description = "2x5, tiles 1-9."
start = """
_ 5 3 2 1
9 4 8 7 6
"""
goal = """
1 2 3 4 5
6 7 8 9 _
"""
'''


def cpsolve(args: list[str], limit: float) -> tuple[float, str]:
    """``python -m cpsolve ARGS --json`` as a whole process: seconds and what it answered."""
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "cpsolve", *args, "--json"],
                              capture_output=True, text=True, timeout=limit + 30)
    except subprocess.TimeoutExpired:
        return limit, "timeout"
    seconds = time.perf_counter() - start
    try:
        out = json.loads(done.stdout)
    except json.JSONDecodeError:
        return seconds, (done.stderr.strip() or "no output")[-120:]
    figure = out.get("steps", out.get("count", out.get("unique")))
    encoding = out.get("encoding") or out.get("details", {}).get("algorithm", "")
    return seconds, f"{out.get('status')} {figure} {encoding}".strip()


def process(command: list[str], limit: float) -> tuple[float, str]:
    """Any command as a whole process: seconds and its last line of output."""
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return limit, "timeout"
    lines = (done.stdout.strip() or done.stderr.strip() or "-").splitlines()
    return time.perf_counter() - start, lines[-1]


def ratio(name: str, ours, peer, repeat: int, target: float) -> None:
    """Interleave ``ours()`` and ``peer()`` ``repeat`` times; print the medians and ratio."""
    mine, theirs = [], []
    said = ("", "")
    for _ in range(repeat):
        a, ours_said = ours()
        b, peer_said = peer()
        mine.append(a)
        theirs.append(b)
        said = (ours_said, peer_said)
    a, b = statistics.median(mine), statistics.median(theirs)
    verdict = "ok" if a / b <= target else "over"
    print(f"  {name:22} {a:7.2f} {b:7.2f} {a / b:6.2f}  (target <= {target:g}: {verdict})  "
          f"{said[0]} / peer: {said[1]}", flush=True)


def alone(name: str, ours, repeat: int, target: float) -> None:
    """``ours()`` alone ``repeat`` times: the median seconds against a target in seconds."""
    runs = [ours() for _ in range(repeat)]
    a = statistics.median(r[0] for r in runs)
    verdict = "ok" if a <= target else "over"
    print(f"  {name:22} {a:7.2f} s  (target <= {target:g} s: {verdict})  {runs[-1][1]}",
          flush=True)


def hanoi_file(folder: Path, discs: int) -> Path:
    """The bundled Hanoi model file with ``discs`` discs (its answers dropped)."""
    text = (ROOT / "models" / "hanoi4.toml").read_text().replace("discs = 4\n",
                                                                 f"discs = {discs}\n")
    path = folder / f"hanoi{discs}.toml"
    path.write_text(re.sub(r"\[expected\][\s\S]*", "", text))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", help=f"of {', '.join(SECTIONS)} (default: all)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per process")
    args = parser.parse_args()
    chosen = args.sections or list(SECTIONS)
    limit, repeat = args.limit, args.repeat
    driver = fast_downward()
    print(f"whole processes, median of {repeat} interleaved rounds: cpsolve s, peer s, ratio")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cpsat = ["--engine", "cpsat", "--time-limit", str(limit)]
        for discs in (6, 7, 8) if "hanoi" in chosen and driver else ():
            path = hanoi_file(folder, discs)
            ratio(f"hanoi {discs} cpsat / FD", lambda p=path: cpsolve(["solve", str(p), *cpsat],
                                                                    limit),
                  lambda d=discs: run_fd(driver, f"hanoi{d}", limit, folder), repeat, 5)
        if "eight" in chosen and driver:
            model = str(ROOT / "models" / "eight_puzzle.toml")
            ratio("8-puzzle cpsat / FD", lambda: cpsolve(["solve", model, *cpsat], limit),
                  lambda: run_fd(driver, "eight_puzzle", limit, folder), repeat, 1.0)
        if driver is None and {"hanoi", "eight"} & set(chosen):
            print("  Fast Downward not installed (pip install up-fast-downward): skipped")
        if "tour" in chosen:
            tour = folder / "tour50.toml"
            rows = "\n".join("." * 50 for _ in range(50))
            tour.write_text(f'family = "tour"\nname = "50x50"\nboard = """\n{rows}\n"""\n')
            ratio("tour 50x50 cpsat / W.", lambda: cpsolve(["solve", str(tour), *cpsat], limit),
                  lambda: process([sys.executable, str(ROOT / "benchmarks" / "warnsdorff.py"),
                                   "50"], limit), repeat, 5)
        if "sliding" in chosen:
            far = folder / "far.toml"
            far.write_text(FARTHEST_2X5)
            alone("2x5 farthest, auto", lambda: cpsolve(["solve", str(far), "--time-limit",
                                                         str(limit)], limit), repeat, 20)
        if "queens" in chosen:
            _queens(folder, limit, repeat)


def _queens(folder: Path, limit: float, repeat: int) -> None:
    text = (ROOT / "models" / "queens8.toml").read_text()
    text = re.sub(r"\[expected\][\s\S]*", "", re.sub(r'show = """[\s\S]*?"""\n', "", text))
    for n, target in ((8, 2), (10, 60)):
        path = folder / f"queens{n}.toml"
        path.write_text(text.replace("n = 8\n", f"n = {n}\n"))
        alone(f"{n} queens, search count", lambda p=path: cpsolve(
            ["count", str(p), "--engine", "search", "--time-limit", str(limit)], limit),
            repeat, target)


if __name__ == "__main__":
    main()
