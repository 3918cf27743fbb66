"""Tours: the tour family, the search engine's circuit algorithm, CP-SAT's circuit, the checker.

Known answers come from the seed article (problem A), from the literature
(closed knight's tours: 9,862 on 6x6 up to direction, 16 / 176 on 3x10 /
3x12; Hamiltonian cycles of the 6x6 grid: 1,072; open 5x5 tours: 1,728
directed, 304 from a corner), from parity reasoning, or from the naive
enumerators written here, which share nothing with the engines.
"""

from __future__ import annotations

import itertools
import json
import random
import tomllib

import pytest

from cpsolve.answers.check.assignments import violations
from cpsolve.answers.result import Assignment, EngineBug, Status, Unsupported
from cpsolve.engines import Options, run
from cpsolve.language.expr import Var
from cpsolve.model import Csp
from cpsolve.puzzles import tour
from cpsolve.puzzles.data import Data
from cpsolve.puzzles.files import MODELS_DIR, load

BOTH = ["cpsat", "search"]


def board(rows: int, cols: int, **keys) -> tour.TourPuzzle:
    """A tour puzzle on a full ``rows`` x ``cols`` board, built through the family."""
    table = {"family": "tour", "board": "\n".join("." * cols for _ in range(rows)), **keys}
    return tour.build(Data(table, "<test>"))


def model_file(name: str):
    return load(MODELS_DIR / f"{name}.toml")


def picture_of(name: str) -> list[str]:
    """The board picture of a bundled model file, one string per row, without spaces."""
    table = tomllib.loads((MODELS_DIR / f"{name}.toml").read_text())
    return [line.replace(" ", "") for line in table["board"].splitlines() if line.strip()]


def solve(engine: str, model: Csp, **options):
    return run(engine, "solve", model, Options(**options))


def count(engine: str, model: Csp, **options):
    return run(engine, "count", model, Options(**options))


# ------------------------------------------------------------ naive enumerators


def squares_and_leaps(picture: list[str], leaper: tuple[int, int]):
    """Squares (row-major) of a picture and, per square, the squares one leap away."""
    squares = [(r, c) for r, row in enumerate(picture) for c, ch in enumerate(row) if ch == "."]
    a, b = leaper
    steps = {(sr * x, sc * y) for x, y in ((a, b), (b, a)) for sr in (1, -1) for sc in (1, -1)}
    index = {square: i for i, square in enumerate(squares)}
    near = [sorted(index[(r + dr, c + dc)] for dr, dc in steps if (r + dr, c + dc) in index)
            for r, c in squares]
    return squares, near


def naive_closed_tours(picture: list[str], leaper: tuple[int, int]) -> int:
    """Closed tours up to direction, by plain depth-first search from square 0."""
    squares, near = squares_and_leaps(picture, leaper)
    n, found = len(squares), 0

    def extend(path: list[int], seen: set[int]) -> None:
        nonlocal found
        if len(path) == n:
            found += path[0] in near[path[-1]]
            return
        for j in near[path[-1]]:
            if j not in seen:
                seen.add(j)
                path.append(j)
                extend(path, seen)
                path.pop()
                seen.discard(j)

    extend([0], {0})
    return found // 2 if n > 2 else found


def is_tour(picture: list[str], leaper: tuple[int, int], visits: list[tuple[int, int]],
            closed: bool) -> bool:
    """Every square once, each step one leap (and back to the start when closed)."""
    squares, _ = squares_and_leaps(picture, leaper)
    a, b = sorted(leaper)
    pairs = list(zip(visits, visits[1:] + (visits[:1] if closed else [])))
    return sorted(visits) == sorted(squares) and all(
        sorted((abs(p[0] - q[0]), abs(p[1] - q[1]))) == [a, b] for p, q in pairs)


# ------------------------------------------------------------ problem A (the seed article)

PROBLEM_A = ["x..x", "....", ".xx.", "....", "x..x"]


