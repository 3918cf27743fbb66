"""Family ``csp``: variables and constraints written directly in the file.

    family = "csp"
    name = "8 queens"
    all_different = [["q"]]      # groups: each a list of variables or whole arrays
    constraints = ["all(abs(q[i] - q[j]) != j - i for i in range(n) for j in range(i + 1, n))"]
    show = "{q[0]} {q[1]} {q[2]} {q[3]} {q[4]} {q[5]} {q[6]} {q[7]}"   # optional
    [constants]
    n = 8
    [variables]                  # scalar: [lo, hi]; array: {size = n, domain = [lo, hi]}
    q = { size = "n", domain = [0, "n - 1"] }
    [[symmetries]]               # optional: symmetries of the rules (see below)
    name = "left-right mirror"
    values = "n - 1 - v"         # the value v of every variable becomes n - 1 - v
    [[symmetries]]
    name = "top-bottom mirror"
    variables = { "q[i]" = "q[n - 1 - i]" }   # the value of q[i] moves to q[n - 1 - i]

Every top-level key comes before the first ``[table]`` header (TOML puts a
key written after a header inside that table).  The declarations are the
ones of the ``transition`` family (:mod:`cpsolve.puzzles.declare`); only the
constraints differ.

``[[symmetries]]`` declares symmetries of the rules, used by ``count
--up-to symmetry`` and ``generate``: either a board — ``board = "x"`` (an
array laid out row by row), ``rows = r`` (a square by default: an array whose size is
not a square needs it), optionally
``use = [...]`` naming some of its rotations and reflections
(:data:`cpsolve.model.symmetry.boards.MOVES`; by default all the board has) — or a
permutation of the variables (``variables``, written once over a free index
as in effects) with a renaming of values (``values``, an expression of
``v``).  Each is checked when the file is read: it must map the constraints
onto themselves, or the file is refused naming the constraint it breaks.
The group they generate is what "up to symmetry" means.  The complete
reference is ``docs/families/csp.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..language.expr import Const, Var, conjuncts
from ..language.parse import listing
from ..language.quoting import shown
from ..language.syntax import ExprError, as_said
from ..model import Csp, ModelError
from .assignment_text import assignment_text
from .base import Puzzle
from .constants import integer
from .data import Data
from .declare import constants_and_variables
from .file_expressions import condition_in, free_indices, parse_in, value_in
from .show_template import Template, template

KEYS = {"family", "name", "description", "constants", "variables", "all_different",
        "constraints", "show", "labels", "symmetries", "minimize", "maximize", "clues"}
SYMMETRY_KEYS = {"name", "board", "rows", "use", "variables", "values"}


@dataclass(frozen=True, kw_only=True)
class CspPuzzle(Puzzle):
    """A CSP drawn with the file's ``show`` template, or variable by variable."""

    template: Template
    rules: tuple[str, ...] = ()
    """The file's rules as written, for a person solving the puzzle from its picture
    (``show --unsolved``): its constants, ``all_different`` groups, constraints and
    objective, one line each."""

    def render_solution(self, solution: Mapping[str, int]) -> str:
        """The ``show`` template drawn, or without one the variables (an array on a line,
        :mod:`.assignment_text`), with their labels."""
        if self.template.show:
            return self.template.render(solution)
        return assignment_text(self.model.names, {n: self.template.label(n, v)
                                                  for n, v in solution.items()})

    def value_text(self, name: str, value: int) -> str:
        """A value as its label, when the file labels the variable's values."""
        return self.template.label(name, value)

    def read_solution(self, written: Any) -> dict[str, int]:
        """A JSON assignment, or the solution as the text output draws it (the ``show``
        template, or the variables drawn without one; :mod:`.csp_drawing`)."""
        if isinstance(written, str):
            from .csp_drawing import read_drawing

            return read_drawing(self.template, self.model.domains, written)
        return super().read_solution(written)


