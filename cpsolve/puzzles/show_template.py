"""How a ``transition`` or ``csp`` file draws an assignment: its ``show`` template and
``[labels]``, read and checked once (:func:`template`), kept as a :class:`Template`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..language.expr import Var
from ..language.interpret import evaluate
from ..language.parse import parse
from ..language.quoting import shown
from ..language.scope import Scope
from ..language.syntax import ExprError
from ..language.walk import variables
from ..model import Csp, Planning
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