def test_problem_a_board_is_the_articles_graph():
    # The article numbers the 14 squares row-major and lists their neighbours.
    article = [[5, 6], [2, 7], [1, 9], [7, 8, 10], [6, 9, 11], [0, 10], [0, 4, 10, 12],
               [1, 3, 9, 13], [3, 13], [2, 4, 7], [3, 5, 6], [4, 12], [6, 11], [7, 8]]
    puzzle = model_file("knight_problem_a")
    values = [list(puzzle.model.values(tour.succ(i))) for i in range(14)]
    assert values == article
    assert squares_and_leaps(PROBLEM_A, (1, 2))[1] == article


@pytest.mark.parametrize("engine", BOTH)
def test_problem_a_has_one_tour_up_to_direction(engine):
    model = model_file("knight_problem_a").model
    result = solve(engine, model)
    assert result.found and result.verified and result.unique is True
    assert count(engine, model).count == 1 == naive_closed_tours(PROBLEM_A, (1, 2))


@pytest.mark.parametrize("engine", BOTH)
def test_problem_a_has_two_directed_tours_without_symmetry_breaking(engine):
    adjacency = squares_and_leaps(PROBLEM_A, (1, 2))[1]
    model = Csp("problem A, both directions")
    nodes = [model.add_variable(f"s{i}", 0, 13) for i in range(14)]
    for i, near in enumerate(adjacency):
        model.restrict(f"s{i}", near)
    model.circuit(nodes)
    result = count(engine, model, keep=True)
    assert result.status is Status.EXACT and result.count == 2 and result.verified
    first, second = result.solutions
    assert all(second[f"s{first[f's{i}']}"] == i for i in range(14))  # one is the reverse


@pytest.mark.parametrize("engine", BOTH)
def test_problem_a_renders_the_articles_tour(engine):
    puzzle = model_file("knight_problem_a")
    result = solve(engine, puzzle.model)
    # The article prints 0 5 10 3 8 13 7 1 2 9 4 11 12 6 and its reverse; the
    # kept direction leaves square 0 for its smaller neighbour.
    assert puzzle.order(result.solution) == [0, 5, 10, 3, 8, 13, 7, 1, 2, 9, 4, 11, 12, 6]
    assert puzzle.render_solution(result.solution).split("\n") == [
        " x  1  8  x",
        " 9  4 11  2",
        "14  x  x  7",
        " 5 10  3 12",
        " x 13  6  x",
    ]


# ------------------------------------------------------------ the bundled boards


@pytest.mark.parametrize("engine", BOTH)
def test_no_closed_tour_on_4x4(engine):
    model = model_file("knight_4x4").model
    assert solve(engine, model).status is Status.INFEASIBLE
    result = count(engine, model)
    assert result.status is Status.EXACT and result.count == 0


@pytest.mark.parametrize("engine", BOTH)
@pytest.mark.parametrize("name,side", [("knight_6x6", 6), ("knight_8x8", 8)])
def test_closed_tours_on_6x6_and_8x8(engine, name, side):
    puzzle = model_file(name)
    result = solve(engine, puzzle.model, time_limit=30)
    assert result.found and result.verified
    visits = [puzzle.squares[i] for i in puzzle.order(result.solution)]
    assert is_tour(["." * side] * side, (1, 2), visits, closed=True)


def test_6x6_count_is_9862_up_to_direction():
    result = count("search", model_file("knight_6x6").model)
    assert result.status is Status.EXACT and result.count == 9862


@pytest.mark.slow
def test_cpsat_counts_6x6_too():
    assert count("cpsat", model_file("knight_6x6").model).count == 9862


def test_cpsat_count_stops_at_its_time_limit_with_a_bound(cp_sat_loaded):
    result = count("cpsat", board(8, 8).model, time_limit=0.5)
    assert result.status in (Status.AT_LEAST, Status.UNKNOWN)
    assert result.bound == (result.count or 0) >= 0


def test_search_count_stops_at_its_time_limit_with_a_bound():
    result = count("search", board(8, 8).model, time_limit=0.3)
    assert result.status in (Status.AT_LEAST, Status.UNKNOWN)
    assert result.bound == (result.count or 0) >= 0
    assert "time limit" in result.message


