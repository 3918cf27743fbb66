"""Missionaries and cannibals with the Python API: forbidden states, chained comparisons
and a ``show`` template, without subclassing anything.

Run it with the CLI like a model file:

    cpsolve solve examples/river.py
    cpsolve compare examples/river.py

or import it and call ``build(people, seats)`` yourself.  With 3 + 3 and a boat
of 2 the classic answer is 11 crossings; with 4 + 4 and a boat of 2 there is
no solution at all.
"""

from cpsolve import Planning
from cpsolve.puzzles.transition import shown


def build(people: int = 3, seats: int = 2):
    """``people`` missionaries and as many cannibals cross in a boat of ``seats``."""
    model = Planning(f"Missionaries and cannibals ({people} + {people}, boat of {seats})")
    m = model.add_variable("m", 0, people)  # missionaries on the left bank
    c = model.add_variable("c", 0, people)  # cannibals on the left bank
    boat = model.add_variable("boat", 0, 1)  # 0: left bank, 1: right bank
    model.set_initial({"m": people, "c": people, "boat": 0})
    model.set_goal((m == 0) & (c == 0) & (boat == 1))
    # the rule, once for each bank; chained comparisons mean what they mean in Python
    model.forbid(0 < m < c, "cannibals outnumber missionaries on the left bank")
    model.forbid(0 < people - m < people - c, "cannibals outnumber missionaries on the right")
    for side in (0, 1):
        sign = -1 if side == 0 else 1  # people leave the left bank, or come back to it
        for dm in range(seats + 1):
            for dc in range(seats + 1 - dm):
                if dm + dc == 0:
                    continue
                model.add_action(f"{dm}M {dc}C cross from the "
                                 f"{('left', 'right')[side]}", boat == side,
                                 {m: m + sign * dm, c: c + sign * dc, boat: 1 - side})
    return shown(model, "left {m}M {c}C | boat {boat} | right " + f"{{{people} - m}}M "
                 f"{{{people} - c}}C", labels={"boat": ["left", "right"]})


if __name__ == "__main__":
    from cpsolve.engines import run

    for engine in ("cpsat", "search"):
        result = run(engine, "solve", build().model)
        print(engine, result.status.value, len(result.plan), "crossings, verified:",
              result.verified)
