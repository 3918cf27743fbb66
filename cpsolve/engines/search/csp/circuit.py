"""The search engine's circuit algorithm: a :class:`~cpsolve.model.csp.Csp` made of one circuit.

It applies when every variable belongs to one :class:`~cpsolve.model.csp.Circuit`,
the other constraints are conditions (or all-different groups over
successors, which the circuit implies) and there is nothing to optimise (a model
with an objective goes to the branch and bound of :func:`.solve.optimize_csp`).
Then a Hamiltonian-circuit search (:mod:`.hamilton`: a path grown at both
ends, Warnsdorff/Pohl order, degree pruning, forced steps, conditions checked
as soon as they can be, partial paths that end alike explored once) replaces
the general backtracking of
:mod:`.solve`; ``Options.algorithm`` ``"backtracking"`` still selects that
one, for a second opinion, and ``"circuit"`` insists on this one.

Before searching, :func:`obstacle` looks for a proof that no circuit exists
(connectivity, two sides of unequal size): the proof
:data:`~cpsolve.answers.result.CIRCUIT_GRAPH`, which the checker re-derives from the
model on its own (:mod:`cpsolve.answers.check.circuits`).  ``solve`` answers like
:func:`.csp.solve_csp` (a circuit, then a second one to decide uniqueness);
``count`` like :func:`.csp.count_csp` (limit, time limit, ``keep``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ....answers.result import CIRCUIT_GRAPH, Assignment, Count, Result, Status, Unsupported
from ....answers.words import counted
from ....model import AllDifferent, Circuit, Condition, Csp
from ... import Options
from ..common import Budget
from .hamilton import Hamilton, Solution, bits
from .tally import Stop, Tally


def circuit_of(model: Csp) -> Circuit | None:
    """The model's circuit when this module applies to the model, else ``None``."""
    circuits = [c for c in model.constraints if isinstance(c, Circuit)]
    if len(circuits) != 1 or set(circuits[0].names) != set(model.domains) \
            or len(set(circuits[0].names)) != len(circuits[0].names):
        return None
    names = set(circuits[0].names)
    for c in model.constraints:
        if isinstance(c, AllDifferent) and not set(c.names) <= names:
            return None
        if not isinstance(c, AllDifferent | Condition | Circuit):
            return None
    return circuits[0]


def chosen(model: Csp, options: Options) -> Circuit | None:
    """The circuit to search, or ``None`` when the general backtracking applies.

    ``options.algorithm`` ``"circuit"`` insists (and fails on other models);
    ``"backtracking"`` rules it out; by default it applies whenever it can.  A model
    with an objective is never the circuit search's: it finds circuits, not the best
    one, so the backtracking's branch and bound solves it (and ``"circuit"`` is refused).
    """
    if options.algorithm not in (None, "circuit"):
        return None
    if model.objective is not None:
        if options.algorithm == "circuit":
            raise Unsupported("search: the circuit algorithm does not optimise; "
                              "backtracking (the default for a model with an objective) does")
        return None
    circuit = circuit_of(model)
    if circuit is None and options.algorithm == "circuit":
        raise Unsupported("search: the circuit algorithm needs a model made of one circuit "
                          "over all its variables, conditions and all-different groups")
    return circuit


def obstacle(ham: Hamilton) -> str:
    """Why no circuit exists, found without search ("" when none is found).

    A circuit needs a way out of and into every node, and every node
    reachable from every other.  When the nodes split in two sides with
    every arc crossing sides, it alternates sides, so they are equally
    large.  Without one node (the two best-connected are tried) the rest of
    a circuit is a path: the rest must be connected, and if it splits in two
    sides the path alternates, so they differ by at most one node — and by
    one only if the path starts and ends on the larger side; then the arcs
    between the node and the smaller side are removed from ``ham``.
    Conditions are not looked at (except constant ones).
    """
    out, inn, n = ham.out, ham.inn, ham.n
    if ham.cond.false:
        return "a condition is always false"
    for arcs, way in ((out, "out of"), (inn, "into")):
        if not all(arcs):
            return f"no arc leads {way} node {arcs.index(0)}"
    full = (1 << n) - 1
    for arcs, way in ((out, "reached from"), (inn, "reach")):
        seen = frontier = 1
        while frontier:
            step = 0
            for u in bits(frontier):
                step |= arcs[u]
            frontier = step & ~seen
            seen |= frontier
        if seen != full:
            return (f"node {bits(full & ~seen)[0]} cannot be {way} node 0 "
                    "(the graph is not strongly connected)")
    sides = _sides(ham, full)
    if sides and sides[0].bit_count() != sides[1].bit_count():
        return (f"every arc joins two sides of {sides[0].bit_count()} and "
                f"{sides[1].bit_count()} nodes; a circuit alternates sides, so they would "
                "have to be equal")
    if sides or n < 4:
        return ""
    for d in sorted(range(n), key=lambda u: -(out[u] | inn[u]).bit_count())[:2]:
        rest = full & ~(1 << d)
        sides = _sides(ham, rest)
        if sides == ():
            return f"without node {d} the other nodes are not connected: " + _cut_off(ham, rest)
        if sides is None:
            continue
        big, small = sorted(sides, key=lambda m: -m.bit_count())
        gap = big.bit_count() - small.bit_count()
        if gap >= 2 or (gap == 1 and not (out[d] & big and inn[d] & big)):
            return (f"without node {d} the nodes split in two sides of {big.bit_count()} and "
                    f"{small.bit_count()} with every arc crossing sides; a path through them "
                    "alternates sides, so it cannot " + ("exist" if gap >= 2 else
                                                         f"start and end next to node {d}"))
        if gap == 1:  # the path starts and ends on the larger side
            for u in bits(small):
                out[u] &= ~(1 << d)
                inn[u] &= ~(1 << d)
            out[d] &= big
            inn[d] &= big
        break
    return ""