@pytest.mark.parametrize("side", [20, 50])
def test_search_finds_large_closed_tours(side):
    puzzle = board(side, side)
    result = solve("search", puzzle.model, time_limit=20)
    assert result.found and result.verified
    visits = [puzzle.squares[i] for i in puzzle.order(result.solution)]
    assert is_tour(["." * side] * side, (1, 2), visits, closed=True)


@pytest.mark.parametrize("rows,cols", [(5, 20), (6, 30), (10, 40), (7, 60), (12, 13)])
def test_search_finds_closed_tours_on_long_boards(rows, cols):
    # A path grown from one end only got stuck on most of these (see hamilton.py).
    puzzle = board(rows, cols)
    result = solve("search", puzzle.model, time_limit=20)
    assert result.found and result.verified and result.explored < 20 * rows * cols


@pytest.mark.parametrize("engine", BOTH)
@pytest.mark.parametrize("rows,cols", [(3, 8), (4, 6), (4, 8)])
def test_schwenks_exceptions_have_no_closed_tour(engine, rows, cols):
    # Schwenk (1991): m x n (m <= n) has a closed tour unless m, n both odd,
    # m in {1, 2, 4}, or m = 3 and n in {4, 6, 8}.
    assert solve(engine, board(rows, cols).model).status is Status.INFEASIBLE


@pytest.mark.parametrize("side", [5, 7, 49])
def test_odd_boards_have_no_closed_tour_by_parity(side):
    # Every knight move changes colour; a closed tour alternates colours, so an
    # odd number of squares is impossible — proven without search.
    result = solve("search", board(side, side).model)
    assert result.status is Status.INFEASIBLE and "sides" in result.message
    assert result.explored == 0


# ------------------------------------------------------------ literature and other leapers


@pytest.mark.parametrize("rows,cols,leaper,expected", [
    (3, 12, (1, 2), 176),  # 3 x 2n boards: OEIS A070030
    (4, 4, (0, 1), 6),  # Hamiltonian cycles of grid graphs (the wazir)
    (6, 6, (0, 1), 1072),
])
def test_counts_from_the_literature(rows, cols, leaper, expected):
    model = board(rows, cols, leaper=list(leaper)).model
    assert count("search", model).count == expected


CHECKERED = [".x.x.x", "x.x.x.", ".x.x.x", "x.x.x.", ".x.x.x", "x.x.x."]


@pytest.mark.parametrize("picture,leaper,expected", [
    (["....", "....", "...."], (0, 1), 2),  # the wazir: cycles of the grid graph
    (["....", "....", "....", "....", "....", "...."], (0, 1), 37),
    (["....", "..x.", "....", "...."], (0, 1), 0),  # 15 squares: parity
    (CHECKERED, (1, 3), 28),  # the camel keeps its colour: tour one colour only
    ([".....", ".....", ".....", "....."], (1, 3), 0),  # both colours: disconnected
    (["x...", "....", "....", "....", "...x"], (1, 2), 10),
    ([".....", ".....", ".....", "....."], (1, 2), 0),
    (["..x...", "......", "......", "...x.."], (1, 2), 0),
    (["......", "......", "......", "......", "......"], (2, 3), 0),  # the zebra
    (["......", "......", "......"], (1, 1), 0),  # the ferz: colour-bound
    (["......", "......", "......"], (0, 2), 0),  # the dabbaba: disconnected
])
@pytest.mark.parametrize("engine", BOTH)
def test_other_leapers_on_small_boards_match_brute_force(picture, leaper, expected, engine):
    puzzle = tour.build(Data({"family": "tour", "board": "\n".join(picture),
                              "leaper": list(leaper)}, "<test>"))
    assert naive_closed_tours(picture, leaper) == expected
    assert count(engine, puzzle.model).count == expected
    result = solve(engine, puzzle.model)
    assert result.found == (expected > 0)
    if expected:
        assert result.verified
        visits = [puzzle.squares[i] for i in puzzle.order(result.solution)]
        assert is_tour(picture, leaper, visits, closed=True)
        assert result.unique == (expected == 1)


