"""Write the hostile-input corpus: model files that try to break cpsolve.

Run ``python tests/hostile/make_corpus.py`` to (re)write ``tests/hostile/corpus/``.
Each file is named ``NNN-family-what.toml`` (or ``.py``); tests/cli/test_corpus.py
runs every one through the CLI with each engine and asserts what a user is
promised: one line on stderr and exit 2 for a bad file, never a traceback,
and an answer or a clean stop within the time limit for a hard one.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
COMMANDS = HERE / "commands"
OLD_PYTHON = 10
"""The Python files of earlier rounds (their numbers stay)."""

# ---------------------------------------------------------------- templates

JUGS = '''family = "transition"
name = "jugs"
goal = "{goal}"
[constants]
cap = [8, 5]
[variables]
jug = {{ size = 2, domain = [0, 8] }}
[initial]
jug = [0, 0]
[[actions]]
name = "{name}"
params = {params}
guard = "{guard}"
effects = {effects}
cost = "{cost}"
'''
JUGS_DEFAULT = dict(goal="jug[0] == 4 or jug[1] == 4", name="fill {i}",
                    params="{ i = [0, 1] }", guard="jug[i] < cap[i]",
                    effects='{ "jug[i]" = "cap[i]" }', cost="1")

CSP = '''family = "csp"
name = "queens"
all_different = {alldiff}
constraints = {constraints}
[constants]
n = {n}
[variables]
q = {{ size = {size}, domain = {domain} }}
'''
CSP_DEFAULT = dict(alldiff='[["q"]]', n="4", size="4", domain="[0, 3]",
                   constraints='["all(abs(q[i] - q[j]) != j - i for i in range(n) '
                               'for j in range(i + 1, n))"]')

GRID = '''family = "grid"
name = "grid"
size = {size}
symbols = {symbols}
groups = {groups}
box = {box}
givens = """
{givens}
"""
'''
GRID_DEFAULT = dict(size="4", symbols='"1234"', groups='["rows", "columns", "boxes"]',
                    box="[2, 2]", givens="1 . . .\n. . . .\n. . . .\n. . . 4")

SLIDING = '''family = "sliding"
name = "slide"
blocks = {blocks}
start = """
{start}
"""
goal = """
{goal}
"""
{extra}
'''
SLIDING_DEFAULT = dict(blocks="[]", start="1 2 3\n4 5 6\n7 _ 8", goal="1 2 3\n4 5 6\n7 8 _",
                       extra="")

PEGS = '''family = "pegs"
name = "pegs"
jumps = {jumps}
metric = "{metric}"
{goal}
board = """
{board}
"""
'''
PEGS_DEFAULT = dict(jumps="[[0, 1], [1, 0]]", metric="jumps", goal="goal_peg = [0, 2]",
                    board="oo.")

TOUR = '''family = "tour"
name = "tour"
leaper = {leaper}
closed = {closed}
board = """
{board}
"""
'''
TOUR_DEFAULT = dict(leaper="[1, 2]", closed="true", board="\n".join([". . . . . ."] * 6))

TEMPLATES = {"transition": (JUGS, JUGS_DEFAULT), "csp": (CSP, CSP_DEFAULT),
             "grid": (GRID, GRID_DEFAULT), "sliding": (SLIDING, SLIDING_DEFAULT),
             "pegs": (PEGS, PEGS_DEFAULT), "tour": (TOUR, TOUR_DEFAULT)}

# pieces of any shape, partial goals and metrics (issue 10), a goal piece of another shape
# (issue 15); extra keys ride in the blocks slot
KLOTSKI_START = "v B B v\nv B B v\nv h h v\nv o o v\no _ _ o"
KLOTSKI_BLOCKS = '{ B = ["##", "##"], v = ["#", "#"], h = ["##"] }'
SLIDING_SHAPES = [
    ("goal reshaped 2x2", dict(blocks=KLOTSKI_BLOCKS, start=KLOTSKI_START,
                               goal="? ? ? ?\n? ? ? ?\n? ? ? ?\n? B B B\n? ? ? B")),
    ("goal piece unknown", dict(goal="1 2 3\n4 5 6\n7 ? X")),
    ("goal too many", dict(goal="1 1 ?\n? ? ?\n? ? ?")),
    ("goal all any", dict(goal="? ? ?\n? ? ?\n? ? ?")),
    ("any in start", dict(start="1 2 3\n4 5 6\n7 _ ?")),
    ("shape not cut", dict(blocks='{ L = ["#", "#"] }', start="L L _\n1 2 3",
                           goal="_ L L\n1 2 3")),
    ("shape empty", dict(blocks='{ L = [] }', start="L L _\n1 2 3", goal="_ L L\n1 2 3")),
    ("shape apart", dict(blocks='{ L = ["#.#"] }', start="L _ L\n1 2 3", goal="L _ L\n1 2 3")),
    ("shape bad char", dict(blocks='{ L = ["#x"] }', start="L L _\n1 2 3", goal="_ L L\n1 2 3")),
    ("shape int", dict(blocks="{ L = 2 }", start="L L _\n1 2 3", goal="_ L L\n1 2 3")),
    ("blocks nested", dict(blocks='[["L"]]', start="L L _\n1 2 3", goal="_ L L\n1 2 3")),
    ("shape huge", dict(blocks='{ L = ["%s"] }' % ("#" * 5000), start="L L _\n1 2 3",
                        goal="_ L L\n1 2 3")),
    ("metric unknown", dict(blocks='[]\nmetric = "hops"')),
    ("metric int", dict(blocks="[]\nmetric = 2")),
    ("metric line", dict(blocks='[]\nmetric = "line"')),
    ("metric path", dict(blocks='[]\nmetric = "path"')),
    ("goal pieces unknown", dict(blocks="[]\ngoal_pieces = { Z = [1, 1] }")),
    ("goal pieces outside", dict(blocks="[]\ngoal_pieces = { 1 = [9, 9] }")),
    ("goal pieces huge", dict(blocks="[]\ngoal_pieces = { 1 = [%d, 1] }" % 2 ** 70)),
    ("goal pieces string", dict(blocks='[]\ngoal_pieces = { 1 = "here" }')),
    ("goal pieces clash", dict(blocks="[]\ngoal_pieces = { 2 = [1, 1] }")),
    ("goal pieces two shapes", dict(blocks='["L"]\ngoal_pieces = { L = [1, 1] }',
                                    start="L L _\n1 2 L", goal="? ? ?\n? ? ?")),
    ("klotski step", dict(blocks=KLOTSKI_BLOCKS + '\nmetric = "step"', start=KLOTSKI_START,
                          goal="? ? ? ?\n? ? ? ?\n? ? ? ?\n? B B ?\n? B B ?")),
]
PEGS_LEFT = [
    ("pegs left zero", dict(goal="pegs_left = 0")), ("pegs left many", dict(goal="pegs_left = 9")),
    ("pegs left huge", dict(goal="pegs_left = %d" % 2 ** 70)),
    ("pegs left string", dict(goal='pegs_left = "one"')),
    ("pegs left and peg", dict(goal="pegs_left = 1\ngoal_peg = [0, 2]")),
    ("region alone", dict(goal="goal_peg = [0, 2]\nregion = [[0, 2]]")),
    ("region outside", dict(goal="pegs_left = 1\nregion = [[5, 5]]")),
    ("region string", dict(goal='pegs_left = 1\nregion = "left"')),
    ("region too small", dict(goal="pegs_left = 2\nregion = [[0, 2]]")),
    ("pegs left one", dict(goal="pegs_left = 1", board="oo.\n...")),
    ("region unreachable", dict(goal="pegs_left = 1\nregion = [[0, 0]]", board="oo.")),
]

# ---------------------------------------------------------------- hostile values

BAD_EXPRESSIONS = [
    "", " ", "(", ")", "jug[", "jug[0", "jug[0]]", "jug[9]", "jug[-1]", "jug[0.5]",
    "jug['a']", "jug[True]", "nope", "nope[0]", "jug", "jug + ", "1 +* 2", "lambda: 1",
    "__import__('os')", "open('/etc/passwd')", "jug[0].real", "jug[0]()", "[1, 2]",
    "{1: 2}", "{1, 2}", "'text'", "b'bytes'", "1.5", "1e308", "10 ** 400", "2 ** 64",
    "9" * 30, "-" * 250 + "1", "(" * 300 + "1" + ")" * 300, "+".join(["jug[0]"] * 300),
    "jug[0] / 2", "jug[0] @ 2", "jug[0] << 1", "~jug[0]", "jug[0] is 1", "jug[0] in [1]",
    "sum(jug[i] for i in range(10 ** 12))", "sum(x for x in jug)",
    "all(jug[i] for i in range(2) if i)", "min()", "max(jug[0])", "abs(1, 2)",
    "ite(1, 2)", "f'{jug}'", "jug[0] if jug[1]", "(yield 1)", "await jug",
    "[x for x in range(3)]", "jug[0]; jug[1]", "x := 1", "*jug", "jug[0:1]",
    "\x00", "\x1b[31m", "é", "jug[0] == 4 # comment", "jug[0] ==\n4", "\\",
    "sum(jug[i] * 10 ** 18 for i in range(2)) > 0", "jug[0] * 10 ** 18 * 10 ** 18 > 0",
    "range(2 ** 70)", "all(1 for i in range(2 ** 63, 2 ** 63 + 2))",
]

BAD_TOML = [
    ("empty", ""), ("spaces", "   \n\n"), ("binary", "\x00\x01\x02"),
    ("no family", 'name = "x"\n'), ("family int", "family = 3\n"),
    ("family unknown", 'family = "chess"\n'), ("family list", 'family = ["csp"]\n'),
    ("syntax", 'family = "csp\n'), ("dup key", 'family = "csp"\nfamily = "grid"\n'),
    ("huge int", "family = 'csp'\nx = " + "9" * 5000 + "\n"),
    ("deep array", "family = 'csp'\nx = " + "[" * 3000 + "]" * 3000 + "\n"),
    ("deep table", "family = 'csp'\n" + "x = {" * 500 + "}" * 500 + "\n"),
    ("control", 'family = "c\\u001bsp"\n'), ("bom only", "\ufeff"),
    ("latin1", "family = 'caf\udce9'\n"), ("long line", "family = '" + "x" * 200_000 + "'\n"),
    ("many keys", "family = 'csp'\n" + "".join(f"k{i} = {i}\n" for i in range(5000))),
    ("nul in string", 'family = "cs\\u0000p"\n'),
]

# ---------------------------------------------------------------- per-family cases


def variants() -> list[tuple[str, str, str]]:
    """(family, what, file text) for every corpus entry."""
    out: list[tuple[str, str, str]] = []

    def put(family: str, what: str, **changes: str) -> None:
        template, default = TEMPLATES[family]
        out.append((family, what, template.format(**{**default, **changes})))

    for i, text in enumerate(BAD_EXPRESSIONS):
        quoted = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        quoted = quoted.replace("\x00", "\\u0000").replace("\x1b", "\\u001b")
        put("transition", f"goal-{i}", goal=quoted)
        if i % 2 == 0:
            put("transition", f"guard-{i}", guard=quoted)
        if i % 3 == 0:
            put("transition", f"effect-{i}", effects='{ "jug[i]" = "%s" }' % quoted)
            put("csp", f"constraint-{i}", constraints='["%s"]' % quoted.replace("jug", "q"))
    for what, name in [("attr", "fill {i.__class__}"), ("index", "fill {i[0]}"),
                       ("width", "fill {i:>1000000000}"), ("conversion", "fill {i!r}"),
                       ("unknown field", "fill {k}"), ("open brace", "fill {"),
                       ("empty", ""), ("duplicate", "fill"), ("huge", "x" * 100_000)]:
        put("transition", f"name-{what}", name=name)
    for what, params in [("not list", "{ i = 3 }"), ("strings", '{ i = ["a"] }'),
                         ("huge", "{ i = %s, j = %s }" % (list(range(1000)), list(range(1000)))),
                         ("bool", "{ i = [true] }"), ("float", "{ i = [0.5] }"),
                         ("hides variable", "{ jug = [0] }"), ("nested", "{ i = [[0]] }"),
                         ("bigint", "{ i = [%d] }" % 2 ** 63), ("range text", '{ i = "range(2)" }'),
                         ("empty", "{ i = [] }"), ("table", "3")]:
        put("transition", f"params-{what}", params=params)
    for what, effects in [("string", '"x"'), ("two keys one var", '{ "jug[i]" = "1", "jug[0]" = "2" }'),
                          ("constant target", '{ "cap[0]" = "1" }'), ("expr target", '{ "jug[i] + 1" = "1" }'),
                          ("unknown", '{ "nope" = "1" }'), ("out of domain", '{ "jug[i]" = "100" }'),
                          ("list", '{ "jug[i]" = [1] }'), ("empty", "{}")]:
        put("transition", f"effects-{what}", effects=effects)
    for what, cost in [("negative", "-1"), ("maybe negative", "jug[0] - 3"), ("huge", "10 ** 18"),
                       ("text", "cheap"), ("float", "0.5")]:
        put("transition", f"cost-{what}", cost=cost)
    jugs = TEMPLATES["transition"][0].format(**JUGS_DEFAULT)
    for what, old, new in [
        ("domain billion", "domain = [0, 8]", "domain = [0, 1_000_000_000]"),
        ("domain empty", "domain = [0, 8]", "domain = [8, 0]"),
        ("domain three", "domain = [0, 8]", "domain = [0, 8, 9]"),
        ("domain strings", "domain = [0, 8]", 'domain = ["a", "b"]'),
        ("size zero", "size = 2", "size = 0"), ("size million", "size = 2", "size = 1_000_000"),
        ("size negative", "size = 2", "size = -2"), ("size string", "size = 2", 'size = "2"'),
        ("initial short", "jug = [0, 0]", "jug = [0]"), ("initial out", "jug = [0, 0]", "jug = [0, 99]"),
        ("initial dict", "jug = [0, 0]", "jug = { a = 1 }"), ("initial unhashable", "jug = [0, 0]", "jug = [[0], [0]]"),
        ("initial missing", "jug = [0, 0]\n", ""), ("initial extra", "jug = [0, 0]", "jug = [0, 0]\nzz = 1"),
        ("constant huge", "cap = [8, 5]", "cap = [8, %d]" % 2 ** 70),
        ("constant nested", "cap = [8, 5]", "cap = [[8], [5]]"),
        ("constant shadow", "cap = [8, 5]", "cap = [8, 5]\njug = 3"),
        ("variable name", "jug = {", '"jug x" = {'), ("no actions", "[[actions]]", "[[other]]"),
        ("top key in table", "[constants]", "[constants]\nfamily = 'csp'"),
        ("unknown key", 'name = "jugs"', 'name = "jugs"\nnmae = "x"'),
        ("show bad", 'name = "jugs"', 'name = "jugs"\nshow = "{jug[0]"'),
        ("show attr", 'name = "jugs"', 'name = "jugs"\nshow = "{jug.__class__}"'),
        ("show huge", 'name = "jugs"', 'name = "jugs"\nshow = "{jug[0]:>1000000000}"'),
        ("labels bad", 'name = "jugs"', 'name = "jugs"\nlabels = 3'),
        ("goal unreachable", "jug[0] == 4 or jug[1] == 4", "jug[0] == 7 and jug[1] == 5"),
    ]:
        out.append(("transition", what, jugs.replace(old, new, 1)))

    for what, changes in [("size zero", dict(size="0")), ("size huge", dict(size="10000")),
                          ("size string", dict(size='"4"')), ("size negative", dict(size="-3")),
                          ("domain huge", dict(domain="[0, 1_000_000_000]")),
                          ("alldiff unknown", dict(alldiff='[["zz"]]')),
                          ("alldiff twice", dict(alldiff='[["q", "q[0]"]]')),
                          ("alldiff nested", dict(alldiff='[[["q"]]]')),
                          ("n huge", dict(n="1_000_000")),
                          ("constraints string", dict(constraints='"q[0] == 1"')),
                          ("constraints empty", dict(constraints="[]", alldiff="[]")),
                          ("infeasible", dict(size="3", domain="[0, 2]", n="3")),
                          ("hard", dict(size="40", domain="[0, 39]", n="40"))]:
        put("csp", what, **changes)

    for what, changes in [("size zero", dict(size="0")), ("size one", dict(size="1", symbols='"1"',
                          groups='["rows"]', givens=".")), ("size huge", dict(size="1000")),
                          ("size float", dict(size="4.0")), ("symbols short", dict(symbols='"12"')),
                          ("symbols dup", dict(symbols='"1123"')), ("symbols list bad", dict(symbols="[1, 2, 3, 4]")),
                          ("groups unknown", dict(groups='["spirals"]')), ("box bad", dict(box="[3, 3]")),
                          ("box zero", dict(box="[0, 0]")), ("givens short", dict(givens="1 2")),
                          ("givens long", dict(givens="\n".join(["1 2 3 4 5"] * 5))),
                          ("givens unknown symbol", dict(givens="9 . . .\n. . . .\n. . . .\n. . . .")),
                          ("givens clash", dict(givens="1 1 . .\n. . . .\n. . . .\n. . . .")),
                          ("givens control", dict(givens="\x1b . . .\n. . . .\n. . . .\n. . . .")),
                          ("no groups", dict(groups="[]"))]:
        put("grid", what, **changes)

    for what, changes in [("one cell", dict(start="_", goal="_")), ("one piece", dict(start="1", goal="1")),
                          ("no blank", dict(start="1 2\n3 4", goal="2 1\n3 4")),
                          ("shape differs", dict(start="1 2 3\n4 5 6\n7 _ 8", goal="1 2\n3 _")),
                          ("pieces differ", dict(goal="1 2 3\n4 5 6\n7 9 _")),
                          ("ragged", dict(start="1 2 3\n4 5\n7 _ 8")),
                          ("block split", dict(blocks='["L"]', start="L _ L\n1 2 3", goal="L _ L\n1 2 3")),
                          ("block reshaped", dict(blocks='["L"]', start="L L _\n1 2 3", goal="L _ _\nL 2 3")),
                          ("block twice", dict(blocks='["L", "L"]', start="L L _\n1 2 3", goal="_ L L\n1 2 3")),
                          ("block unknown", dict(blocks='["Z"]')), ("blocks string", dict(blocks='"L"')),
                          ("walls only", dict(start="# #\n# #", goal="# #\n# #")),
                          ("huge board", dict(start="\n".join([" ".join(["_"] * 300)] * 300),
                                              goal="\n".join([" ".join(["_"] * 300)] * 300))),
                          ("empty picture", dict(start="", goal="")),
                          ("unsolvable", dict(goal="1 2 3\n4 5 6\n8 7 _")),
                          ("hard 15", dict(start="15 14 13 12\n11 10 9 8\n7 6 5 4\n3 1 2 _",
                                           goal="1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 _")),
                          ("patterns unknown piece", dict(extra='[estimate]\npatterns = [["9"]]')),
                          ("patterns blank", dict(extra='[estimate]\npatterns = [["_"]]')),
                          ("patterns twice", dict(extra='[estimate]\npatterns = [["1"], ["1", "2"]]')),
                          ("patterns flat", dict(extra='[estimate]\npatterns = ["1", "2"]')),
                          ("patterns string", dict(extra='[estimate]\npatterns = "1 2"')),
                          ("patterns empty group", dict(extra='[estimate]\npatterns = [[]]')),
                          ("patterns bool", dict(extra='[estimate]\npatterns = [[true]]')),
                          ("estimate unknown key", dict(extra='[estimate]\nmanhattan = true')),
                          ("estimate not table", dict(extra='estimate = 3')),
                          ("patterns identical pieces", dict(start="1 1 2\n3 _ 4", goal="1 1 2\n3 4 _",
                                                             extra='[estimate]\npatterns = [["1"]]')),
                          ("patterns too large", dict(
                              start="15 14 13 12\n11 10 9 8\n7 6 5 4\n3 1 2 _",
                              goal="1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 _",
                              extra='[estimate]\npatterns = [[%s]]' % ", ".join(
                                  f'"{t}"' for t in range(1, 16)))),
                          *SLIDING_SHAPES]:
        put("sliding", what, **changes)

    for what, changes in [("no pegs", dict(board="...")), ("no holes", dict(board="   ")),
                          ("goal outside", dict(goal="goal_peg = [9, 9]")),
                          ("goal unhashable", dict(goal="goal_peg = [[0], [2]]")),
                          ("goal string", dict(goal='goal_peg = "here"')),
                          ("goal both", dict(goal='goal_peg = [0, 2]\ngoal = "..o"')),
                          ("goal none", dict(goal="")), ("jump zero", dict(jumps="[[0, 0]]")),
                          ("jump huge", dict(jumps="[[0, %d]]" % 2 ** 70)),
                          ("jump bad", dict(jumps='[["a", 1]]')), ("jumps flat", dict(jumps="[1, 0]")),
                          ("metric unknown", dict(metric="hops")),
                          ("unknown char", dict(board="oo?")), ("huge board", dict(board="\n".join(["o" * 200] * 200))),
                          ("unsolvable", dict(board="o.o", goal="goal_peg = [0, 1]")),
                          ("moves metric", dict(metric="moves")), *PEGS_LEFT]:
        put("pegs", what, **changes)

    for what, changes in [("leaper zero", dict(leaper="[0, 0]")), ("leaper huge", dict(leaper="[1, %d]" % 2 ** 70)),
                          ("leaper short", dict(leaper="[1]")), ("leaper string", dict(leaper='"knight"')),
                          ("closed string", dict(closed='"yes"')), ("one square", dict(board=".")),
                          ("all blocked", dict(board="x x\nx x")), ("unknown char", dict(board=". ? .")),
                          ("ragged", dict(board=". . .\n. .")), ("4x4 none", dict(board="\n".join([". . . ."] * 4))),
                          ("huge board", dict(board="\n".join(["." * 400] * 400))),
                          ("start closed", dict(closed="true", board=". . .\n. . .\n. . .")),
                          ("open 5x5", dict(closed="false", board="\n".join([". . . . ."] * 5)))]:
        put("tour", what, **changes)
    for what, goal, effects in [  # (last: numbers stay put) goals that proofs before any search must read right
            ("pinned twice", "jug[0] == 4 and jug[0] == 6", JUGS_DEFAULT["effects"]),
            ("pinned outside", "jug[0] == 99 and jug[1] == 0", '{ "jug[i]" = "jug[i] + 2" }'),
            ("odd by twos", "jug[0] == 3 and jug[1] == 0", '{ "jug[i]" = "jug[i] + 2" }')]:
        put("transition", f"proof-{what}", goal=goal, effects=effects)
    return out


LANGUAGE = '''family = "transition"
name = "language"
goal = "{goal}"
forbid = {forbid}
[constants]
n = {n}
cap = {cap}
[variables]
x = {{ size = {size}, domain = {domain} }}
[initial]
x = {initial}
[[actions]]
name = "step {{i}}"
params = {params}
[actions.effects]
{effects}
'''
LANGUAGE_DEFAULT = dict(goal="x[0] == 2", forbid="[]", n="3", cap="[3, 2, 1]", size='"n"',
                        domain='[0, "cap"]', initial="0", params='{ i = "range(n)" }',
                        effects='"x[k]" = "x[k] + 1 if k == i else x[k]"')
CSP_SYM = CSP + """[[symmetries]]
{symmetry}
"""


def language_variants() -> list[tuple[str, str, str]]:
    """Issue 10's language: constants everywhere, forbid, effects over free indexes, //, %,
    multi-line text, declared csp symmetries (appended last so older files keep numbers)."""
    out: list[tuple[str, str, str]] = []

    def put(what: str, **changes: str) -> None:
        out.append(("transition", f"lang {what}",
                    LANGUAGE.format(**{**LANGUAGE_DEFAULT, **changes})))

    for what, changes in [
        ("forbid initial", dict(forbid='["x[0] == 0"]')),
        ("forbid not list", dict(forbid='"x[0] > 1"')),
        ("forbid int", dict(forbid="[3]")),
        ("forbid unknown", dict(forbid='["y > 1"]')),
        ("forbid everything", dict(forbid='["x[0] >= 1"]')),
        ("forbid huge", dict(forbid='["sum(x[i] for i in range(10 ** 9)) > 1"]')),
        ("div zero", dict(goal="x[0] // 0 == 1")), ("mod variable", dict(goal="x[0] % x[1] == 1")),
        ("mod negative", dict(goal="x[0] % -2 == 1")), ("div huge", dict(goal="x[0] // (10 ** 30) == 0")),
        ("size expr huge", dict(size='"10 ** 9"')), ("size product", dict(size='"100000 * 100000"')),
        ("size variable", dict(size='"x"')), ("size list", dict(size='"cap"')),
        ("domain list short", dict(domain="[0, [1, 2]]")), ("domain list empty cell", dict(domain="[[2, 0, 0], 1]")),
        ("domain cap nested", dict(cap="[[1], [2], [3]]")),
        ("constant unknown", dict(cap='"m * 2"')), ("constant range huge", dict(cap='"[0] * 10 ** 9"')),
        ("constant self", dict(cap='"cap"')), ("constant variable", dict(cap='"x"')),
        ("initial expr", dict(initial='"n * 100"')), ("initial range", dict(initial='"range(n)"')),
        ("initial list short", dict(initial="[0]")),
        ("params range huge", dict(params='{ i = "range(10 ** 9)" }')),
        ("params product huge", dict(params='{ i = "range(1000)", j = "range(1000)" }')),
        ("params uses later", dict(params='{ i = "range(j)", j = "range(3)" }')),
        ("params variable", dict(params='{ i = "range(x[0])" }')),
        ("params text", dict(params='{ i = "hello" }')),
        ("effects twice free", dict(effects='"x[k]" = "x[k] + 1"\n"x[j]" = "0"')),
        ("effects free and fixed", dict(effects='"x[k]" = "1"\n"x[0]" = "0"')),
        ("effects free not array", dict(effects='"k" = "1"')),
        ("effects when bad", dict(effects='"x[i]" = { value = "1", when = "nope" }')),
        ("effects when extra", dict(effects='"x[i]" = { value = "1", whn = "1" }')),
        ("effects value missing", dict(effects='"x[i]" = { when = "1" }')),
        ("effects free 2d", dict(effects='"x[k][m]" = "1"')),
        ("multiline comment only", dict(goal="# nothing")),
        ("multiline backslash", dict(goal="x[0] == \\\\")),
    ]:
        put(what, **changes)
    jump = LANGUAGE.format(**LANGUAGE_DEFAULT)
    out.append(("transition", "lang goal after table", jump.replace('goal = "x[0] == 2"\n', "")
                + 'goal = "x[0] == 2"\n'))
    for what, symmetry in [
        ("sym shift", 'name = "shift"\nvalues = "(v + 1) % n"'),
        ("sym board rows", 'board = "q"\nrows = 3'),
        ("sym board unknown", 'board = "q"\nuse = ["spin"]'),
        ("sym board scalar", 'board = "n"'),
        ("sym values not perm", 'values = "0"'),
        ("sym variables not perm", 'variables = { "q[i]" = "q[0]" }'),
        ("sym variables expr", 'variables = { "q[i]" = "q[i] + 1" }'),
        ("sym both", 'board = "q"\nvalues = "v"'),
        ("sym unknown key", 'mirror = true'),
        ("sym values huge", 'values = "v * 10 ** 20"'),
        ("sym ok mirror", 'name = "mirror"\nvalues = "n - 1 - v"'),
    ]:
        out.append(("csp", f"lang {what}", CSP_SYM.format(**CSP_DEFAULT, symmetry=symmetry)))
    return out


BIG = 10 ** 20


def issue21_variants() -> list[tuple[str, str, str]]:
    """Issue 21's malformed files: conditions that are numbers, pieces and holes listed
    twice, empty symmetries, ranges past 2**63, sizes of a billion, names XML forbids,
    files named outside the model's folder (appended last: older files keep numbers)."""
    out: list[tuple[str, str, str]] = []
    jugs = TEMPLATES["transition"][0].format(**JUGS_DEFAULT)
    lang = LANGUAGE.format(**LANGUAGE_DEFAULT)
    csp = TEMPLATES["csp"][0].format(**CSP_DEFAULT)
    for i, goal in enumerate(["jug[0] + 4", "jug[0]", "jug[0] * jug[1]", "7", "-1", "2",
                              "abs(jug[0] - 4)", "max(jug[0], jug[1])", "ite(jug[0] == 4, 5, 0)",
                              "jug[0] == 4 or jug[1]", "not jug[0] + 1"]):
        out.append(("transition", f"i21 goal number {i}", jugs.replace(
            'goal = "jug[0] == 4 or jug[1] == 4"', f'goal = "{goal}"', 1)))
    out += [
        ("transition", "i21 guard number", jugs.replace('guard = "jug[i] < cap[i]"',
                                                       'guard = "cap[i] - jug[i]"', 1)),
        ("transition", "i21 forbid number", lang.replace("forbid = []", 'forbid = ["x[0] + 5"]')),
        ("csp", "i21 constraint number", csp.replace('constraints = ["all(',
                                                     'constraints = ["q[0] + 1", "all(', 1)),
        ("csp", "i21 symmetry empty", CSP_SYM.format(**CSP_DEFAULT, symmetry="")),
        ("csp", "i21 symmetry name only", CSP_SYM.format(**CSP_DEFAULT, symmetry='name = "x"')),
        ("csp", "i21 symmetry rows only", CSP_SYM.format(**CSP_DEFAULT, symmetry="rows = 2")),
    ]
    for what, pieces in [("twice", "{ 1 = [[1, 1], [1, 1]] }"),
                         ("twice of three", "{ 2 = [[1, 2], [2, 2], [1, 2]] }"),
                         ("twice flat", "{ 1 = [[1, 1], [1, 1], [1, 1]] }")]:
        out.append(("sliding", f"i21 goal pieces {what}", TEMPLATES["sliding"][0].format(
            **{**SLIDING_DEFAULT, "blocks": f"[]\ngoal_pieces = {pieces}"})
            .replace('goal = """\n1 2 3\n4 5 6\n7 8 _\n"""\n', "")))
    for what, region in [("hole twice", "[[0, 0], [0, 0]]"), ("hole thrice", "[[0, 1], [0, 1], [0, 1]]"),
                         ("all twice", "[[0, 0], [0, 1], [0, 0], [0, 1]]")]:
        out.append(("pegs", f"i21 region {what}", TEMPLATES["pegs"][0].format(
            **{**PEGS_DEFAULT, "goal": f"pegs_left = 1\nregion = {region}"})))
    for what, text in [("params", lang.replace('i = "range(n)"', f'i = "range({BIG})"')),
                       ("params from", lang.replace('i = "range(n)"',
                                                    f'i = "range({BIG}, {BIG} + 2)"')),
                       ("goal all", lang.replace('goal = "x[0] == 2"',
                                                 f'goal = "all(x[i] == 0 for i in range({BIG}))"')),
                       ("constant", lang.replace("n = 3", f'n = 3\nm = "range({BIG})"')),
                       ("comprehension", lang.replace("n = 3",
                                                      f'n = 3\nm = "[e for e in range({BIG})]"')),
                       ("negative", lang.replace('i = "range(n)"', f'i = "range(-{BIG}, 0)"'))]:
        out.append(("transition", f"i21 range 10 20 {what}", text))
    out += [
        ("transition", "i21 size billion", jugs.replace("size = 2", "size = 1000000000")),
        ("csp", "i21 size billion", csp.replace("size = 4", "size = 1000000000")),
        ("transition", "i21 size billion expr", lang.replace('size = "n"', 'size = "10 ** 9"')),
        ("transition", "i21 size 2 63", jugs.replace("size = 2", f"size = {2 ** 63 - 1}")),
    ]
    for what, name in [("escape", "\\u001b[31mred"), ("bell", "a\\u0007b"),
                       ("nul", "a\\u0000b"), ("form feed", "a\\u000cb"),
                       ("markup", "<svg onload=alert(1)>&amp;")]:
        out.append(("transition", f"i21 name {what}",
                    jugs.replace('name = "jugs"', f'name = "{name}"', 1)))
    grid = TEMPLATES["grid"][0].format(**GRID_DEFAULT).replace(
        'givens = """\n1 . . .\n. . . .\n. . . .\n. . . 4\n"""\n', "")
    for what, where in [("parent", "../../etc/passwd"), ("absolute", "/etc/passwd"),
                        ("dev", "/dev/zero"), ("proc", "/proc/self/environ"),
                        ("home", "~/.ssh/id_rsa"), ("folder", ".")]:
        out.append(("grid", f"i21 instances file {what}",
                    grid + f'instances_file = "{where}"\n'))
    forbids = ", ".join(f'"x[0] == {k + 1} and x[1] == {k % 3}"' for k in range(0, 60000, 3))
    out.append(("transition", "i21 twenty thousand forbids", lang.replace(
        "forbid = []", f"forbid = [{forbids}]").replace('domain = [0, "cap"]', "domain = [0, 100000]")
        .replace('goal = "x[0] == 2"', 'goal = "x[0] == 50000"')))
    return out


