"""Declarations shared by the ``transition`` and ``csp`` families.

Both read ``[constants]`` and ``[variables]`` the same way, parse
expressions against the same scope, and draw assignments with the file's
``show`` template and ``[labels]`` (see :mod:`cpsolve.puzzles.transition`
for the file format).  A family calls :func:`constants_and_variables` on its
model, :func:`parse_in` for each expression, and keeps the :class:`Template`
that :func:`template` returns to draw states or solutions.
"""

from __future__ import annotations

import ast
import itertools
import math
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..language.expr import Const, Expr, Var, is_boolean
from ..language.interpret import evaluate
from ..language.intervals import bounds
from ..language.parse import constant_list, parse
from ..language.quoting import shown
from ..language.scope import Scope, constant_scope, variable_scope
from ..language.syntax import ExprError, one_line
from ..language.walk import variables
from ..model import MAX_VARIABLES, Csp, ModelError, Planning, check_size
from . import widths
from .data import Data, key_part

PLACEHOLDER = re.compile(r"\{([^}]*)\}")
"""A ``{...}`` part of a ``show`` template: an expression to draw."""


@dataclass(frozen=True)
class Template:
    """How the file draws an assignment: ``show`` (may be empty), ``labels``, and the scope.

    ``show`` is a template whose ``{...}`` parts are expressions over
    ``scope``; ``labels`` maps a variable or array name to the names of its
    values.
    """

    show: str
    labels: Mapping[str, list]
    scope: Scope
    domains: Mapping[str, Any] = field(default_factory=dict)
    """The model's domains (``lo``, ``hi``): an array's items are padded to the widest value
    their domains can show, so every state drawn lines up."""

    def render(self, env: Mapping[str, int]) -> str:
        """An assignment drawn with ``show`` (or ``name=value`` pairs) and ``labels``.  A
        tab, in the template or a label, is the spaces to the next multiple of 8 columns, as
        a terminal shows it: a drawing is laid out by the width of its lines (a tab left
        raw was shown as ``\\t`` and measured as no width, and cut the board's columns)."""
        if self.show:
            drawn = PLACEHOLDER.sub(lambda m: self._expression(m.group(1), env), self.show)
            return drawn.expandtabs()
        return "  ".join(f"{n}={self.label(n, v)}" for n, v in env.items())

    def _expression(self, text: str, env: Mapping[str, int]) -> str:
        whole = self.scope.get(text.strip())
        if isinstance(whole, list):
            return self._array(whole, env)
        expr = parse(text, self.scope)
        if not variables(expr) <= env.keys():  # a partial assignment (a puzzle's givens)
            return "?"
        value = evaluate(expr, env)
        return self.label(expr.name, value) if isinstance(expr, Var) else str(value)

    def _array(self, cells: list, env: Mapping[str, int]) -> str:
        """A whole array drawn: values apart by spaces, a 2-D array one row a line (a
        deeper one, its 2-D slices apart by blank lines), labels padded to one width: the
        widest value the domains can show (:meth:`widest`), else the widest drawn."""
        texts: dict[str, str] = {}

        def leaves(value: Any) -> None:
            for v in value:
                if isinstance(v, list):
                    leaves(v)
                elif isinstance(v, Var):
                    texts[v.name] = self.label(v.name, env.get(v.name, 0)) \
                        if v.name in env else "?"
                else:
                    texts[id(v)] = str(evaluate(v, {}))  # type: ignore[index]

        leaves(cells)
        width = max((self.widest(n) if isinstance(n, str) and n in self.domains
                     else widths.cells(t) for n, t in texts.items()), default=1)

        def draw(value: list, depth: int) -> str:
            if not any(isinstance(v, list) for v in value):
                return " ".join(widths.rjust(texts[v.name if isinstance(v, Var) else id(v)], width)
                                for v in value)
            return ("\n" * depth).join(draw(v, depth + 1) if isinstance(v, list) else ""
                                        for v in value)

        return draw(cells, 1)

    def widest(self, name: str) -> int:
        """The width of the widest value variable ``name``'s domain can show (a label, or
        the number at either end of the domain)."""
        d = self.domains[name]
        base = name.split("[", 1)[0]
        if self.labels.get(name, self.labels.get(base)):
            return max(widths.cells(self.label(name, v)) for v in range(d.lo, d.hi + 1))
        return max(len(str(d.lo)), len(str(d.hi)))

    def label(self, name: str, value: int) -> str:
        """The label of ``value`` for variable ``name`` (or of its array), else the number."""
        base = name.split("[", 1)[0]
        names = self.labels.get(name, self.labels.get(base))
        if names and 0 <= value < len(names):
            return str(names[value])
        return str(value)