@pytest.mark.parametrize("engine", BOTH)
@pytest.mark.parametrize("name,expected", [("knight_3x10", 16), ("camel_6x6", 28)])
def test_bundled_boards_of_other_shapes_and_leapers(engine, name, expected):
    puzzle = model_file(name)
    rows = picture_of(name)
    assert count(engine, puzzle.model).count == expected
    if name == "camel_6x6":
        assert naive_closed_tours(rows, (1, 3)) == expected
    result = solve(engine, puzzle.model)
    visits = [puzzle.squares[i] for i in puzzle.order(result.solution)]
    assert is_tour(rows, puzzle.leaper, visits, closed=True)


def undirected(n: int, edges: list[tuple[int, int]]) -> Csp:
    """Successor variables over an undirected graph's edges, required to form one circuit."""
    model = Csp("graph")
    names = [model.add_variable(f"s{i}", 0, n - 1) for i in range(n)]
    for i in range(n):
        model.restrict(f"s{i}", [b if a == i else a for a, b in edges if i in (a, b)])
    model.circuit(names)
    return model


PETERSEN = [(i, (i + 1) % 5) for i in range(5)] + [(i, i + 5) for i in range(5)] + [
    (5 + i, 5 + (i + 2) % 5) for i in range(5)]
"""Three edges at each of ten nodes, no Hamiltonian cycle, no short proof here."""


@pytest.mark.parametrize("edges,why", [
    ([(0, 1), (1, 2), (0, 2), (3, 4)], "cannot be reached"),  # two pieces
    ([(0, 1), (2, 3), (1, 2), (0, 2)], "without node 2"),  # node 3 hangs on node 2
    ([(0, 1), (1, 2), (2, 0), (0, 3), (3, 4), (4, 0)], "without node 0"),  # a bow tie
    (PETERSEN, ""),  # the smallest graph that needs a search
])
@pytest.mark.parametrize("engine", BOTH)
def test_proofs_of_infeasibility_say_why(edges, why, engine):
    model = undirected(1 + max(max(e) for e in edges), edges)
    result = solve(engine, model)
    assert result.status is Status.INFEASIBLE
    assert count(engine, model).count == 0
    if len(model.names) <= 8:
        assert brute_force(model) == 0
    if engine == "search" and why:
        assert why in result.message and result.explored == 0


# ------------------------------------------------------------ open tours


@pytest.mark.parametrize("engine", BOTH)
def test_open_5x5_from_a_corner(engine):
    puzzle = model_file("knight_open_5x5")
    result = solve(engine, puzzle.model)
    assert result.found and result.verified and result.unique is False
    order = puzzle.order(result.solution)
    assert order[0] == 0 and len(order) == 25
    visits = [puzzle.squares[i] for i in order]
    assert is_tour(["....."] * 5, (1, 2), visits, closed=False)
    assert count(engine, puzzle.model).count == 304


def test_open_5x5_anywhere():
    assert count("search", board(5, 5, closed=False).model).count == 1728


@pytest.mark.parametrize("engine", BOTH)
@pytest.mark.parametrize("start", [[0, 1], [2, 1]])
def test_open_tour_from_a_minority_square_is_impossible(engine, start):
    # 13 light and 12 dark squares: an open tour alternates, so it starts light.
    result = solve(engine, board(5, 5, closed=False, start=start).model)
    assert result.status is Status.INFEASIBLE


def test_open_tour_rendering_numbers_the_visits():
    puzzle = model_file("knight_open_5x5")
    result = solve("search", puzzle.model)
    rows = [line.split() for line in puzzle.render_solution(result.solution).splitlines()]
    assert rows[0][0] == "1"
    where = {int(t): (r, c) for r, row in enumerate(rows) for c, t in enumerate(row)}
    assert sorted(where) == list(range(1, 26))
    assert is_tour(["....."] * 5, (1, 2), [where[k] for k in range(1, 26)], closed=False)
    assert puzzle.json_solution(result.solution)["tour"][0] == [0, 0]


