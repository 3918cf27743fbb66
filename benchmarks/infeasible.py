"""Small unsolvable planning models: how fast each engine proves that no plan exists (issue 15).

    python benchmarks/infeasible.py [--count 200] [--seed 1] [--peer /work/main --peer-count 30]

Models are generated from ``--seed`` with the Python API (nothing here knows
a puzzle family): two or three water jugs whose target is no multiple of the
capacities' gcd, and random transition systems (2-4 variables with small
domains; increments, constants, copies and jug-like transfers, with guards).
A model is kept when a plain breadth-first search written here (the
reference interpreter :func:`cpsolve.language.interpret.evaluate`, no engine code) finds
between :data:`FEWEST` and :data:`MOST` reachable states and no goal among
them.

Each model is answered, interleaved so that all see the same machine load,
by ``cpsat`` (time limit 2 s), the default engine ``auto`` (the race of
both, cross-check included, measured by the wall clock of the whole race;
budget 1 s) and ``search``; with ``--peer``, the same models are generated
and answered by ``cpsat`` in another checkout (a worker process; the same
seed gives the same models) on the first ``--peer-count`` of them.  Times
are in-process wall-clock times of :func:`cpsolve.engines.run` (the check
included); ``import ortools`` is paid before any clock starts, in both
processes.  Printed: how many answers are "infeasible (proven)" within the
target (2 s for cpsat, 1 s for auto), the median and maximum times, the
proofs used, and the ratios cpsat / search and peer / cpsat.  Last, what the
proofs tried before CP-SAT's horizons cost on solvable bundled models.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FEWEST, MOST = 20, 600
"""Reachable states a kept model has (the issue: "a few hundred")."""
TARGET = {"cpsat": 2.0, "auto": 1.0, "search": 1.0}
"""Seconds within which each engine must prove infeasibility."""


def _setup(root: Path | None) -> None:
    if root is not None:
        sys.path.insert(0, str(root))


# ---------------------------------------------------------------- models


def reachable(model) -> tuple[int, bool]:
    """(states reachable from the start, whether one is a goal): plain BFS."""
    from cpsolve.language.interpret import evaluate

    names = list(model.domains)
    start = tuple(model.initial[n] for n in names)
    seen, todo, goal = {start}, [start], False
    while todo and len(seen) <= MOST:
        s = todo.pop()
        env = dict(zip(names, s))
        goal = goal or bool(evaluate(model.goal, env))
        for action in model.actions:
            if not evaluate(action.guard, env):
                continue
            new = dict(env)
            for n, e in action.effects:
                new[n] = evaluate(e, env)
            if all(new[n] in model.domains[n] for n in names):
                t = tuple(new[n] for n in names)
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
    return len(seen), goal


def jugs(rng: random.Random):
    """Two or three jugs; every amount measured is a multiple of the gcd, the target not."""
    from cpsolve.language.combine import Min, Or
    from cpsolve.model import Planning

    g = rng.choice([2, 3, 4])
    caps = [g * rng.randint(1, 7) for _ in range(rng.choice([2, 2, 3]))]
    m = Planning("jugs")
    jug = [m.add_variable(f"jug[{i}]", 0, c) for i, c in enumerate(caps)]
    m.set_initial({f"jug[{i}]": 0 for i in range(len(caps))})
    for i, c in enumerate(caps):
        m.add_action(f"fill {i}", jug[i] < c, {jug[i]: c})
        m.add_action(f"empty {i}", jug[i] > 0, {jug[i]: 0})
        for j, d in enumerate(caps):
            if i != j:
                moved = Min(jug[i], d - jug[j])
                m.add_action(f"pour {i} {j}", (jug[i] > 0) & (jug[j] < d),
                             {jug[i]: jug[i] - moved, jug[j]: jug[j] + moved})
    want = rng.choice([v for v in range(1, max(caps)) if v % g])
    m.set_goal(Or(*(j == want for j in jug)))
    return m


def transition(rng: random.Random):
    """A random transition system; its goal pins one or two variables to values (the
    benchmark keeps it only when no reachable state has them)."""
    from cpsolve.language.combine import And, Min
    from cpsolve.language.expr import Var
    from cpsolve.model import Planning

    m = Planning("random")
    names = [f"x{i}" for i in range(rng.randint(2, 4))]
    for n in names:
        m.add_variable(n, 0, rng.randint(2, 7))
    m.set_initial({n: rng.randint(0, m.domain(n)[1]) for n in names})
    for k in range(rng.randint(2, 7)):
        a, b = rng.sample(names, 2)
        kind = rng.choice(["inc", "set", "copy", "transfer", "swap"])
        va, vb = Var(a), Var(b)
        guard = va >= rng.randint(0, 2) if rng.random() < 0.5 else vb <= rng.randint(1, 5)
        if kind == "inc":
            effects = {a: va + rng.choice([-3, -2, 2, 3]), b: vb + rng.choice([-1, 1, 2])}
        elif kind == "set":
            pinned = rng.randint(0, m.domain(a)[1])
            guard = And(va == pinned, guard)
            effects = {a: rng.randint(0, m.domain(a)[1])}
        elif kind == "copy":
            effects = {a: vb}
        elif kind == "transfer":
            moved = Min(va, m.domain(b)[1] - vb)
            effects = {a: va - moved, b: vb + moved}
        else:
            effects = {a: vb, b: va}
        m.add_action(f"a{k}", guard, effects)
    pinned = rng.sample(names, rng.choice([1, 2]))
    m.set_goal(And(*(Var(n) == rng.randint(0, m.domain(n)[1]) for n in pinned)))
    return m


def models(count: int, seed: int) -> list:
    """``count`` kept models, the same for the same seed (and the same cpsolve API)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        model = jugs(rng) if rng.random() < 0.35 else transition(rng)
        states, goal = reachable(model)
        if FEWEST <= states <= MOST and not goal:
            model.name = f"#{len(out)} {model.name} ({states} states)"
            out.append(model)
    return out