def template(data: Data, scope: dict[str, Any], model: Planning | Csp,
             parameters: Collection[str] = ()) -> Template:
    """The file's ``show`` and ``labels``, with ``show`` parsed now so errors name the file,
    and every value of a labelled variable given a label (:func:`labels_problem`);
    ``parameters``: the other names labels may name (a transition's action parameters)."""
    show = data.get("show", str, "")
    try:
        check_show(show, scope)
    except ExprError as err:
        raise data.error("show", str(err)) from None
    labels = read_labels(data)
    for name in labels:  # a top-level key after [labels] would label nothing
        if name in data.top_level and name not in data.table and name not in parameters \
                and not any(n == name or n.startswith(name + "[") for n in model.names):
            raise data.misplaced_error(f"labels.{key_part(name)}")
    problem = labels_problem(labels, model)
    if problem is not None:
        raise data.error(f"labels.{problem[0]}", problem[1])
    return Template(show, labels, scope, model.domains)


def read_labels(data: Data) -> dict[str, Any]:
    """The ``[labels]`` table, each label a string or an integer (a table or a list among
    them is refused naming ``labels.NAME[index]``, not shown as Python writes it)."""
    labels = data.get("labels", dict, {})
    for name, names in labels.items():
        key = f"labels.{key_part(name)}"
        with data.entry(key):  # a top-level key after [labels] is said misplaced
            for i, label in enumerate(names if isinstance(names, list) else ()):
                data.checked(f"{key}[{i}]", label, (str, int))
    return labels


def labels_problem(labels: Mapping[str, Any], model: Planning | Csp) -> tuple[str, str] | None:
    """The first ``labels`` entry of a variable or array that does not name each of its
    values (``names[v]`` is the label of value ``v``, from 0), as ``(name, why)``; None
    when all do.  Other names (action parameters) are checked where they are used."""
    for name, names in labels.items():
        if not isinstance(names, list):
            return name, "expected a list of labels, the first naming the value 0"
        cells = [n for n in model.names if n == name or n.startswith(name + "[")]
        if not cells:
            continue
        low = min(model.domain(n)[0] for n in cells)
        high = max(model.domain(n)[1] for n in cells)
        if low < 0 or len(names) <= high:
            return name, (f"{len(names)} label{'s' if len(names) != 1 else ''} for the values "
                          f"{low}..{high} of {name}: labels name the values 0, 1, 2, ... in "
                          "order, and each value needs one")
    return None


def check_show(show: str, scope: Scope) -> None:
    """Parse every ``{...}`` of a ``show`` template now (:class:`ExprError`), not when drawing;
    a ``{`` that no ``}`` closes is refused too (it would be drawn as it is, in every state)."""
    rest = PLACEHOLDER.sub("", show)
    if "{" in rest:
        opened = rest[rest.index("{"):].splitlines()[0][:20]
        raise ExprError(f"{shown(opened)}: a '{{' that no '}}' closes (each {{...}} in show is an "
                        "expression to draw)")
    for part in PLACEHOLDER.findall(show):
        if not isinstance(scope.get(part.strip()), list):  # a whole array is drawn as such
            parse(part, scope)


def constants_and_variables(data: Data, model: Planning | Csp) -> dict[str, Any]:
    """Declare the file's ``[variables]`` on ``model``; the scope of constants and variables."""
    constants = data.get("constants", dict, {})
    data.misplaced(constants, "constants.")
    scope = read_constants(data, constants)
    _declare(data, model, scope)
    overlap = set(constants) & {n.split("[", 1)[0] for n in model.names}
    if overlap:
        raise data.error("constants", f"{shown(sorted(overlap)[0])} is also a variable")
    scope.update(variable_scope(model.names))
    return scope