# ------------------------------------------------------------ the circuit algorithm itself


def random_circuit_model(rng: random.Random, n: int, with_conditions: bool) -> Csp:
    """A planted circuit plus random extra arcs (and random conditions)."""
    model = Csp("random circuit")
    names = [model.add_variable(f"x{i}", 0, n - 1) for i in range(n)]
    order = rng.sample(range(n), n)
    planted = {order[k]: order[(k + 1) % n] for k in range(n)}
    for i in range(n):
        extra = rng.sample(range(n), rng.randint(1, min(n, 4)))
        model.restrict(f"x{i}", {planted[i], *extra})
    model.circuit(names)
    if with_conditions and n > 2:
        a, b, c = rng.sample(range(n), 3)
        model.require((Var(f"x{a}") < Var(f"x{b}")) | (Var(f"x{c}") == rng.randrange(n)))
        model.require(Var(f"x{rng.randrange(n)}") != rng.randrange(n))
    return model


def brute_force(model: Csp) -> int:
    """Solutions among all permutations (successors of a circuit are one), by the checker."""
    names = model.names
    allowed = [set(model.values(n)) for n in names]
    return sum(not violations(model, dict(zip(names, p)))
               for p in itertools.permutations(range(len(names)))
               if all(v in a for v, a in zip(p, allowed)))


@pytest.mark.parametrize("seed", range(60))
def test_circuit_search_agrees_with_brute_force(seed):
    rng = random.Random(seed)
    model = random_circuit_model(rng, rng.randint(1, 7), with_conditions=seed % 3 > 0)
    expected = brute_force(model)
    for algorithm in ("circuit", "backtracking"):
        assert count("search", model, algorithm=algorithm).count == expected
        listed = count("search", model, algorithm=algorithm, keep=True)
        assert listed.count == expected == len(listed.solutions)
        result = solve("search", model, algorithm=algorithm)
        assert result.found == (expected > 0)
        assert result.unique in ((expected == 1,) if expected else (None,))


def test_algorithm_choice():
    model = model_file("knight_problem_a").model
    assert solve("search", model).details["algorithm"] == "circuit"
    assert "algorithm" not in solve("search", model, algorithm="backtracking").details
    plain = Csp()
    plain.add_variable("x", 0, 3)
    with pytest.raises(Unsupported):
        solve("search", plain, algorithm="circuit")


def test_count_limit_and_keep():
    model = model_file("knight_6x6").model
    result = count("search", model, limit=5, keep=True)
    assert result.status is Status.AT_LEAST and result.count == 5 and len(result.solutions) == 5
    assert result.verified


# ------------------------------------------------------------ the checker


def test_checker_rejects_a_non_leap_move_and_a_sub_cycle():
    puzzle = model_file("knight_problem_a")
    good = dict(solve("search", puzzle.model).solution)
    assert violations(puzzle.model, good) == []
    jump = dict(good)
    jump[tour.succ(0)] = 1  # squares 0 and 1 are side by side: not a knight move
    assert any("outside its domain" in v for v in violations(puzzle.model, jump))
    cut = dict(good)
    loop = [0, 5, 10, 6]  # 0 -> 5 -> 10 -> 6 -> 0: four knight moves, a short cycle
    for x, y in zip(loop, loop[1:] + loop[:1]):
        cut[tour.succ(x)] = y
    assert all(cut[n] in puzzle.model.values(n) for n in cut)  # every move is legal
    assert any(v.startswith("tour: ") and "cycle of 4" in v
               for v in violations(puzzle.model, cut))