# ---------------------------------------------------------------- timing


def timed(engine: str, model, limit: float) -> tuple[float, str, str | None]:
    """(seconds, status, proof) of one run (``auto``: the whole race, cross-check included)."""
    from cpsolve.engines import Options, run

    start = time.perf_counter()
    if engine == "auto":
        from cpsolve.engines.auto import race

        result = race("solve", model, Options(), limit).result
    else:
        result = run(engine, "solve", model, Options(time_limit=limit))
    return time.perf_counter() - start, result.status.value, result.proof


def worker(root: Path, count: int, seed: int) -> None:
    """Answer ``index`` lines on stdin with one JSON line: the cpsat run of that model."""
    _setup(root)
    import ortools  # noqa: F401 - paid before any clock starts

    todo = models(count, seed)
    print("ready", flush=True)
    for line in sys.stdin:
        seconds, status, proof = timed("cpsat", todo[int(line)], TARGET["cpsat"])
        print(json.dumps([seconds, status, proof]), flush=True)


def summary(name: str, rows: list[tuple[float, str, str | None]]) -> str:
    times = [t for t, _, _ in rows]
    met = sum(1 for t, s, _ in rows if s == "infeasible" and t <= TARGET.get(name, 2.0))
    proofs = Counter(p or s for _, s, p in rows)
    return (f"{name:>12}: {met}/{len(rows)} infeasible (proven) within {TARGET.get(name, 2.0):g} s;"
            f" median {statistics.median(times):.3f} s, max {max(times):.3f} s; "
            f"proofs {dict(proofs)}")


SOLVABLE = ("eight_puzzle", "english33", "hoppers", "line_puzzle", "fifteen_easy", "water_jugs")
"""Bundled solvable models on which the cost of the proofs tried first is measured."""


