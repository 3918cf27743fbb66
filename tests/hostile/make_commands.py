"""Hostile command lines: the corpus's second half (issue 21).

Each case is one command line a new user might type, with the files it needs: pictures
(``show``/``analyze --svg``, over an input, to stdout, with names XML forbids), batches and
collections, ``compare`` on folders, Dask options, PDDL, ``generate``, ``analyze --limit``
and a model's ``[expected]`` table.  :func:`cases` lists them; ``make_corpus.py`` writes
each as ``tests/hostile/commands/NNN-what.json``; tests/cli/test_corpus_commands.py runs
them in a folder of their own and checks what a user is promised (see its docstring).

A case is a JSON object: ``argv`` (paths relative to the case's folder), ``files``
(name -> text, written there first), ``limit`` (the ``--time-limit`` it gives, or null),
``writes`` (the only files the command may create or change), ``checks`` (what else
to look at: ``code``, ``stderr_has``, ``json_key``, ``max_states``, ``xml`` (a file
that must be well-formed XML, ``-`` for stdout)).
"""

from __future__ import annotations

from pathlib import Path

MODELS = Path(__file__).resolve().parents[2] / "models"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

PICTURED = ["three_jugs", "latin4", "queens8", "eight_puzzle", "hoppers", "knight_4x4",
            "klotski", "hanoi4"]
"""One bundled model per family (and two planning ones more): the pictures' cases."""

PLANNING = ["three_jugs", "eight_puzzle", "hoppers", "hanoi4"]

DOMAIN = """(define (domain walk)
  (:requirements :strips)
  (:predicates (at ?x) (link ?x ?y))
  (:action move :parameters (?a ?b)
    :precondition (and (at ?a) (link ?a ?b))
    :effect (and (at ?b) (not (at ?a)))))
"""
PROBLEM = """(define (problem trip) (:domain walk)
  (:objects a b c)
  (:init (at a) (link a b) (link b c))
  (:goal (at c)))
"""

GRID4 = ('family = "grid"\nname = "s4"\nsize = 4\nsymbols = "1234"\n'
         'groups = ["rows", "columns", "boxes"]\nbox = [2, 2]\n')
LOOPS = "def build():\n    while True:\n        pass\n"


def scrambled(n: int, moves: int = 400) -> str:
    """An n x n sliding puzzle scrambled by ``moves`` random slides (a fixed seed): solvable,
    and far too hard for any engine within a second or two."""
    board = list(range(1, n * n)) + [0]
    blank, seed = n * n - 1, 12345
    for _ in range(moves):
        seed = (seed * 1103515245 + 12345) % 2 ** 31
        r, c = divmod(blank, n)
        steps = [(r + dr) * n + c + dc for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
                 if 0 <= r + dr < n and 0 <= c + dc < n]
        other = steps[(seed >> 16) % len(steps)]
        board[blank], board[other], blank = board[other], 0, other

    def picture(cells: list[int]) -> str:
        return "\n".join(" ".join(str(v) if v else "_" for v in cells[i * n:(i + 1) * n])
                         for i in range(n))

    goal = list(range(1, n * n)) + [0]
    return (f'family = "sliding"\nname = "scrambled {n}"\nstart = """\n{picture(board)}\n"""\n'
            f'goal = """\n{picture(goal)}\n"""\n')


def model(name: str) -> str:
    """A bundled model's text."""
    return (MODELS / f"{name}.toml").read_text(encoding="utf-8")


def case(what: str, argv: list[str], files: dict[str, str] | None = None,
         limit: float | None = 2.0, writes: list[str] | None = None, **checks) -> dict:
    """One case; ``--time-limit`` is added unless ``limit`` is None or argv has one."""
    argv = list(argv)
    if limit is not None and "--time-limit" not in argv:
        argv += ["--time-limit", f"{limit:g}"]
    return {"what": what, "argv": argv, "files": files or {}, "limit": limit,
            "writes": writes or [], "checks": checks}