PYTHON_FILES = {
    "syntax": "def build(:\n",
    "raises": "def build():\n    raise RuntimeError('boom')\n",
    "no build": "x = 1\n",
    "build not callable": "build = 3\n",
    "returns int": "def build():\n    return 3\n",
    "import error": "import no_such_module_here\n",
    "recursion": "def build():\n    return build()\n",
    "bad model": ("from cpsolve.model import Planning\n\ndef build():\n    m = Planning()\n"
                  "    m.add_variable('x', 5, 1)\n    return m\n"),
    "system exit": "import sys\nsys.exit(3)\n",
    "exit in build": "import sys\n\ndef build():\n    sys.exit(0)\n",
    "build loops": "def build():\n    while True:\n        pass\n",
    "build sleeps": "import time\n\ndef build():\n    time.sleep(3600)\n",
    "import loops": "while True:\n    pass\n",
    "build catches everything": ("def build():\n    while True:\n        try:\n"
                                 "            sum(range(10 ** 6))\n        except Exception:\n"
                                 "            pass\n"),
}


def write() -> int:
    """Rewrite the corpus directory; return the number of files written."""
    shutil.rmtree(CORPUS, ignore_errors=True)
    CORPUS.mkdir()
    n = 0
    entries = [("toml", what, text) for what, text in BAD_TOML] + variants() + language_variants()
    python = list(PYTHON_FILES.items())
    for family, what, text in entries:
        n += 1
        slug = "".join(c if c.isalnum() else "-" for c in what.lower()).strip("-")
        (CORPUS / f"{n:03d}-{family}-{slug}.toml").write_text(text, encoding="utf-8",
                                                             errors="surrogateescape")
    for what, text in python[:OLD_PYTHON]:
        n += 1
        (CORPUS / f"{n:03d}-python-{what.replace(' ', '-')}.py").write_text(text)
    for family, what, text in issue21_variants():  # issue 21's, after the older files
        n += 1
        slug = "".join(c if c.isalnum() else "-" for c in what.lower()).strip("-")
        (CORPUS / f"{n:03d}-{family}-{slug}.toml").write_text(text, encoding="utf-8")
    for what, text in python[OLD_PYTHON:]:
        n += 1
        (CORPUS / f"{n:03d}-python-{what.replace(' ', '-')}.py").write_text(text)
    return n + write_commands()


def write_commands() -> int:
    """Rewrite tests/hostile/commands/ (one JSON file per command-line case)."""
    import json

    sys.path.insert(0, str(HERE))
    from make_commands import cases

    shutil.rmtree(COMMANDS, ignore_errors=True)
    COMMANDS.mkdir()
    found = cases()
    for n, one in enumerate(found, start=1):
        slug = "".join(c if c.isalnum() else "-" for c in one["what"].lower()).strip("-")
        (COMMANDS / f"{n:03d}-{slug}.json").write_text(json.dumps(one, indent=1) + "\n",
                                                      encoding="utf-8")
    return len(found)


if __name__ == "__main__":
    print(f"{write()} cases in {CORPUS} and {COMMANDS}")
