"""N queens written with the Python API: a Csp model, no solver code.

    cpsolve count examples/queens.py            # 92 for 8 queens
    cpsolve compare examples/queens.py --task count

The puzzle subclass only draws the board (and reads it back, for ``cpsolve validate``);
every engine solves the same Csp.
"""

from cpsolve import Csp
from cpsolve.puzzles.assignment_text import inside_panel
from cpsolve.puzzles.base import Puzzle


class QueensPuzzle(Puzzle):
    """Draws a solution as a chess board."""

    def render_solution(self, solution) -> str:
        n = len(solution)
        return "\n".join(
            " ".join("Q" if solution[f"q[{r}]"] == c else "." for c in range(n))
            for r in range(n)
        )

    def read_solution(self, written) -> dict[str, int]:
        """The board as drawn (for ``cpsolve validate``), or a JSON assignment: the first
        rows of ``Q`` and ``.`` in the text, inside the solution's panel when framed."""
        if not isinstance(written, str):
            return super().read_solution(written)
        n = len(self.model.names)
        rows = [line.split() for line in inside_panel(written).splitlines()]
        rows = [r for r in rows if r and set(r) <= {"Q", "."}][:n]
        if len(rows) != n or any(len(r) != n or r.count("Q") != 1 for r in rows):
            raise ValueError(f"expected {n} rows of {n} squares, one Q a row")
        return {f"q[{r}]": row.index("Q") for r, row in enumerate(rows)}


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