def _cut_off(ham: Hamilton, nodes: int) -> str:
    """Which of ``nodes`` (not connected) shows it: the first node of their smallest part
    (arcs taken either way), and how many others that part holds."""
    parts, left = [], nodes
    while left:
        part = frontier = left & -left
        while frontier:
            near = 0
            for u in bits(frontier):
                near |= ham.out[u] | ham.inn[u]
            frontier = near & nodes & ~part
            part |= frontier
        parts.append(part)
        left &= ~part
    part = min(parts, key=lambda m: (m.bit_count(), m & -m))
    first, size = bits(part)[0], part.bit_count()
    if size == 1:
        return f"no arc joins node {first} to any of them"
    return (f"paths of arcs join node {first} to only {size - 1} of the other "
            f"{nodes.bit_count() - 1}")


def _sides(ham: Hamilton, nodes: int) -> tuple[int, ...] | None:
    """The two sides of ``nodes`` when every arc among them crosses sides.

    ``()`` when ``nodes`` is not connected, else ``None`` when an odd cycle forbids it.
    """
    first = nodes & -nodes
    side, todo, seen, odd = [first, 0], [first.bit_length() - 1], first, False
    for u in todo:
        here = 0 if side[0] >> u & 1 else 1
        near = (ham.out[u] | ham.inn[u]) & nodes
        odd = odd or bool(near & side[here])
        new = near & ~seen
        side[1 - here] |= new
        seen |= new
        todo.extend(bits(new))
    return () if seen != nodes else None if odd else tuple(side)


@dataclass
class _Run:
    """What one search did: its search object, budget, and what it proved."""

    ham: Hamilton
    budget: Budget
    complete: bool  # the whole search tree was explored (or a proof made it needless)
    proof: str  # why no circuit exists, when :func:`obstacle` found out

    def details(self) -> dict[str, object]:
        return {"nodes": self.ham.nodes, "algorithm": "circuit"}


def _search(model: Csp, circuit: Circuit, options: Options, ordered: bool,
            on_solution: Callable[[Solution], None] | None) -> _Run:
    ham = Hamilton(model, circuit)
    budget = Budget(options.time_limit, None, options.progress)
    proof = obstacle(ham)
    if proof:
        return _Run(ham, budget, True, proof)
    try:
        ham.run(on_solution, budget, ordered)
    except Stop:
        return _Run(ham, budget, False, "")
    return _Run(ham, budget, True, "")


def _none_proof(done: _Run) -> tuple[str, str]:
    """How a complete search that found no circuit proves there is none, and why in words:
    :data:`~cpsolve.answers.result.CIRCUIT_GRAPH` and :func:`obstacle`'s reason, else the
    exhausted search."""
    if done.proof:
        return CIRCUIT_GRAPH, done.proof
    return "exhausted search", "the whole search tree was explored"


def solve_circuit(model: Csp, circuit: Circuit, options: Options) -> Result:
    """A circuit, and a second one if it exists (which decides uniqueness).

    ``SOLVED`` with ``unique`` True / False (and ``second``), or ``None`` when
    the time limit struck between the two; ``INFEASIBLE`` when proven.
    """
    found: list[Solution] = []

    def keep(solution: Solution) -> None:
        found.append(solution)
        if len(found) == 2:
            raise Stop

    done = _search(model, circuit, options, True, keep)
    nodes, details = done.ham.nodes, done.details()
    if not found:
        if done.complete:
            proof, why = _none_proof(done)
            return Result(status=Status.INFEASIBLE, engine="search", explored=nodes,
                          proof=proof, message=f"no circuit: {why}", details=details)
        return Result(status=Status.UNKNOWN, engine="search", explored=nodes,
                      message=f"stopped: {done.budget.reason}; no circuit found yet",
                      details=details)
    second = found[1] if len(found) > 1 else None
    unique = False if second else (True if done.complete else None)
    message = "" if unique is not None else \
        f"stopped: {done.budget.reason} before uniqueness was decided"
    return Result(status=Status.SOLVED, engine="search",
                  answer=Assignment(found[0], unique, second), explored=nodes, message=message,
                  details=details)


def count_circuit(model: Csp, circuit: Circuit, options: Options) -> Result:
    """Count every circuit (at most ``options.limit``); keep them with ``options.keep``.

    ``EXACT`` = the count is exact; ``AT_LEAST`` = stopped at a limit (the
    count or the time limit; ``UNKNOWN`` when nothing was found before it).
    Without ``keep`` or ``limit`` the search counts without listing, which
    lets it reuse the counts of partial paths that end alike.
    """
    tally = Tally(options)
    listing = options.keep or options.limit is not None or options.on_solution is not None
    # Warnsdorff's order finds circuits sooner; a complete count gains nothing from it
    done = _search(model, circuit, options, options.limit is not None,
                   tally if listing else None)
    solutions = tally.solutions()
    n, nodes, details = done.ham.found, done.ham.nodes, done.details()
    message = counted(n, done.complete, done.budget.reason,
                      None if done.complete or done.budget.stop is not None else n)
    proof, why = _none_proof(done) if done.complete and n == 0 else (None, "")
    message += f": {why}" if why else ""
    return Result.counted("search", Count(n, solutions), done.complete, explored=nodes,
                          message=message, details=details, proof=proof)