def test_a_broken_tour_is_said_in_squares_and_leaps(cli, tmp_path):
    """``validate knight_problem_a`` of a tour that goes from (3, 3) to (2, 0) said
    ``next[11] = 6 is outside its domain``: squares are ``rRcC`` counted from 1, so
    (3, 3) is r4c4 and (2, 0) r3c1, one row and three columns apart, no knight's leap.
    A short cycle is said in squares too: the loop of the test above starts at square 0,
    (0, 1), which is r1c2."""
    path = [[0, 1], [1, 3], [3, 2], [1, 1], [3, 0], [4, 2], [2, 3], [0, 2], [1, 0],
            [3, 1], [1, 2], [3, 3], [2, 0], [4, 1]]
    answer = tmp_path / "tour.json"
    answer.write_text(json.dumps({"tour": path}), encoding="utf-8")
    verdict = json.loads(cli("validate", "knight_problem_a", answer, "--json").out)
    assert verdict["message"] == "r4c4 to r3c1 is not a knight's leap"
    puzzle = model_file("knight_problem_a")
    cut = dict(solve("search", puzzle.model).solution)
    loop = [0, 5, 10, 6]
    for x, y in zip(loop, loop[1:] + loop[:1]):
        cut[tour.succ(x)] = y
    assert violations(puzzle.model, cut, puzzle.words())[0] == \
        "tour: the leaps from r1c2 come back to it after 4 squares, not all 14"
    del cut[tour.succ(3)]  # square 3 is (1, 1)
    assert violations(puzzle.model, cut, puzzle.words()) == ["the leap from r2c2 has no value"]


PROBLEM_A_TOUR = [" x  1  8  x", " 9  4 11  2", "14  x  x  7", " 5 10  3 12", " x 13  6  x"]
"""Problem A's tour as a board of visiting numbers (the article's, read in rows)."""


def changed(row: int, text: str) -> str:
    """:data:`PROBLEM_A_TOUR` with row ``row`` (from 0) written as ``text``."""
    return "\n".join(text if r == row else line for r, line in enumerate(PROBLEM_A_TOUR))


@pytest.mark.parametrize("text, said", [
    (changed(4, " x 13  6"), "expected 5 rows of 4 squares (the visiting numbers 1 to 14, x "
                             "on a blocked square): row 5 has 3 squares"),
    ("1 2\n3 4", "row 1 has 2 squares"),
    ("\n".join(PROBLEM_A_TOUR[:4]), "found 4 such rows"),
    ("\n".join([*PROBLEM_A_TOUR, " x  1  2  x"]), "found 6 such rows"),
    (changed(2, "14  x  y  7"), "row 3, column 3: 'y' is not one of them"),
    (changed(4, " x 13  x  6"), "r5c3 holds x, but it is a square to visit"),
    (changed(4, " 6 13  x  x"), "r5c1 holds 6, but it is blocked (x)"),
    (changed(4, " x 13 15  x"), "r5c3 holds 15: the visiting numbers are 1 to 14"),
    (changed(4, " x 13  1  x"), "1 is written twice, on r1c2 and r5c3"),
], ids=["row-short", "2x2", "rows-short", "row-more", "not-a-number", "x-on-a-square",
        "number-on-x", "past-n", "twice"])
def test_a_board_of_the_wrong_shape_or_numbers_is_unreadable(text, said):
    """Problem A is 5 rows of 4 squares, 14 of them open: a board of numbers is read only in
    that shape, ``x`` exactly on the blocked squares, each of 1..14 once; anything else is
    not a tour to check (the squares a short row leaves out were read as a tour and blamed
    for a leap)."""
    with pytest.raises(ValueError) as caught:
        model_file("knight_problem_a").read_solution(text)
    assert said in str(caught.value)


def test_a_tour_that_visits_a_square_twice_is_unreadable():
    """A path given as squares: one repeated cannot be one successor per square."""
    puzzle = model_file("knight_problem_a")
    path = [list(puzzle.squares[k]) for k in [0, 5, 10, 3, 8, 13, 7, 1, 2, 9, 4, 11, 12, 6]]
    with pytest.raises(ValueError, match=r"square \[0, 1\] comes twice in the tour"):
        puzzle.read_solution({"tour": [*path, path[0]]})


