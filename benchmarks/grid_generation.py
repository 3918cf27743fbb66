"""Counting and generation on grids: how long it takes, in-process.

    python benchmarks/grid_generation.py

Prints, for each engine that is installed: the time to count the 960 5×5
X-sudoku grids (first call, which includes importing the engine, and the
best of five), the time to count the 8 classes under renaming, and the time
to generate every 4- and 5-given puzzle up to symmetry (enumeration
included) with the figures found; then the time to re-solve every generated
puzzle with a second engine, and to draw random 9×9 sudoku puzzles.
"""

from __future__ import annotations

from timing import MODELS, timed

from cpsolve.engines import run
from cpsolve.puzzles.files import load
from cpsolve.workflows.grids.counting import count_up_to
from cpsolve.workflows.grids.generator import Generator, available, second_engine


def main() -> None:
    puzzle = load(MODELS / "xsudoku5.toml")
    model, sym = puzzle.model, puzzle.symmetry()
    engines = available(model, "count")
    print("5x5 X-sudoku: count every grid (in-process)")
    for engine in engines:
        first, t_first = timed(lambda e=engine: run(e, "count", model))
        best = min(timed(lambda e=engine: run(e, "count", model))[1] for _ in range(5))
        classes = min(timed(lambda e=engine: count_up_to(model, sym, "relabel", e))[1]
                      for _ in range(5))
        print(f"  {engine:7} {first.count} grids: first call {t_first:.3f} s, best of 5 "
              f"{best:.4f} s; 8 classes under renaming: best of 5 {classes:.4f} s")

    print("5x5 X-sudoku: every unique puzzle with 4 and 5 givens, up to symmetry")
    for engine in engines:
        def both(e=engine):
            gen = Generator(model, sym, e)
            return gen, [gen.every(4), gen.every(5)]

        (gen, results), seconds = timed(both)
        figures = "; ".join(f"{r.givens} givens: {r.tally.classes:,} classes "
                            f"({r.tally.minimal:,} minimal, {r.tally.renamed:,} up to renaming, "
                            f"{r.tally.labelled:,} labelled)" for r in results)
        print(f"  {engine:7} {seconds:.2f} s in total (enumeration included): {figures}")
    checker = second_engine(model, engines[0])
    if checker:
        gen = Generator(model, sym, engines[0])
        for k in (4, 5):
            checked, seconds = timed(lambda k=k: gen.check(gen.every(k), checker))
            print(f"  re-solving all {len(checked.puzzles):,} {k}-given puzzles with {checker}: "
                  f"{seconds:.2f} s, every one unique")

    sudoku = load(MODELS / "sudoku_inkala.toml")
    for engine in available(sudoku.model):
        gen = Generator(sudoku.model, sudoku.symmetry(), engine)
        for k in (30, 26):
            result, seconds = timed(lambda g=gen, k=k: g.random(k, 3, seed=1))
            print(f"9x9 sudoku, {engine}: 3 random puzzles with {k} givens in {seconds:.2f} s "
                  f"(found {len(result.puzzles)}, checked by {result.details['checked by']})")


if __name__ == "__main__":
    main()