def build(data: Data) -> CspPuzzle:
    """Build the CSP of a ``csp`` file."""
    data.top_level = KEYS
    data.unknown_keys(KEYS)
    model = Csp(data.get("name", str, "csp model"))
    scope = constants_and_variables(data, model)
    for i, group in enumerate(data.get("all_different", list, [])):
        key = f"all_different[{i}]"
        if isinstance(group, str):  # a comprehension: one group, or a list of groups
            for names in _groups(data, key, group, scope):
                model.all_different(names, key)
            continue
        if not isinstance(group, list) or not all(isinstance(g, str) for g in group):
            raise data.error(key, "expected a list of variable or array names, or a "
                                  "comprehension such as \"[[x[r][c] for c in range(n)] "
                                  "for r in range(n)]\"")
        names: list[str] = []
        for item in group:
            names.extend(_names(data, key, parse_in(data, key, item, scope, whole=True)))
        model.all_different(names, key)
    for i, text in enumerate(data.get("constraints", list, [])):
        key = f"constraints[{i}]"
        if not isinstance(text, str):
            raise data.error(key, "expected an expression string")
        for part in conjuncts(condition_in(data, key, text, scope, model)):
            model.require(part, as_said(text))  # one condition per conjunct: engines
            # propagate each
    _objective(data, model, scope)
    _clues(data, model, scope)
    _symmetries(data, model, scope)
    return CspPuzzle(model.name, "csp", model, data.get("description", str, ""),
                     "an assignment satisfying every constraint",
                     template=template(data, scope, model), rules=_rules(data))


def _rules(data: Data) -> tuple[str, ...]:
    """The file's rules, one line each, as written (whitespace folded)."""
    lines = [f"{name} = {value}" for name, value in data.table.get("constants", {}).items()]
    lines += [f"all different: {group}" for group in data.table.get("all_different", [])]
    lines += list(data.table.get("constraints", []))
    lines += [f"{key}: {data.table[key]}" for key in ("minimize", "maximize")
              if key in data.table]
    return tuple(as_said(str(line)) for line in lines)


def _objective(data: Data, model: Csp, scope: dict) -> None:
    """``minimize = "expr"`` or ``maximize = "expr"`` (at most one)."""
    given = [k for k in ("minimize", "maximize") if k in data.table]
    if len(given) > 1:
        raise data.error("maximize", "give minimize or maximize, not both")
    for key in given:
        text = data.get(key, str)
        expr = value_in(data, key, text, scope, model)
        try:
            (model.minimize if key == "minimize" else model.maximize)(expr, text.strip())
        except ModelError as err:
            raise data.error(key, str(err)) from None


def _clues(data: Data, model: Csp, scope: dict) -> None:
    """``clues``: the variables ``generate`` may give, as a list of variable or array
    names, or one comprehension (``"[x[r][c] for r in range(n) for c in range(n)]"``)."""
    if "clues" not in data.table:
        return
    raw = data.get("clues", (str, list))
    if isinstance(raw, str):
        names = [n for group in _groups(data, "clues", raw, scope) for n in group]
    elif all(isinstance(g, str) for g in raw):
        names = [n for i, g in enumerate(raw)
                 for n in _names(data, f"clues[{i}]", parse_in(data, f"clues[{i}]", g, scope,
                                                               whole=True))]
    else:
        raise data.error("clues", "expected a list of variable or array names, or a "
                                  "comprehension such as \"[q[r] for r in range(n)]\"")
    try:
        model.declare_clues(names)
    except ModelError as err:
        raise data.error("clues", str(err)) from None


def _groups(data: Data, key: str, text: str, scope: dict) -> list[list[str]]:
    """The groups of a comprehension: a list of variables is one group, a list of lists
    one group per inner list (``[[x[r][c] for c in range(n)] for r in range(n)]``)."""
    try:
        value = listing(text, scope)
    except ExprError as err:
        raise data.error(key, str(err)) from None
    if not isinstance(value, list) or not value:
        raise data.error(key, f"{shown(text)} is not a list of variables or of groups")
    if all(isinstance(v, list) for v in value):
        return [_names(data, key, v) for v in value]
    return [_names(data, key, value)]


