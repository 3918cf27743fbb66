"""N queens written with the Python API: a Csp model, no solver code.

    cpsolve count examples/queens.py            # 92 for 8 queens
    cpsolve compare examples/queens.py --task count

The puzzle subclass only draws the board; every engine solves the same Csp.
"""

from cpsolve import Csp
from cpsolve.puzzles.base import Puzzle


class QueensPuzzle(Puzzle):
    """Draws a solution as a chess board."""

    def render_solution(self, solution) -> str:
        n = len(solution)
        return "\n".join(
            " ".join("Q" if solution[f"q[{r}]"] == c else "." for c in range(n))
            for r in range(n)
        )


def model(n: int = 8) -> Csp:
    """One queen per row; ``q[r]`` is the column of the queen in row ``r``."""
    csp = Csp(f"{n} queens (Python API)")
    q = csp.add_array("q", n, 0, n - 1)
    csp.all_different(q, "columns")
    for i in range(n):
        for j in range(i + 1, n):
            csp.require(abs(q[i] - q[j]) != j - i, f"diagonal of rows {i} and {j}")
    return csp


def build(n: int = 8) -> QueensPuzzle:
    """The puzzle the CLI loads."""
    csp = model(n)
    return QueensPuzzle(csp.name, "python", csp, "N queens, none attacking another.",
                        "an assignment satisfying every constraint")


if __name__ == "__main__":
    from cpsolve.engines import run

    for engine in ("cpsat", "search", "pyconstraint"):
        result = run(engine, "count", model(8))
        print(engine, result.count, "solutions", result.status.value)