def pictures() -> list[dict]:
    """``show`` and ``analyze --svg``: never over an input, ``-`` is stdout, well-formed."""
    out = []
    for name in PICTURED:
        text = model(name)
        files = {f"{name}.toml": text}
        escaped = text.replace('name = "', 'name = "\\u001b[31m\\u0007', 1)
        out += [
            case(f"show {name} over its input", ["show", f"{name}.toml", "--svg",
                                                  f"{name}.toml"], files, code=2),
            case(f"show {name} html over its input", ["show", f"{name}.toml", "--html",
                                                       f"./{name}.toml"], files, code=2),
            case(f"show {name} svg to stdout", ["show", f"{name}.toml", "--svg", "-"], files,
                 xml="-"),
            case(f"show {name} html to stdout", ["show", f"{name}.toml", "--html", "-"], files),
            case(f"show {name} svg file", ["show", f"{name}.toml", "--svg", "out.svg"], files,
                 writes=["out.svg"], xml="out.svg"),
            case(f"show {name} escape in name", ["show", "esc.toml", "--svg", "out.svg"],
                 {"esc.toml": escaped}, writes=["out.svg"], xml="out.svg"),
            case(f"show {name} escape in name html", ["show", "esc.toml", "--html", "out.html"],
                 {"esc.toml": escaped}, writes=["out.html"]),
        ]
    for name in PLANNING:
        files = {f"{name}.toml": model(name)}
        out += [
            case(f"analyze {name} svg over input", ["analyze", f"{name}.toml", "--svg",
                                                     f"{name}.toml"], files, code=2),
            case(f"analyze {name} svg stdout json", ["analyze", f"{name}.toml", "--svg", "-",
                                                      "--json"], files, code=2),
            case(f"analyze {name} svg", ["analyze", f"{name}.toml", "--limit", "500", "--svg",
                                         "a.svg"], files, writes=["a.svg"], xml="a.svg"),
        ]
    return out


def limits() -> list[dict]:
    """``analyze --limit N``: never more than N states."""
    out = []
    for name in ["eight_puzzle", "fifteen_puzzle", "english33", "hanoi4", "three_jugs",
                 "klotski", "hoppers", "triangle15"]:
        for n in (1, 7, 1000, 60000):
            out.append(case(f"analyze {name} limit {n}",
                            ["analyze", f"{name}.toml", "--limit", str(n), "--json"],
                            {f"{name}.toml": model(name)}, limit=3.0, max_states=n))
    return out


ADDRESSES = ["not an address", "tcp://[::1", "http://127.0.0.1:8786", "tcp://127.0.0.1:99999",
             "", "tcp://", "://x", "tcp://127.0.0.1:1", "tcp://[::1]:1", "a b:1",
             "tcp://host:0"]


def dask() -> list[dict]:
    """Dask command lines: bad or silent scheduler addresses, too many workers or jobs."""
    out = []
    files = {"a.toml": model("three_jugs"), "b.toml": model("latin4"),
             "p.toml": model("eight_puzzle")}
    for i, address in enumerate(ADDRESSES):
        for argv in (["solve", "a.toml", "b.toml", "--json"], ["compare", "a.toml"],
                     ["analyze", "p.toml", "--json"]):
            out.append(case(f"scheduler {i} {argv[0]}", [*argv, "--scheduler", address],
                            files, code_in=[1, 2]))
    for flag, value in [("--jobs", "100000"), ("--jobs", "0"), ("--jobs", "-1"),
                        ("--jobs", "many"), ("--workers", "100000"), ("--workers", "0"),
                        ("--workers", "1e9"), ("--jobs", "99999999999999999999")]:
        out.append(case(f"solve {flag} {value}", ["solve", "a.toml", "b.toml", flag, value,
                                                   "--json"], files, code=2))
    out.append(case("analyze workers huge", ["analyze", "p.toml", "--workers", "100000"],
                    files, code=2))
    return out


def dask_local() -> list[dict]:
    """A local cluster: answers the question plain ``analyze`` answers; nothing on stderr
    about ports or leaked semaphores."""
    files = {"p.toml": model("eight_puzzle"), "a.toml": model("three_jugs"),
             "b.toml": model("latin4")}
    return [
        case("cluster analyze same direction", ["analyze", "p.toml", "--workers", "2",
                                                "--json"], files, limit=40.0, code=0,
             json_equals={"direction": "goal", "states": 181440, "max_distance": 31},
             quiet=True),
        case("cluster solve batch quiet", ["solve", "a.toml", "b.toml", "--workers", "2",
                                           "--json"], files, limit=40.0, code=0, quiet=True),
    ]