def _names(data: Data, key: str, value: Any) -> list[str]:
    if isinstance(value, Var):
        return [value.name]
    if isinstance(value, list):
        out: list[str] = []
        for v in value:
            out.extend(_names(data, key, v))
        return out
    raise data.error(key, "expected variables (an all-different group or clues), not "
                          "expressions")


def _symmetries(data: Data, model: Csp, scope: dict) -> None:
    from ..model.symmetry.rules import breaks

    for i, table in enumerate(data.get("symmetries", list, [])):
        key = f"symmetries[{i}]"
        if not isinstance(table, dict):
            raise data.error(key, "expected a table ([[symmetries]])")
        data.unknown_keys(SYMMETRY_KEYS, table, key + ".")
        if not {"board", "variables", "values"} & set(table):
            raise data.error(key, "an empty symmetry: give board, or variables and/or values")
        try:
            if "board" in table:
                declared = _board(data, model, scope, table, key)
            else:
                declared = [_permutation(data, model, scope, table, key)]
        except ModelError as err:
            raise data.error(key, str(err)) from None
        for sym in declared:
            why = breaks(model, sym)
            if why:
                raise data.error(key, f"not a symmetry of the rules: {why}")


def _board(data: Data, model: Csp, scope: dict, table: dict, key: str) -> list:
    if "variables" in table or "values" in table:
        raise data.error(key, "a board symmetry moves cells; give either board or "
                              "variables/values")
    cells = parse_in(data, key + ".board", data.get("board", str, table=table, prefix=key + "."),
                     scope, whole=True)
    shaped = isinstance(cells, list) and bool(cells) and all(isinstance(c, list) for c in cells)
    if shaped:  # a 2-D array (shape = [rows, cols]) is its own board
        if "rows" in table:
            raise data.error(key + ".rows", "the array's shape already gives its rows")
        rows, cells = len(cells), [c for row in cells for c in row]
    if not isinstance(cells, list) or not all(isinstance(c, Var) for c in cells):
        raise data.error(key + ".board", "expected the name of an array of variables "
                                         "(one or two dimensions)")
    if not shaped:
        rows = integer(data, key + ".rows", table["rows"], scope) if "rows" in table else 0
        if "rows" in table and rows < 1:
            raise data.error(key + ".rows", f"expected a number of rows above 0, got {rows}")
    use = data.get("use", list, None, table=table, prefix=key + ".")
    if use is not None and not all(isinstance(u, str) for u in use):
        raise data.error(key + ".use", "expected a list of symmetry names")
    return model.board_symmetries(cells, rows, use=use)


def _map(data: Data, scope: dict, where: str, target: str, image: Any,
         mapping: dict[str, str]) -> None:
    """Add the pairs ``target = image`` stands for (one per free index binding) to
    ``mapping``, a permutation of the variables."""
    for free in free_indices(data, where, target, scope):
        local = {**scope, **{k: Const(v) for k, v in free.items()}}
        x, y = parse_in(data, where, target, local), parse_in(data, where, image, local)
        if not isinstance(x, Var) or not isinstance(y, Var):
            raise data.error(where, "maps a variable to a variable")
        if x.name in mapping:
            raise data.error(where, f"{x.name} is mapped twice")
        mapping[x.name] = y.name


def _permutation(data: Data, model: Csp, scope: dict, table: dict, key: str):
    name = data.get("name", str, "", table=table, prefix=key + ".")
    mapping: dict[str, str] = {}
    for target, image in data.get("variables", dict, {}, table=table, prefix=key + ".").items():
        where = f"{key}.variables.{target}"
        with data.entry(where):
            _map(data, scope, where, target, image, mapping)
    values: dict[int, int] = {}
    if "values" in table:
        text = data.get("values", str, table=table, prefix=key + ".")
        every = sorted({v for n in model.domains for v in model.values(n)})
        for v in every:
            values[v] = integer(data, key + ".values", text, {**scope, "v": Const(v)})
    return model.add_symmetry(mapping, values, name)