def overhead() -> None:
    """What the proofs before the horizons cost cpsat on solvable models (they prove nothing
    there): their time, and its share of the whole cpsat solve."""
    from cpsolve.engines import Options, run
    from cpsolve.engines.cpsat.exhaust import before_horizons
    from cpsolve.puzzles.files import load

    print("cost of the proofs tried before the horizons (best of 3), on solvable bundled models:")
    for name in SOLVABLE:
        model = load(ROOT / "models" / f"{name}.toml").model
        first = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            proven, _ = before_horizons(model, "solve", Options(time_limit=30))
            first = min(first, time.perf_counter() - start)
        start = time.perf_counter()
        result = run("cpsat", "solve", model, Options(time_limit=30))
        whole = time.perf_counter() - start
        assert proven is None and result.status.value == "optimal"
        print(f"{name:>14}: {first * 1000:6.1f} ms of {whole:6.2f} s for the whole cpsat "
              f"solve ({100 * first / whole:.1f} %)")


def french37() -> None:
    """The French 37-hole central game (issue 10: impossible, "in under a second by both
    engines"): model loading included."""
    from cpsolve.puzzles.files import load

    line = []
    for engine in ("cpsat", "search", "auto"):
        start = time.perf_counter()
        model = load(ROOT / "models" / "french37.toml").model
        _, status, proof = timed(engine, model, 60.0)
        line.append(f"{engine} {time.perf_counter() - start:.3f} s ({status}, {proof})")
    print("French 37-hole, centre to centre: " + "; ".join(line))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--peer", type=Path, help="another checkout whose cpsat to measure")
    parser.add_argument("--peer-count", type=int, default=30)
    parser.add_argument("--no-overhead", action="store_true",
                        help="skip measuring the proofs' cost on solvable models")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        return worker(args.worker, args.count, args.seed)
    _setup(ROOT)
    import ortools  # noqa: F401 - paid before any clock starts

    todo = models(args.count, args.seed)
    peer = None
    if args.peer is not None:
        peer = subprocess.Popen([sys.executable, __file__, "--worker", str(args.peer),
                                 "--count", str(args.count), "--seed", str(args.seed)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert peer.stdout.readline().strip() == "ready"
    rows: dict[str, list] = {"cpsat": [], "auto": [], "search": [], "peer cpsat": []}
    paired = []  # (cpsat, peer cpsat) seconds on the same model
    for i, model in enumerate(todo):
        rows["cpsat"].append(timed("cpsat", model, TARGET["cpsat"]))
        if peer is not None and i < args.peer_count:
            peer.stdin.write(f"{i}\n")
            peer.stdin.flush()
            rows["peer cpsat"].append(tuple(json.loads(peer.stdout.readline())))
            paired.append((rows["cpsat"][-1][0], rows["peer cpsat"][-1][0]))
        rows["auto"].append(timed("auto", model, TARGET["auto"]))
        rows["search"].append(timed("search", model, TARGET["search"]))
    if peer is not None:
        peer.stdin.close()
        peer.wait()
    print(f"{len(todo)} unsolvable models (seed {args.seed}), {FEWEST}-{MOST} reachable "
          "states each, confirmed by the benchmark's own BFS")
    for name, found in rows.items():
        if found:
            print(summary(name, found))
    ratio = [c[0] / max(s[0], 1e-9) for c, s in zip(rows["cpsat"], rows["search"])]
    print(f"cpsat / search, same models: median ratio {statistics.median(ratio):.2f}")
    if paired:
        print(f"peer cpsat / cpsat, first {len(paired)} models: median ratio "
              f"{statistics.median(p / max(c, 1e-9) for c, p in paired):.1f}, "
              f"total {sum(p for _, p in paired):.1f} s vs {sum(c for c, _ in paired):.2f} s")
    french37()
    if not args.no_overhead:
        overhead()


if __name__ == "__main__":
    main()
