"""Tower of Hanoi written with the Python API: a Planning model, no solver code.

Run it with the CLI like a model file:

    cpsolve compare examples/hanoi.py
    cpsolve solve examples/hanoi.py --engine search

or import it and call ``build(discs)`` yourself.  The optimum is 2**n - 1.
"""

from cpsolve import And, Planning

PEGS = "ABC"


def build(discs: int = 3) -> Planning:
    """Hanoi with ``discs`` discs on peg A, to be moved to peg C."""
    model = Planning(f"Tower of Hanoi, {discs} discs (Python API)")
    peg = model.add_array("peg", discs, 0, len(PEGS) - 1)  # peg[d]: where disc d is
    model.set_initial({p.name: 0 for p in peg})
    model.set_goal(And(*(p == len(PEGS) - 1 for p in peg)))

    def move(d: int, t: int):
        # disc d is free when no smaller disc shares its peg; the target must
        # hold no smaller disc either
        guard = And(peg[d] != t, *(And(peg[e] != peg[d], peg[e] != t) for e in range(d)))
        return guard, {peg[d]: t}

    model.add_actions("disc {d} to peg {t}", over={"d": range(discs), "t": range(len(PEGS))},
                      build=move)
    return model


if __name__ == "__main__":
    from cpsolve.engines import run

    for engine in ("cpsat", "search"):
        result = run(engine, "solve", build(3))
        print(engine, result.status.value, len(result.plan), "moves, verified:", result.verified)