def batches() -> list[dict]:
    """Folders and collections: a bad file or line is its own row; files outside refused."""
    lines = "1...............\n12x.............\n...4............\n"
    out = [
        case("collection bad line", ["solve", "c.toml", "--json"],
             {"c.toml": GRID4 + 'instances_file = "l.txt"\n', "l.txt": lines},
             json_lines=4),
        case("collection inline bad line", ["solve", "c.toml"],
             {"c.toml": GRID4 + 'instances = """\n' + lines + '"""\n'}),
        case("collection all bad", ["solve", "c.toml"],
             {"c.toml": GRID4 + 'instances = """\nxx\nyy\n"""\n'}, code=2),
        case("collection one bad line", ["solve", "c.toml"],
             {"c.toml": GRID4 + 'instances = """\n1x\n"""\n'}, code=2),
        case("compare collection bad line", ["compare", "c.toml", "--json"],
             {"c.toml": GRID4 + 'instances = """\n' + lines + '"""\n'}),
        case("folder with a loading loop", ["solve", "d", "--json"],
             {"d/a.toml": model("three_jugs"), "d/b.py": LOOPS, "d/c.toml": model("latin4")},
             limit=2.0),
        case("compare folder with a loading loop", ["compare", "d", "--json"],
             {"d/a.toml": model("three_jugs"), "d/b.py": LOOPS}, limit=2.0),
        case("folder with a raising build", ["solve", "d"],
             {"d/a.toml": model("three_jugs"), "d/b.py": "def build():\n    raise ValueError\n"}),
        case("folder of bad files", ["solve", "d", "--json"],
             {"d/a.toml": "family = 3\n", "d/b.toml": ""}),
        case("empty folder", ["solve", "d"], {"d/readme.txt": "nothing"}, code=2),
        case("compare folder", ["compare", "d", "--json"],
             {"d/a.toml": model("three_jugs"), "d/b.toml": model("latin4"),
              "d/c.toml": "family = 3\n"}),
        case("compare empty folder", ["compare", "d"], {"d/x.txt": ""}, code=2),
        case("compare nothing answers", ["compare", "f.toml"], {"f.toml": scrambled(5)},
             limit=1.5, code=1),
        case("compare nothing answers json", ["compare", "f.toml", "--json"],
             {"f.toml": scrambled(6)}, limit=1.5, code=1),
        case("compare one bad file", ["compare", "bad.toml"], {"bad.toml": "family = 3\n"},
             code=2),
    ]
    for i, where in enumerate(["../secret.txt", "/etc/passwd", "sub/../../secret.txt",
                               "../../../../../../etc/passwd", "~/.bashrc", "/dev/zero",
                               "/proc/self/environ", "sub"]):
        out.append(case(f"instances_file outside {i}", ["solve", "c.toml"],
                        {"c.toml": GRID4 + f'instances_file = "{where}"\n',
                         "sub/x.txt": "1..............."}, code=2))
    return out


def pddl() -> list[dict]:
    """PDDL in: undeclared predicates and objects, mismatched or odd files."""
    files = {"d.pddl": DOMAIN, "p.pddl": PROBLEM}
    out = [case("pddl good", ["solve", "d.pddl", "p.pddl", "--json"], files, code=0)]
    for what, old, new in [("undeclared predicate", "(at a)", "(at a) (near a b)"),
                           ("wrong arity", "(link b c)", "(link b c a)"),
                           ("unknown object", "(link b c)", "(link b z)"),
                           ("goal undeclared", "(:goal (at c))", "(:goal (far c))"),
                           ("other domain", "(:domain walk)", "(:domain run)"),
                           ("no objects", "(:objects a b c)", ""),
                           ("empty init", "(:init (at a) (link a b) (link b c))", "(:init)"),
                           ("many objects", "(:objects a b c)", "(:objects a b c "
                            + " ".join(f"o{i}" for i in range(400)) + ")")]:
        out.append(case(f"pddl {what}", ["solve", "d.pddl", "bad.pddl", "--json"],
                        {**files, "bad.pddl": PROBLEM.replace(old, new)}))
    out += [
        case("pddl empty problem", ["solve", "d.pddl", "e.pddl"], {**files, "e.pddl": ""},
             code=2),
        case("pddl binary", ["solve", "d.pddl", "e.pddl"], {**files, "e.pddl": "\x00\x01"},
             code=2),
        case("pddl domain alone", ["solve", "d.pddl"], files, code=2),
        case("pddl swapped", ["solve", "p.pddl", "d.pddl"], files, code=2),
        case("pddl mixed", ["solve", "d.pddl", "x.toml"], {**files, "x.toml": model("latin4")},
             code=2),
        case("pddl two problems", ["solve", "d.pddl", "p.pddl", "p.pddl", "--json"], files),
        case("pddl compare", ["compare", "d.pddl", "p.pddl", "--json"], files),
        case("pddl missing", ["solve", "d.pddl", "nowhere.pddl"], files, code=2),
    ]
    return out