def test_a_tour_against_the_kept_direction_is_said_in_squares(cli, tmp_path):
    """Problem A's tour walked backwards, as a JSON assignment, breaks the direction the
    model keeps (square 0's successor below its predecessor); the constraint said ``the
    leap from r1c2 < 5``, a bare node. Squares are numbered in reading order, (0, 1) and
    (0, 2) first, so node 5 is (1, 3), r2c4, and node 6 is (2, 0), r3c1: square 0's two
    neighbours by a knight's leap."""
    puzzle = model_file("knight_problem_a")
    forward = dict(solve("search", puzzle.model).solution)
    backward = {tour.succ(b): a for a, b in
                ((int(name[5:-1]), b) for name, b in forward.items())}
    answer = tmp_path / "backward.json"
    answer.write_text(json.dumps(backward), encoding="utf-8")
    run = cli("validate", "knight_problem_a", answer)
    assert run.code == 1
    said = " ".join(run.out.split())
    assert "the leap from r1c2 < r2c4" in said and "the leap from r1c2 < r3c1" in said
    assert "< 5" not in said and "< 6" not in said


def test_an_open_tour_from_another_square_is_said_in_squares(tmp_path):
    """The open 5x5 tour must start in the corner (0, 0): a path from (0, 1), r1c2, is
    refused in those words; a path that reaches the end after its fourth square leaves
    21 of the 25 squares unvisited."""
    puzzle = model_file("knight_open_5x5")
    solution = dict(solve("search", puzzle.model).solution)
    path = puzzle.order(solution)
    early = dict(solution)
    early[tour.succ(path[3])] = 25  # the fourth square leads to the end (the extra node)
    assert violations(puzzle.model, early, puzzle.words()) == \
        ["tour: the path ends after 4 squares, not all 25"]
    solution[tour.succ(25)] = 1  # the extra node 25 leads to the first square
    assert "the tour cannot start on r1c2" in violations(puzzle.model, solution,
                                                           puzzle.words())


def test_verify_raises_on_a_broken_tour():
    from cpsolve.answers.check import verify

    puzzle = model_file("knight_problem_a")
    result = solve("search", puzzle.model)
    broken = dict(result.solution)
    broken[tour.succ(0)], broken[tour.succ(1)] = broken[tour.succ(1)], broken[tour.succ(0)]
    with pytest.raises(EngineBug):
        verify(puzzle.model, result.but(answer=Assignment(broken)))


def test_a_closed_tour_read_in_either_direction_is_the_same_tour():
    """Problem A's tour numbered backwards (each visit n as 15 - n), as a board and as
    JSON, is the article's tour walked the other way: read as the direction the model
    keeps, it breaks no constraint (the direction is the model's choice, not a rule)."""
    puzzle = model_file("knight_problem_a")
    forward = [" x  1  8  x", " 9  4 11  2", "14  x  x  7", " 5 10  3 12", " x 13  6  x"]
    backward = "\n".join(" ".join(t if t == "x" else str(15 - int(t)) for t in row.split())
                         for row in forward)
    by_board = puzzle.read_solution(backward)
    assert violations(puzzle.model, by_board) == []
    assert by_board == puzzle.read_solution("\n".join(forward))
    path = [list(puzzle.squares[k]) for k in
            [0, 5, 10, 3, 8, 13, 7, 1, 2, 9, 4, 11, 12, 6][::-1]]
    assert puzzle.read_solution({"tour": path}) == by_board


