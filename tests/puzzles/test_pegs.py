"""Peg solitaire: known answers, counts of optimal plans, and a brute force on small boards.

Known answers come from the seed article (Hoppers: 7 moves, 18 seven-move
solutions once the first jump is fixed to one corner, so 4 x 18 = 72 in all)
and from reasoning (every jump removes a peg: 11 jumps on Hoppers, 31 on the
English board).  On small boards the expected figures are computed here by a
naive enumeration of every jump sequence that shares no code with cpsolve.
"""

from __future__ import annotations

import heapq
import json
import random
import re
from pathlib import Path

import pytest

from cpsolve.answers.check.plans import replay
from cpsolve.answers.result import Status, Unsupported
from cpsolve.engines import Options, run
from cpsolve.language.interpret import evaluate
from cpsolve.model import Planning
from cpsolve.model.facts import any_plan_is_optimal, fixed_length
from cpsolve.model.moves import goal_symmetries
from cpsolve.puzzles.files import load

ROOT = Path(__file__).resolve().parents[2]
HOPPERS = ROOT / "models" / "hoppers.toml"
ENGLISH = ROOT / "models" / "english33.toml"
ENGINES = ("search", "cpsat")


def write(tmp_path: Path, text: str, name: str = "variant.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def hoppers_by_jumps(tmp_path: Path) -> Path:
    text = HOPPERS.read_text(encoding="utf-8")
    assert 'metric = "moves"' in text
    return write(tmp_path, text.replace('metric = "moves"', 'metric = "jumps"'))


def after(model: Planning, action: str) -> Planning:
    """The same model, starting after ``action`` (applied by the reference evaluator)."""
    act = next(a for a in model.actions if a.name == action)
    env = dict(model.initial)
    assert evaluate(act.guard, env)
    new = dict(env)
    for var, value in act.effects:
        new[var] = evaluate(value, env)
    model.set_initial(new)
    return model


# ---------------------------------------------------------------- Hoppers


@pytest.mark.parametrize("engine", ENGINES)
def test_hoppers_takes_eleven_jumps(tmp_path, engine):
    puzzle = load(hoppers_by_jumps(tmp_path))
    result = run(engine, "solve", puzzle.model, Options(time_limit=60))
    assert result.status is Status.OPTIMAL and result.verified
    assert result.steps == 11 and result.cost == 11


@pytest.mark.parametrize("engine", ENGINES)
def test_hoppers_takes_seven_moves(engine):
    puzzle = load(HOPPERS)
    result = run(engine, "solve", puzzle.model, Options(time_limit=60))
    assert result.status is Status.OPTIMAL and result.verified
    assert result.cost == 7 and result.steps == 11
    assert puzzle.count_moves(result.plan) == 7


@pytest.mark.parametrize("engine", ENGINES)
def test_hoppers_has_72_optimal_plans(engine):
    puzzle = load(HOPPERS)
    result = run(engine, "count", puzzle.model, Options(keep=True, time_limit=120))
    assert result.status is Status.EXACT and result.verified  # all 72 listed and replayed
    assert result.count == 72 and result.cost == 7
    assert len(result.plans) == 72
    assert all(puzzle.count_moves(plan) == 7 for plan in result.plans)


def test_both_engines_list_the_same_optimal_plans():
    model = load(HOPPERS).model
    listed = [{tuple(s.action for s in p) for p in run(e, "count", model, Options(keep=True)).plans}
              for e in ENGINES]
    assert listed[0] == listed[1]


def test_eighteen_optimal_plans_start_with_each_corner_jump():
    """The seed's symmetry argument: the first jump is one of four symmetric corner jumps."""
    puzzle = load(HOPPERS)
    plans = run("search", "count", puzzle.model, Options(keep=True)).plans
    firsts: dict[str, int] = {}
    for plan in plans:
        firsts[plan[0].action] = firsts.get(plan[0].action, 0) + 1
    assert firsts == {"r1c1-r3c3": 18, "r1c5-r3c3": 18, "r5c1-r3c3": 18, "r5c5-r3c3": 18}


@pytest.mark.parametrize("engine", ENGINES)
def test_eighteen_seven_move_solutions_after_a_fixed_corner_jump(engine):
    """Start after the corner jump (with its landing hole remembered): 6 moves, 18 plans."""
    model = after(load(HOPPERS).model, "r1c1-r3c3")
    result = run(engine, "count", model, Options(time_limit=60))
    assert result.status is Status.EXACT and result.verified is False  # a bare count
    assert (result.count, result.cost) == (18, 6)


def test_hoppers_by_jumps_count_matches_the_seed_program(tmp_path):
    """Every 11-jump solution, counted by a plain recursion over the seed's jump table."""
    table = [[(1, 2), (3, 6), (5, 10)], [(3, 5), (6, 11), (4, 7)], [(1, 0), (4, 6), (7, 12)],
             [(6, 9)], [(6, 8)], [(3, 1), (6, 7), (8, 11)], [(3, 0), (4, 2), (8, 10), (9, 12)],
             [(4, 1), (6, 5), (9, 11)], [(6, 4)], [(6, 3)], [(5, 0), (8, 6), (11, 12)],
             [(8, 5), (6, 1), (9, 7)], [(11, 10), (9, 6), (7, 2)]]
    board = [True] * 13
    board[6] = False

    def solutions(depth: int) -> int:
        if depth == 11:
            return int(board[6])
        total = 0
        for a in range(13):
            for b, c in table[a]:
                if board[a] and board[b] and not board[c]:
                    board[a] = board[b] = False
                    board[c] = True
                    total += solutions(depth + 1)
                    board[a] = board[b] = True
                    board[c] = False
        return total

    expected = solutions(0)
    result = run("search", "count", load(hoppers_by_jumps(tmp_path)).model, Options())
    assert result.count == expected and result.cost == 11


# ---------------------------------------------------------------- English 33-hole


def test_english_board_facts():
    model = load(ENGLISH).model
    assert fixed_length(model) == 31 and any_plan_is_optimal(model)
    assert len(goal_symmetries(model)) == 7  # every square symmetry keeps the centre goal


def test_english_search_finds_31_jumps():
    """How fast (about 0.03 s, whatever the jump order): benchmarks/pegs.py."""
    result = run("search", "solve", load(ENGLISH).model)
    assert result.status is Status.OPTIMAL and result.verified and result.steps == 31


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_english_search_does_not_depend_on_the_jump_order(seed):
    baseline = run("search", "solve", load(ENGLISH).model)
    model = load(ENGLISH).model
    random.Random(seed).shuffle(model.actions)
    result = run("search", "solve", model)
    assert result.status is Status.OPTIMAL and result.steps == 31
    assert result.explored == baseline.explored  # the same search, whatever the order


@pytest.mark.parametrize("algorithm", ["memo_dfs", "widening"])
def test_search_algorithms_for_any_plan_are_order_independent(tmp_path, algorithm):
    model = load(hoppers_by_jumps(tmp_path)).model
    first = run("search", "solve", model, Options(algorithm=algorithm))
    random.Random(7).shuffle(model.actions)
    second = run("search", "solve", model, Options(algorithm=algorithm))
    assert first.status is second.status is Status.OPTIMAL
    assert first.explored == second.explored and first.steps == 11


def test_english_cpsat_finds_31_jumps():
    result = run("cpsat", "solve", load(ENGLISH).model, Options(time_limit=60))
    assert result.status is Status.OPTIMAL and result.verified and result.steps == 31


def test_a_symmetry_that_moves_the_goal_is_not_used(tmp_path):
    text = ENGLISH.read_text(encoding="utf-8").replace("goal_peg = [3, 3]", "goal_peg = [2, 3]")
    model = load(write(tmp_path, text)).model
    assert len(model.symmetries) == 7
    assert len(goal_symmetries(model)) == 1  # only the left-right mirror keeps (2, 3) in place


# ---------------------------------------------------------------- small boards, brute force


def brute_force(picture: str, vectors: list[tuple[int, int]], goal: tuple[int, int],
                ) -> list[tuple[tuple[tuple[int, int], tuple[int, int]], ...]]:
    """Every jump sequence from the picture to one peg at ``goal``, by plain recursion."""
    rows = picture.strip("\n").split("\n")
    pegs = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "o"}
    cells = pegs | {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."}
    jumps = sorted({((r, c), (r + s * dr, c + s * dc), (r + 2 * s * dr, c + 2 * s * dc))
                    for r, c in cells for dr, dc in vectors for s in (1, -1)
                    if (r + s * dr, c + s * dc) in cells and (r + 2 * s * dr, c + 2 * s * dc)
                    in cells})
    found = []

    def go(board: frozenset, sequence: list) -> None:
        if board == {goal}:
            found.append(tuple(sequence))
        for a, b, c in jumps:
            if a in board and b in board and c not in board:
                go((board - {a, b}) | {c}, [*sequence, (a, c)])

    go(frozenset(pegs), [])
    return found


def chain_moves(sequence) -> int:
    return sum(1 for i, (a, _) in enumerate(sequence) if i == 0 or sequence[i - 1][1] != a)


SMALL = ".ooo\noooo\noooo"
SMALL_CASES = [
    ([(0, 1), (1, 0)], (0, 0)),
    ([(0, 1), (1, 0), (1, 1)], (2, 1)),
    ([(0, 1), (1, 0)], (1, 1)),  # no solution
]


def small_board(tmp_path: Path, vectors, goal, metric: str) -> Path:
    board = "\n".join(f"{row}" for row in SMALL.split("\n"))
    return write(tmp_path, f'family = "pegs"\nmetric = "{metric}"\njumps = {json.dumps(vectors)}\n'
                 f'goal_peg = {json.dumps(list(goal))}\nboard = """\n{board}\n"""\n',
                 f"small_{metric}.toml")


@pytest.mark.parametrize("vectors,goal", SMALL_CASES)
@pytest.mark.parametrize("engine", ENGINES)
def test_small_board_agrees_with_brute_force(tmp_path, vectors, goal, engine):
    sequences = brute_force(SMALL, [tuple(v) for v in vectors], goal)
    jumps_model = load(small_board(tmp_path, vectors, goal, "jumps")).model
    moves_model = load(small_board(tmp_path, vectors, goal, "moves")).model
    solved = run(engine, "solve", moves_model, Options(time_limit=60))
    by_jumps = run(engine, "count", jumps_model, Options(time_limit=60))
    by_moves = run(engine, "count", moves_model, Options(time_limit=60))
    if not sequences:
        assert solved.status is Status.INFEASIBLE
        assert by_jumps.count == by_moves.count == 0
        return
    fewest = min(chain_moves(s) for s in sequences)
    assert solved.status is Status.OPTIMAL and solved.cost == fewest
    assert (by_jumps.count, by_jumps.cost) == (len(sequences), len(sequences[0]))
    assert (by_moves.count, by_moves.cost) == (
        sum(1 for s in sequences if chain_moves(s) == fewest), fewest)


# ---------------------------------------------------------------- checking and output


def test_checker_rejects_illegal_jumps():
    model = load(HOPPERS).model
    into_a_peg = replay(model, ["r1c1-r1c5"])  # r1c5 is not empty
    assert not into_a_peg and into_a_peg.step == 1
    twice = replay(model, ["r1c1-r3c3", "r1c1-r3c3"])  # no peg left at r1c1
    assert not twice and twice.step == 2
    assert not replay(model, ["r1c1-r3c3"])  # legal, but not at the goal


def test_each_action_says_which_holes_it_jumps_from_over_and_into():
    """The family keeps each jump as three holes (never read back from the action's name):
    the action empties the first two and fills the third, two holes apart on a line."""
    puzzle = load(HOPPERS)
    index = {cell: i for i, cell in enumerate(puzzle.cells)}
    assert set(puzzle.actions) == {a.name for a in puzzle.model.actions}
    for action in puzzle.model.actions:
        jump = puzzle.actions[action.name]
        assert [(r + e) / 2 for r, e in zip(jump.start, jump.end)] == list(jump.over)
        writes = {name: evaluate(value, {}) for name, value in action.effects
                  if name != "last"}  # the moves metric also notes where the peg landed
        assert writes == {f"hole[{index[jump.start]}]": 0, f"hole[{index[jump.over]}]": 0,
                          f"hole[{index[jump.end]}]": 1}


def test_json_plan_groups_chains(cli):
    out = cli("solve", str(HOPPERS), "--engine", "search", "--json")
    assert out.code == 0
    data = json.loads(out.out)
    actions = [step["action"] for step in data["plan"]]
    chains = data["chains"]
    assert data["steps"] == len(actions) == 11
    assert data["moves"] == len(chains) == data["cost"] == 7
    assert [f"{c[i]}-{c[i + 1]}" for c in chains for i in range(len(c) - 1)] == actions
    for before, chain in zip(chains, chains[1:]):
        assert chain[0] != before[-1]  # a chain is maximal: the next move is another peg


def test_cli_counts_optimal_plans(cli):
    out = cli("count", "--optimal", str(HOPPERS), "--engine", "search", "--list", "--json")
    assert out.code == 0
    data = json.loads(out.out)
    assert data["count"] == 72 and data["cost"] == 7 and len(data["plans"]) == 72
    assert all(p["moves"] == 7 and p["steps"] == 11 for p in data["plans"])
    text = cli("count", "--optimal", str(HOPPERS), "--engine", "search", "--list").out
    assert "72 optimal plans (cost 7)" in text and "r1c1-r3c3" in text


def test_cli_count_needs_optimal_for_planning_models(cli):
    assert cli("count", str(HOPPERS)).code == 2
    assert cli("count", "--optimal", str(ROOT / "models" / "xsudoku5.toml")).code == 2


# ---------------------------------------------------------------- counting, generically


def cycle_model() -> Planning:
    """x: 0 -> 1 -> 0 at no cost, 1 -> 2 at cost 1: infinitely many optimal plans."""
    m = Planning("cycle")
    x = m.add_variable("x", 0, 2)
    m.set_initial({"x": 0})
    m.set_goal(x == 2)
    m.add_action("up", x == 0, {x: 1}, 0)
    m.add_action("down", x == 1, {x: 0}, 0)
    m.add_action("finish", x == 1, {x: 2}, 1)
    return m


@pytest.mark.parametrize("engine", ENGINES)
def test_counting_refuses_zero_cost_cycles(engine):
    with pytest.raises(Unsupported):
        run(engine, "count", cycle_model(), Options(time_limit=30))


@pytest.mark.parametrize("engine", ENGINES)
def test_two_actions_to_the_same_state_are_two_plans(engine):
    m = Planning("twins")
    x = m.add_variable("x", 0, 2)
    m.set_initial({"x": 0})
    m.set_goal(x == 2)
    m.add_action("a", x == 0, {x: 1})
    m.add_action("b", x == 0, {x: 1})
    m.add_action("c", x == 1, {x: 2})
    m.add_action("slow", x == 0, {x: 2}, 3)
    result = run(engine, "count", m, Options(keep=True, time_limit=30))
    assert (result.count, result.cost) == (2, 2)
    assert {tuple(s.action for s in p) for p in result.plans} == {("a", "c"), ("b", "c")}


def climb(goal_at_least: bool) -> Planning:
    """x climbs 0..3 by steps of cost 1; a few shortcuts make plans of different lengths."""
    m = Planning("climb")
    x = m.add_variable("x", 0, 3)
    m.set_initial({"x": 0})
    m.add_action("step", x < 3, {x: x + 1})
    if goal_at_least:  # reaching 2 is enough; gliding on to 3 is free
        m.set_goal(x >= 2)
        m.add_action("glide", x == 2, {x: 3}, 0)
    else:
        m.set_goal(x == 3)
        m.add_action("skip", x == 0, {x: 1})
        m.add_action("free", x == 1, {x: 2}, 0)
        m.add_action("leap", x == 1, {x: 3})
        m.add_action("jump", x == 0, {x: 2}, 2)
    return m


@pytest.mark.parametrize("engine", ENGINES)
def test_optimal_plans_of_different_lengths_are_each_counted_once(engine):
    # cost 2: step|skip, then free, step (3 steps) or leap (2 steps)
    result = run(engine, "count", climb(False), Options(keep=True, time_limit=30))
    assert (result.count, result.cost) == (4, 2)
    assert {tuple(s.action for s in p) for p in result.plans} == {
        ("step", "free", "step"), ("skip", "free", "step"), ("step", "leap"), ("skip", "leap")}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_plan_may_go_on_from_a_goal_at_no_cost(engine):
    result = run(engine, "count", climb(True), Options(keep=True, time_limit=30))
    assert (result.count, result.cost) == (2, 2)
    assert {tuple(s.action for s in p) for p in result.plans} == {
        ("step", "step"), ("step", "step", "glide")}


def test_hoppers_by_moves_has_a_fixed_length_but_varying_costs():
    model = load(HOPPERS).model
    assert fixed_length(model) == 11 and not any_plan_is_optimal(model)


# ---------------------------------------------------------------- goals by count: pegs_left


TRIANGLE = ROOT / "models" / "triangle15.toml"
ROW4 = ROOT / "examples" / "triangle_row4.toml"


def triangle_fewest_moves(vacancy: tuple[int, int], finish=None) -> int | None:
    """Fewest moves (chains of jumps by one peg) to one peg on the 15-hole triangle.

    Written in skew coordinates (row r, 0 <= k <= r, neighbours along (0, 1),
    (1, 0), (1, 1)), not the picture's alternate columns; a Dijkstra over
    (pegs, hole the last jump landed in), a jump from that hole costing 0.
    ``finish``: the holes the last peg may stand in (any when None).
    """
    holes = [(r, k) for r in range(5) for k in range(r + 1)]
    lines = [(a, (a[0] + dr, a[1] + dk), (a[0] + 2 * dr, a[1] + 2 * dk)) for a in holes
             for dr, dk in ((0, 1), (1, 0), (1, 1), (0, -1), (-1, 0), (-1, -1))]
    lines = [t for t in lines if t[1] in holes and t[2] in holes]
    return fewest_chains(lines, frozenset(holes) - {vacancy},
                         lambda pegs: finish is None or next(iter(pegs)) in finish)


def fewest_chains(lines, pegs: frozenset, done) -> int | None:
    """Dijkstra over (pegs, hole the last jump landed in) along the jump ``lines`` ``(from,
    over, to)``, a jump from that hole costing 0: the fewest moves to one peg with
    ``done(pegs)``, or None."""
    start = (pegs, None)
    best = {start: 0}
    heap = [(0, 0, start)]
    tick = 0
    while heap:
        cost, _, (now, last) = heapq.heappop(heap)
        if cost > best[(now, last)]:
            continue
        if len(now) == 1 and done(now):
            return cost
        for a, b, c in lines:
            if a in now and b in now and c not in now:
                state = ((now - {a, b}) | {c}, c)
                new = cost + (a != last)
                if new < best.get(state, new + 1):
                    best[state] = new
                    tick += 1
                    heapq.heappush(heap, (new, tick, state))
    return None


@pytest.mark.slow
def test_triangle_brute_force_agrees_with_the_literature():
    # OEIS A127500 (Bell 2008): the 15-hole triangle's shortest solution from any single
    # vacancy to one peg takes 9 moves
    fewest = [triangle_fewest_moves((r, k)) for r in range(5) for k in range(r + 1)]
    assert min(m for m in fewest if m is not None) == 9


@pytest.mark.parametrize("engine", ["search", pytest.param("cpsat", marks=pytest.mark.slow)])
def test_triangle15_one_peg_anywhere(engine):
    puzzle = load(TRIANGLE)
    result = run(engine, "solve", puzzle.model, Options(time_limit=120))
    assert result.status is Status.OPTIMAL and result.verified
    assert len(result.plan) == 13  # 14 pegs to 1: every jump removes one
    assert result.cost == triangle_fewest_moves((0, 0)) == puzzle.expected["cost"]


def test_triangle_region_row_four():
    # the picture's row 4 (holes at columns 1, 3, 5, 7) is the skew row 3
    puzzle = load(ROW4)
    result = run("search", "solve", puzzle.model, Options())
    assert result.status is Status.OPTIMAL and result.verified
    row = {(3, k) for k in range(4)}
    assert result.cost == triangle_fewest_moves((0, 0), row) == puzzle.expected["cost"]
    assert result.cost > triangle_fewest_moves((0, 0))  # the region costs a move
    last = [c for c, v in zip(puzzle.cells, result.plan[-1].state) if v]
    assert len(last) == 1 and last[0][0] == 3


def test_pegs_left_by_jumps_keeps_the_symmetry(tmp_path):
    text = TRIANGLE.read_text(encoding="utf-8").replace('metric = "moves"', 'metric = "jumps"')
    puzzle = load(write(tmp_path, text))
    assert len(puzzle.model.symmetries) == 1  # the left-right mirror of the triangle
    assert goal_symmetries(puzzle.model)
    result = run("search", "solve", puzzle.model, Options())
    assert result.status is Status.OPTIMAL and result.steps == 13


@pytest.mark.parametrize("extra, key, fragment", [
    ("pegs_left = 0", "pegs_left", "between 1 and the start's 14 pegs"),
    ("pegs_left = 15", "pegs_left", "between 1 and the start's 14 pegs"),
    ('pegs_left = 1\ngoal_peg = [0, 4]', "goal", "exactly one of"),
    ("goal_peg = [0, 4]\nregion = [[0, 4]]", "region", "with pegs_left only"),
    ("pegs_left = 2\nregion = [[0, 4]]", "region", "its 1 hole cannot hold 2 pegs"),
    ("pegs_left = 1\nregion = [[0, 3]]", "region", "[0, 3] is not a hole"),
    ('pegs_left = "one"', "pegs_left", "expected int"),
])
def test_bad_count_goals_name_the_key(tmp_path, cli, extra, key, fragment):
    text = TRIANGLE.read_text(encoding="utf-8").split("[expected]")[0]
    text = text.replace("pegs_left = 1\n", extra + "\n")
    run_ = cli("solve", write(tmp_path, text))
    lines = run_.err.strip().splitlines()
    assert run_.code == 2 and len(lines) == 1, run_.err
    assert f": {key}: " in lines[0] and fragment in lines[0]


@pytest.mark.parametrize("index", [0, 1])
def test_doc_examples_are_complete_files_with_their_answers(tmp_path, index):
    text = (ROOT / "docs" / "families" / "pegs.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, re.S)
    assert len(blocks) == 2
    puzzle = load(write(tmp_path, blocks[index]))
    result = run("search", "solve", puzzle.model, Options(time_limit=20))
    want = puzzle.expected
    assert want["solve"] == result.status.value and result.verified
    assert (result.steps, result.cost) == (want["steps"], want["cost"])
    region = {(3, k) for k in range(4)} if "region" in blocks[index] else None
    assert result.cost == triangle_fewest_moves((0, 0), region)


def test_the_module_docstring_is_a_valid_file(tmp_path):
    import textwrap

    from cpsolve.puzzles import pegs as family

    puzzle = load(write(tmp_path, textwrap.dedent(family.__doc__.split("\n\n")[1])))
    result = run("search", "solve", puzzle.model, Options(time_limit=60))
    assert result.status is Status.OPTIMAL and result.steps == 31  # 32 pegs to 1


def test_a_jump_that_cannot_be_made_says_which_holes_stop_it():
    """Hoppers starts with every hole full but the centre r3c3: r1c3 cannot jump over the
    empty centre onto the full r5c3, and the guard says so in holes, not hole[i] == 1."""
    puzzle = load(HOPPERS)
    verdict = replay(puzzle.model, ["r1c3-r5c3"], puzzle.condition_text)
    assert verdict.message == ("step 1 (r1c3-r5c3) cannot be played: its guard needs a peg "
                               "in r3c3 and no peg in r5c3")


@pytest.mark.parametrize("left, status", [(2, Status.OPTIMAL), (1, Status.INFEASIBLE)])
def test_a_board_where_no_jump_fits_is_solved_or_infeasible(tmp_path, left, status):
    """On 'o . o' no jump fits: two pegs left is the start itself (0 jumps), one is
    unreachable — not a bad file."""
    path = write(tmp_path, f'family = "pegs"\npegs_left = {left}\nboard = """\no . o\n"""\n')
    for engine in ("search", "cpsat"):
        result = run(engine, "solve", load(path).model)
        assert result.status is status, engine
        assert status is Status.INFEASIBLE or result.steps == 0


def test_the_invariant_proof_names_each_hole_by_its_square():
    """The French board cannot go from the centre to the centre (a colouring mod 2): the
    proof names each weighted hole ``hole[i]`` as the peg in its square, ``r1c3`` for the
    hole at row 0, column 2 (counted from 0), never the model's variable."""
    puzzle = load(ROOT / "models" / "french37.toml")
    result = run("search", "solve", puzzle.model)
    assert result.status is Status.INFEASIBLE and result.invariant is not None
    said = puzzle.message_text(result)
    names = [name for name, _ in result.invariant.weights][:24]  # the terms written out
    squares = [puzzle.cells[int(name[5:-1])] for name in names]
    assert "hole[" not in said and said.startswith("no plan: the peg in ")
    assert said.split(" is preserved")[0].count("the peg in") == len(names)
    for r, c in squares:
        assert f"the peg in r{r + 1}c{c + 1}" in said


COUNTED = '''family = "pegs"
name = "Triangle 15"
jumps = [[0, 2], [1, 1], [1, -1]]
pegs_left = 1
board = """
    .
   o o
  o o o
 o o o o
o o o o o
"""
'''


def test_a_goal_by_count_is_said_as_the_file_gives_it(cli, tmp_path):
    """A plan that missed ``pegs_left = 1`` was told the goal ``hole[0] + hole[1] + ...
    + hole[14] == 1``: it is ``1 peg left``, and with a region the holes it lies in
    (``[3, 1]`` is row 4, column 2 counted from 1).  One jump, r3c3 over r2c4 into the
    empty apex r1c5, leaves 13 pegs: the goal is missed."""
    anywhere = write(tmp_path, COUNTED)
    assert load(anywhere).goal_text() == "1 peg left"
    region = write(tmp_path, COUNTED + "region = [[3, 3], [3, 1]]\n", "region.toml")
    assert load(region).goal_text() == "1 peg left in r4c2, r4c4 (every other hole empty)"
    plan = write(tmp_path, "r3c3-r1c5\n", "plan.txt")
    verdict = json.loads(cli("validate", anywhere, plan, "--json").out)
    assert not verdict["valid"] and verdict["message"].endswith("the goal is:\n1 peg left")
    assert load(ENGLISH).goal_text().count("o") == 1  # a goal peg: the board drawn