def other() -> list[dict]:
    """``generate``, ``[expected]``, and odd limits."""
    jugs = model("three_jugs")
    wrong = jugs.replace("steps = 7", "steps = 99")
    out = [
        case("generate knight givens 2", ["generate", "k.toml", "--givens", "2"],
             {"k.toml": model("knight_problem_a")}, limit=5.0),
        case("generate queens givens 2", ["generate", "q.toml", "--givens", "2", "--json"],
             {"q.toml": (EXAMPLES / "queens.toml").read_text()}, limit=5.0),
        case("generate latin givens 0", ["generate", "l.toml", "--givens", "0"],
             {"l.toml": model("latin4")}),
        case("generate latin givens 100", ["generate", "l.toml", "--givens", "100"],
             {"l.toml": model("latin4")}),
        case("generate planning", ["generate", "j.toml", "--givens", "1"], {"j.toml": jugs},
             code=2),
        case("expected mismatch", ["solve", "j.toml"], {"j.toml": wrong}, code=0,
             stderr_has="[expected] says steps = 99"),
        case("expected mismatch json", ["solve", "j.toml", "--json"], {"j.toml": wrong},
             code=0, json_key="expected_mismatch"),
        case("expected count mismatch", ["count", "l.toml", "--json"],
             {"l.toml": model("latin4").replace("count = 576", "count = 5")}, code=0,
             json_key="expected_mismatch"),
        case("expected infeasible mismatch", ["solve", "j.toml"],
             {"j.toml": jugs.replace('solve = "optimal"', 'solve = "infeasible"')}, code=0,
             stderr_has="[expected] says solve"),
    ]
    lang = ('family = "transition"\nname = "many forbids"\ngoal = "x[0] == 50000"\nforbid = ['
            + ", ".join(f'"x[0] == {k + 1} and x[1] == {k % 3}"' for k in range(0, 60000, 3))
            + ']\n[variables]\nx = { size = 3, domain = [0, 100000] }\n[initial]\nx = 0\n'
            '[[actions]]\nname = "step {i}"\nparams = { i = [0, 1, 2] }\n'
            '[actions.effects]\n"x[i]" = "x[i] + 1"\n')
    for engine in ("auto", "search", "cpsat"):
        out.append(case(f"twenty thousand forbids {engine}", ["solve", "f.toml", "--json",
                                                              "--engine", engine],
                        {"f.toml": lang}, limit=3.0))
    for n, box in ((6, "[2, 3]"), (9, "[3, 3]")):
        empty = "\n".join([" ".join(["."] * n)] * n)
        grid = (f'family = "grid"\nname = "empty {n}"\nsize = {n}\n'
                f'symbols = "{"123456789"[:n]}"\ngroups = ["rows", "columns", "boxes"]\n'
                f'box = {box}\ngivens = """\n{empty}\n"""\n')
        for up in ("symmetry", "relabel"):
            for engine in ("cpsat", "search"):
                out.append(case(f"count up to {up} {n} {engine}",
                                ["count", "g.toml", "--up-to", up, "--engine", engine, "--json"],
                                {"g.toml": grid}, limit=3.0))
    for value in ["0", "-1", "nan", "inf", "1e400", "abc", "0.0001"]:
        out.append(case(f"time limit {value}", ["solve", "j.toml", "--json", "--time-limit",
                                                 value], {"j.toml": jugs}, limit=None))
    for value in ["1", "0", "-5", "1K", "nonsense", "1000T"]:
        out.append(case(f"memory limit {value}", ["solve", "j.toml", "--memory-limit", value,
                                                   "--json"], {"j.toml": jugs}))
    return out


