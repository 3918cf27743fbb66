"""`auto` against its winner, and the start-up tax (issues 20 and 25), whole processes.

    python benchmarks/auto_race.py [--runs N] [--fifteen]

Commands run interleaved (one round runs each once, a first round untimed to write the
bytecode), medians of ``--runs`` rounds, wall seconds; each ratio is against the peer
measured in the same run:

* start-up: ``cpsolve solve models/water_jugs.toml --engine search`` and ``cpsolve --help``
  against ``python -c pass`` (issue 25: <= 2.5x and <= 2x);
* ``auto`` against ``--engine search`` on water jugs and on Inkala's sudoku (<= 1.5x), and
  ``auto`` on Inkala against MiniZinc + Gecode on the same model (<= 2x), when installed;
* ``--fifteen``: ``auto`` on models/fifteen_puzzle.toml against ``--engine search
  --time-limit 60`` (auto's default budget) — the difference in seconds (issue 20: auto
  ends within 2 s of search's own time) and whether CP-SAT confirmed.

Figures only, never assertions: the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from startup import INKALA, ROOT, dzn, interleaved, mzn  # noqa: E402 - the sibling benchmark

CPSOLVE = [sys.executable, "-m", "cpsolve"]


def ratios(runs: int) -> None:
    """The start-up and auto ratios."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "inkala.mzn").write_text(mzn(9, (3, 3), False))
        (folder / "inkala.dzn").write_text(dzn(INKALA, 9))
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "cpsolve --help": [*CPSOLVE, "--help"],
            "jugs search": [*CPSOLVE, "solve", "models/water_jugs.toml", "--engine", "search"],
            "jugs auto": [*CPSOLVE, "solve", "models/water_jugs.toml"],
            "Inkala search": [*CPSOLVE, "solve", "models/sudoku_inkala.toml", "--engine",
                              "search"],
            "Inkala auto": [*CPSOLVE, "solve", "models/sudoku_inkala.toml"],
        }
        if shutil.which("minizinc"):
            commands["Inkala MiniZinc+Gecode"] = [
                "minizinc", "--solver", "gecode", "-a", str(folder / "inkala.mzn"),
                str(folder / "inkala.dzn")]
        medians = {label: wall for label, (wall, _) in interleaved(commands, runs).items()}
    print(f"whole process, medians of {runs} interleaved rounds (wall seconds)")
    for label, wall in medians.items():
        print(f"  {label:<24} {wall:7.3f}")
    pairs = [("jugs search", "python -c pass", 2.5), ("cpsolve --help", "python -c pass", 2.0),
             ("jugs auto", "jugs search", 1.5), ("Inkala auto", "Inkala search", 1.5),
             ("Inkala auto", "Inkala MiniZinc+Gecode", 2.0)]
    for mine, peer, goal in pairs:
        if peer in medians:
            ratio = medians[mine] / medians[peer]
            print(f"  {mine} / {peer}: {ratio:.2f}x (goal <= {goal:g}x)"
                  f"{'' if ratio <= goal else '  ABOVE'}")


def fifteen(runs: int) -> None:
    """auto against search alone on the bundled 15-puzzle, interleaved."""
    model = "models/fifteen_puzzle.toml"
    runs_of = {"search": [*CPSOLVE, "solve", model, "--engine", "search", "--time-limit", "60",
                          "--json"],
               "auto": [*CPSOLVE, "solve", model, "--json"]}
    print(f"15-puzzle ({model}), {runs} interleaved rounds, whole process")
    for round_ in range(runs):
        walls, notes = {}, {}
        for label, argv in runs_of.items():
            start = time.perf_counter()
            done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
            walls[label] = time.perf_counter() - start
            out = json.loads(done.stdout)
            confirmation = (out.get("race") or {}).get("confirmation")
            notes[label] = f"{out['status']}, {out.get('steps')} moves" + (
                f", confirmation {confirmation}" if label == "auto" else "")
        print(f"  round {round_ + 1}: search {walls['search']:.2f} s ({notes['search']}); "
              f"auto {walls['auto']:.2f} s ({notes['auto']}); auto - search "
              f"{walls['auto'] - walls['search']:+.2f} s (goal <= +2 s)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5, help="timed rounds (default 5)")
    p.add_argument("--fifteen", action="store_true", help="also auto vs search on the "
                   "15-puzzle (about a minute a round)")
    args = p.parse_args()
    ratios(args.runs)
    if args.fifteen:
        fifteen(max(1, args.runs // 2))


if __name__ == "__main__":
    main()