def read_constants(data: Data, constants: Mapping[str, Any],
                   given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The scope of ``[constants]``: integers, (nested) lists of integers, and expression
    strings over the constants above them (``cells = "n * n"``, ``row = "[0] * n"``);
    ``given`` names a family already defines (the grid's ``size``) come first."""
    scope: dict[str, Any] = dict(given or {})
    for name, value in constants.items():
        key = f"constants.{key_part(name)}"
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise data.error(key, "a constant name is a plain identifier")
        if value == [] and name in data.top_level and name not in data.table:
            raise data.misplaced_error(key)  # forbid = [] under [constants]: no constant meant
        with data.entry(key):
            try:
                scope[name] = (constant_list(value, scope) if isinstance(value, str)
                               else constant_scope({name: value})[name])
            except ExprError as err:
                raise data.error(key, str(err)) from None
    return scope


def integer(data: Data, key: str, value: Any, scope: Scope) -> int:
    """An integer written as a number or as a constant expression (``"discs"``, ``"2 * n"``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        expr = parse_in(data, key, value, scope, constant=True)
        if variables(expr):
            raise data.error(key, f"{shown(value)} must be constant (no variables)")
        return evaluate(expr, {})
    raise data.error(key, f"expected an integer or a constant expression, got {shown(value)}")


def integers(data: Data, key: str, value: Any, scope: Scope) -> list[int]:
    """A list of integers: a TOML list (of numbers or constant expressions), or a string
    ``range(n)``, ``range(a, b)``, a constant array's name or a list expression."""
    if isinstance(value, list):  # of integers: a list in it is refused, not flattened
        return [integer(data, f"{key}[{i}]", v, scope) for i, v in enumerate(value)]
    if isinstance(value, str):
        return _flat(data, key, value, _constant(data, key, value, scope))
    raise data.error(key, f"expected a list of integers or a string such as \"range(n)\", "
                          f"got {shown(value)}")


def _constant(data: Data, key: str, text: str, scope: Scope) -> Any:
    """:func:`cpsolve.language.parse.constant_list` of ``text``, its errors naming ``key``."""
    try:
        return constant_list(text, scope)
    except ExprError as err:
        raise data.error(key, str(err)) from None


def _flat(data: Data, key: str, text: str, found: Any) -> list[int]:
    """The integers of ``found`` (the constant value of ``text``): a flat list, else an error."""
    flat = list(_leaves(found)) if isinstance(found, list) else None
    if flat is not None and all(isinstance(v, Const) for v in flat):
        return [v.value for v in flat]
    raise data.error(key, f"{shown(text)} is not a list of integers")


def _leaves(value: Any) -> Any:
    """The elements of a (nested) list, row by row."""
    for v in value:
        if isinstance(v, list):
            yield from _leaves(v)
        else:
            yield v


def parse_in(data: Data, key: str, text: Any, scope: dict, whole: bool = False,
             constant: bool = False) -> Any:
    """Parse an expression of the file; ``whole`` also accepts a bare array name;
    ``constant``: where only constants may be used (the caller refuses variables)."""
    if whole and isinstance(text, str) and isinstance(scope.get(text.strip()), list):
        return scope[text.strip()]
    try:
        return parse(text, scope, constant)
    except ExprError as err:
        raise data.error(key, str(err)) from None


def condition_in(data: Data, key: str, text: Any, scope: dict,
                 model: Planning | Csp) -> Expr:
    """Parse a condition of the file (a goal, guard, forbid or constraint): an expression
    whose value is a number other than 0 or 1 (``jug[0] + 4``) is refused, not read as
    "true when non-zero"."""
    expr = parse_in(data, key, text, scope)
    if not isinstance(expr, Expr):
        raise data.error(key, f"expected a condition, got {shown(text)}")
    number = _number_in(expr, model)
    if number is not None:
        said = str(text).strip() if number is expr else str(number)
        raise data.error(key, f"{shown(said)} is a number, not a condition: compare it (==, !=, "
                         "<, ...) or combine conditions (and, or, not)")
    return expr


def _number_in(expr: Expr, model: Planning | Csp) -> Expr | None:
    """The first part of ``expr`` that stands where a condition must but can be a number
    other than 0 or 1 (None: every part is a condition)."""
    from ..language.expr import Nary, Unary

    if isinstance(expr, Nary) and expr.op in ("and", "or"):
        return next((n for a in expr.args if (n := _number_in(a, model)) is not None), None)
    if isinstance(expr, Unary) and expr.op == "not":
        return _number_in(expr.arg, model)
    if is_boolean(expr):
        return None
    try:
        lo, hi = bounds(expr, lambda name: (model.domains[name].lo, model.domains[name].hi))
    except (KeyError, TypeError, ValueError):
        return expr
    return None if 0 <= lo and hi <= 1 else expr


def _declare(data: Data, model: Planning | Csp, scope: Scope) -> None:
    variables = data.get("variables", dict)
    if not variables:
        raise data.error("variables", "no state variables declared")
    data.misplaced(variables, "variables.")
    for name, spec in variables.items():
        key = f"variables.{key_part(name)}"
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise data.error(key, "a variable name is a plain identifier")
        with data.entry(key):
            try:
                _declare_one(data, model, name, key, spec, scope)
            except ModelError as err:
                raise data.error(key, str(err)) from None


def _declare_one(data: Data, model: Planning | Csp, name: str, key: str, spec: Any,
                 scope: Scope) -> None:
    if isinstance(spec, list):
        lo, hi = _interval(data, key, spec, scope)
        if isinstance(lo, list) or isinstance(hi, list):
            raise data.error(key, "a scalar variable has one domain [lo, hi]; per-cell bounds "
                                  "are for arrays ({size = n, domain = [lo, hi]})")
        model.add_variable(name, lo, hi)
    elif isinstance(spec, dict):
        data.unknown_keys({"size", "shape", "domain"}, spec, key + ".")
        where = key + ".domain"
        lo, hi = _interval(data, where, data.get("domain", list, table=spec, prefix=key + "."),
                           scope)
        shape = _shape(data, key, spec, scope) or [_size(data, key, spec, scope, lo, hi)]
        try:  # before any list of that size is built
            check_size(f"array {name}: variables", len(model.domains) + math.prod(shape),
                       MAX_VARIABLES)
        except ModelError as err:
            raise data.error(key + ".size", str(err)) from None
        los = array_values(data, where + ".lo", lo, shape, name)
        his = array_values(data, where + ".hi", hi, shape, name)
        for i, (a, b) in enumerate(zip(los, his)):
            if a > b:
                raise data.error(where, f"cell {i}: empty domain {a}..{b}")
        cells = itertools.product(*(range(n) for n in shape))
        for index, a, b in zip(cells, los, his):
            model.add_variable(name + "".join(f"[{i}]" for i in index), a, b)
    else:
        raise data.error(key, "expected [lo, hi] or {size = n, domain = [lo, hi]}")


def _size(data: Data, key: str, spec: dict, scope: Scope, lo: Any, hi: Any) -> int:
    """The size of a 1-D array: ``size``, else the length of a per-cell bound's list."""
    if "size" in spec:
        size = integer(data, key + ".size", spec["size"], scope)
    elif isinstance(lo, list) or isinstance(hi, list):
        size = len(lo if isinstance(lo, list) else hi)
    else:
        raise data.error(key + ".size", "missing")
    if size < 1:
        raise data.error(key + ".size", "must be at least 1")
    return size


def _shape(data: Data, key: str, spec: dict, scope: Scope) -> list[int]:
    """``shape = [rows, cols, ...]`` of an array (``[]`` when absent): variables
    ``name[i][j]...``, declared row by row."""
    if "shape" not in spec:
        return []
    if "size" in spec:
        raise data.error(key + ".shape", "give either size or shape, not both")
    shape = integers(data, key + ".shape", spec["shape"], scope)
    if not shape or any(n < 1 for n in shape):
        raise data.error(key + ".shape", f"expected a list of sizes of at least 1, "
                                         f"got {shown(spec['shape'])}")
    check_size(f"array {key}: variables", math.prod(shape), MAX_VARIABLES)
    return shape


def _interval(data: Data, key: str, spec: list, scope: Scope) -> tuple[Any, Any]:
    """``[lo, hi]``: each an integer, a constant expression, or one bound per cell (a list,
    flat or nested as the array's shape, or a string naming a constant array such as
    ``"cap"``), as :func:`read_values` reads it."""
    if len(spec) != 2:
        raise data.error(key, f"a domain is [lo, hi], got {shown(spec)}")
    lo, hi = (read_values(data, f"{key}.{which}", bound, scope)
              for which, bound in zip(("lo", "hi"), spec))
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        raise data.error(key, f"empty domain {lo}..{hi}")
    return lo, hi


def read_values(data: Data, key: str, value: Any, scope: Scope) -> int | list:
    """An integer or a (nested) list of integers as the file writes it: numbers, constant
    expressions (``"n"``, ``"2 * n"``) and constant lists (``"cap"``, ``"[0] * n"``), at
    any depth.  The nesting is kept: :func:`array_values` checks it against a shape."""
    if isinstance(value, list):
        return [read_values(data, f"{key}[{i}]", v, scope) for i, v in enumerate(value)]
    if isinstance(value, str):  # read once: a constant list, else a constant integer
        found = _constant(data, key, value, scope)
        if isinstance(found, Const):
            return found.value
        if not isinstance(found, list) or not all(isinstance(v, Const) for v in _leaves(found)):
            raise data.error(key, f"{shown(value)} is not an integer or a list of integers")
        return _plain(found)
    return integer(data, key, value, scope)


def _plain(found: list) -> list:
    """A nested list of :class:`Const` as the same nested list of integers."""
    return [_plain(v) if isinstance(v, list) else v.value for v in found]


def array_values(data: Data, key: str, value: int | list, shape: list[int], name: str
                 ) -> list[int]:
    """The value of every cell of array ``name`` (of ``shape``), row by row, from ``value``
    as :func:`read_values` read it at ``key``: one integer for every cell, a flat list of
    every cell row by row, or lists nested as the shape (``[[1, 0], [0, 1]]`` for a 2 x 2
    array).  Any other list is refused in one line saying what was expected."""
    total = math.prod(shape)
    if isinstance(value, int):
        return [value] * total
    flat = not any(isinstance(v, list) for v in value)
    if flat and len(value) == total:
        return list(value)
    misfit = None if flat else _misfit(value, shape, name)
    if not flat and misfit is None:
        return list(_leaves(value))
    wanted = _layout(shape) + (f" (or {total} values row by row)" if len(shape) > 1 else "")
    got = f"got {_count(len(value), 'value')}" if flat else misfit
    raise data.error(key, f"expected {wanted}; {got}")


def shape_of(cells: list) -> list[int]:
    """The shape of an array of the scope (its cells as nested lists of variables)."""
    shape = []
    while isinstance(cells, list):
        shape.append(len(cells))
        cells = cells[0]
    return shape


def cell_names(cells: list) -> list[str]:
    """The names of an array's cells (nested lists of variables), row by row."""
    return [v.name for v in _leaves(cells)]


def _layout(shape: list[int]) -> str:
    """``shape`` in words: "3 values", "4 rows of 4 values", "2 lists of 3 rows of 4 values"."""
    if len(shape) == 1:
        return _count(shape[0], "value")
    if len(shape) == 2:
        return f"{_count(shape[0], 'row')} of {_count(shape[1], 'value')}"
    return f"{_count(shape[0], 'list')} of {_layout(shape[1:])}"


def _misfit(value: Any, shape: list[int], path: str) -> str | None:
    """Where ``value`` does not nest as ``shape`` (``path`` names it: ``x``, ``x[2]``), in
    words; None when it does."""
    row = "row " if len(shape) == 1 and "[" in path else ""
    unit = "value" if len(shape) == 1 else "row" if len(shape) == 2 else "list"
    if not isinstance(value, list):
        return f"{row}{path} is {value}, not a list of {_layout(shape)}"
    if len(value) != shape[0]:
        return f"{row}{path} has {_count(len(value), unit)}"
    for i, item in enumerate(value):
        if len(shape) == 1 and isinstance(item, list):
            return f"{path}[{i}] is a list, not a value"
        if len(shape) > 1 and (where := _misfit(item, shape[1:], f"{path}[{i}]")) is not None:
            return where
    return None


def _count(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def free_indices(data: Data, key: str, target: str, local: dict) -> list[dict[str, int]]:
    """The bindings of the names in ``target``'s indexes that are not in scope (``x[k]``:
    ``k`` over the indexes of ``x``); ``[{}]`` when every index is known."""
    try:
        node = ast.parse(one_line(target), mode="eval").body
    except SyntaxError:
        return [{}]  # parse_in reports it
    indexes: list[ast.AST] = []
    while isinstance(node, ast.Subscript):
        indexes.append(node.slice)
        node = node.value
    if not isinstance(node, ast.Name) or not isinstance(local.get(node.id), list):
        return [{}]
    indexes.reverse()
    out: list[dict[str, int]] = [{}]
    for depth, index in enumerate(indexes):
        if not (isinstance(index, ast.Name) and index.id not in local):
            continue
        grown = []
        for binding in out:
            level = local[node.id]
            for earlier in indexes[:depth]:
                i = (binding[earlier.id] if isinstance(earlier, ast.Name) and earlier.id
                     in binding else None)
                if i is None:
                    expr = parse_in(data, key, ast.unparse(earlier),
                                    {**local, **{k: Const(v) for k, v in binding.items()}})
                    i = evaluate(expr, {}) if not variables(expr) else 0
                level = level[i] if isinstance(level, list) and 0 <= i < len(level) else []
            if index.id in binding:
                grown.append(binding)
            elif isinstance(level, list):
                grown.extend({**binding, index.id: i} for i in range(len(level)))
            else:
                grown.append(binding)  # not an array at this depth: parse_in says so
        out = grown
    return out