def over_inputs() -> list[dict]:
    """Outputs never written over an input (by any name), nor onto stdout under --json:
    ``--plan-file``, ``show --svg`` on a collection's ``instances_file``, ``export``'s files."""
    jugs = {"j.toml": model("three_jugs"), "sub/keep.txt": ""}
    pddl_files = {"d.pddl": DOMAIN, "p.pddl": PROBLEM}
    collection = {"c.toml": GRID4 + 'instances_file = "l.txt"\n',
                  "l.txt": "1...............\n...4............\n"}
    out = [case(f"plan file over its input {' '.join(extra) or 'auto'}",
                ["solve", "j.toml", "--plan-file", where, *extra], jugs, code=2)
           for where, extra in [("j.toml", []), ("./j.toml", ["--json"]),
                                ("sub/../j.toml", ["--engine", "cpsat"]),
                                ("j.toml", ["--engine", "search", "--json"])]]
    out += [
        case("plan file over the pddl problem", ["solve", "d.pddl", "p.pddl", "--plan-file",
                                                 "p.pddl"], pddl_files, code=2),
        case("plan file to stdout json", ["solve", "j.toml", "--plan-file", "-", "--json"],
             jugs, code=2, stderr_has="--json holds"),
        case("plan file to dev stdout json", ["solve", "j.toml", "--plan-file", "/dev/stdout",
                                              "--json"], jugs, code=2),
        case("plan file to stdout", ["solve", "j.toml", "--plan-file", "-"], jugs, code=0),
        case("plan file", ["solve", "j.toml", "--plan-file", "plan.txt"], jugs,
             writes=["plan.txt"], code=0),
        case("show over the instances file", ["show", "c.toml", "--svg", "l.txt"],
             collection, code=2),
        case("export pddl over its domain", ["export", "d-domain.pddl", "d.pddl", "--to",
                                             "pddl", "-o", "."],
             {"d-domain.pddl": DOMAIN, "d.pddl": PROBLEM}, limit=None, code=2),
        case("export pddl", ["export", "d.pddl", "p.pddl", "--to", "pddl", "-o", "out"],
             pddl_files, limit=None, writes=["out/p-domain.pddl", "out/p-problem.pddl"],
             code=0),
    ]
    for name in ("y.dzn", "x.mzn"):
        out.append(case(f"export minizinc over its input {name}",
                        ["export", name, "--to", "minizinc", "-o", "."],
                        {name: model("xsudoku5")}, limit=None, code=2))
    return out


LONG = "a" * 300
"""A name longer than any file system takes (255 bytes a name)."""


def path_names() -> list[dict]:
    """Empty and too long file names: one line, exit 2 (an empty name is never the current
    folder, whose Python files a batch would run)."""
    files = {"j.toml": model("three_jugs"), "ran.py": "open('ran', 'w').write('ran')\n",
             "p/keep.txt": ""}
    deep = "/".join(["b" * 200] * 21)  # every name allowed, the whole path too long
    lines = [["solve", ""], ["solve", "", "--json"], ["compare", ""], ["count", ""],
             ["analyze", ""], ["show", "", "--svg", "o.svg"], ["generate", "", "--givens", "1"],
             ["validate", "", "j.toml"], ["validate", "j.toml", ""],
             ["solve", "j.toml", "--plan-file", ""], ["show", "j.toml", "--svg", ""],
             ["analyze", "j.toml", "--work-dir", ""], ["count", "d.pddl", ""],
             ["solve", LONG], ["count", LONG], ["compare", LONG, "--json"],
             ["validate", "j.toml", LONG], ["show", "j.toml", "--svg", LONG],
             ["solve", "j.toml", "--plan-file", "p/" + LONG],
             ["analyze", "j.toml", "--work-dir", LONG], ["solve", deep]]

    def what(argv: list[str]) -> str:
        return "name " + " ".join("empty" if not a else "deep" if a == deep else
                                  "long" if LONG in a else a for a in argv)

    def said(argv: list[str]) -> str:
        return "an empty file name" if "" in argv else "file name too long"

    out = [case(what(argv), argv, files, code=2, stderr_has=said(argv)) for argv in lines]
    out += [case(what(argv), argv, files, limit=None, code=2, stderr_has=said(argv))
            for argv in [["export", "", "--to", "pddl"],
                         ["export", "j.toml", "--to", "pddl", "-o", ""],
                         ["export", "j.toml", "--to", "pddl", "-o", "p/" + LONG]]]
    return out


def wording() -> list[dict]:
    """An answer file is called an answer file; UTF-16 is named as such."""
    jugs = model("three_jugs")
    wide = "\udcff\udcfe" + "".join(c + "\x00" for c in jugs)  # UTF-16 (LE, with its mark)
    return [
        case("validate answer is a folder", ["validate", "j.toml", "v"],
             {"j.toml": jugs, "v/x.txt": ""}, code=2, stderr_has="not an answer file"),
        case("solve utf-16", ["solve", "w.toml"], {"w.toml": wide}, code=2,
             stderr_has="UTF-16"),
        case("validate utf-16 answer", ["validate", "j.toml", "w.txt"],
             {"j.toml": jugs, "w.txt": wide}, code=2, stderr_has="UTF-16"),
    ]


def cases() -> list[dict]:
    """Every command-line case, in a fixed order."""
    return (pictures() + limits() + dask() + dask_local() + batches() + pddl() + other()
            + path_names() + over_inputs() + wording())