@pytest.mark.parametrize("rows, cols, keys, said", [
    # the centre of 3x3 is no knight's leap from any square: r2c2, not "node 4"
    (3, 3, {}, "no closed tour: no leap leads out of r2c2"),
    # 5x5 has 13 squares of one colour and 12 of the other; a knight changes colour
    (5, 5, {}, "no closed tour: every leap joins two sides of 13 and 12 squares; a closed "
               "tour alternates sides"),
    # no knight's path visits all of 4x4 (a known fact, found by the whole search here)
    (4, 4, {"closed": False}, "no open tour: "),
    # an open tour's circuit without its end is the path: on 3x3 the centre has no leap
    (3, 3, {"closed": False}, "no open tour: without the end the other squares are not "
                              "connected: no leap joins r2c2 to any of them"),
    # on 2x5 the knight's leaps join r1c2 to r2c4 alone (r1c1-r2c3-r1c5, r1c2-r2c4,
    # r1c3-r2c1-r2c5, r1c4-r2c2): r1c2 is the first square of a smallest part
    (2, 5, {"closed": False}, "no open tour: without the end the other squares are not "
                              "connected: paths of leaps join r1c2 to only 1 of the other 9"),
])
def test_no_tour_is_said_of_the_tour_and_its_squares(rows, cols, keys, said):
    """A tour with none said as one: an open tour is no circuit to its author (the engine's
    circuit runs through an extra node), and a node is a square."""
    puzzle = board(rows, cols, **keys)
    result = solve("search", puzzle.model, algorithm="circuit")
    assert result.status is Status.INFEASIBLE
    assert puzzle.message_text(result).startswith(said), puzzle.message_text(result)
    assert "node" not in puzzle.message_text(result)
    assert " arc" not in puzzle.message_text(result)


@pytest.mark.parametrize("keys, tour_words", [({}, "closed tour"), ({"closed": False},
                                                                      "open tour")])
@pytest.mark.parametrize("engine", BOTH)
def test_none_on_4x4_is_said_as_a_tour_by_every_engine_and_task(engine, keys, tour_words):
    """No knight's tour of 4x4, closed or open (a known fact): every engine says so as the
    tour it is, and a count of none too, with the engine's reason when it has one."""
    puzzle = board(4, 4, **keys)
    solved, counted = solve(engine, puzzle.model), count(engine, puzzle.model)
    assert solved.status is Status.INFEASIBLE and counted.count == 0
    assert puzzle.message_text(solved).startswith(f"no {tour_words}")
    assert puzzle.message_text(counted).startswith(f"no {tour_words} exists")
    assert "solution" not in puzzle.message_text(solved) + puzzle.message_text(counted)


def test_a_csp_of_one_circuit_keeps_the_engines_words():
    """Only a tour says leaps and squares: a csp made of one circuit is said as the engine
    says it (node 4 has no arc out, as the centre of 3x3 has no knight's leap)."""
    from cpsolve.puzzles.base import Puzzle

    model = board(3, 3).model
    plain = Puzzle("c", "csp", model, "", "")
    result = solve("search", model)
    assert plain.message_text(result) == result.message == \
        "no circuit: no arc leads out of node 4"


ZEBRA_5X5 = 'family = "tour"\nleaper = [2, 3]\nclosed = false\nboard = """\n' + \
    ".....\n" * 5 + '"""\n'
"""An open zebra's tour of 5x5: from the centre a (2, 3) leap leaves the board, so the
circuit's graph alone proves that there is none."""
OPEN_4X4 = 'family = "tour"\nclosed = false\nboard = """\n' + "....\n" * 4 + '"""\n'
"""No open knight's tour of 4x4 (a known fact): the whole search proves it."""


@pytest.mark.parametrize("text, proof", [(ZEBRA_5X5, "circuit graph"),
                                         (OPEN_4X4, "exhausted search")])
def test_a_count_of_no_tour_is_of_solutions_not_of_plans(cli, write_model, text, proof):
    """A tour is a csp: a count of none is "0 solutions" by search too, as by CP-SAT and
    MiniZinc; search's proof (the circuit's graph, or the exhausted search) made it say
    "0 optimal plans (no plan exists)", the words of a planning model's count."""
    path = write_model("none.toml", text)
    out = cli("count", path, "--engine", "search")
    assert out.code == 0, out.err
    assert "exact  0 solutions" in out.out and f"proof: {proof}" in out.out
    assert "plan" not in out.out
    data = json.loads(cli("count", path, "--engine", "search", "--list", "--json").out)
    assert (data["count"], data["solutions"], data["proof"]) == (0, [], proof)
    assert "plans" not in data and "metric" not in data
    compared = cli("compare", path, "--task", "count")
    assert compared.code == 0, compared.err
    assert compared.out.count("0 solutions") >= 2 and "plan" not in compared.out
