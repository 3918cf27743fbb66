"""What generation returns: puzzles, and the figures behind them."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Generated:
    """One puzzle: its givens, its unique solution, whether it is minimal.

    ``checked`` names the engine that re-solved it and found it unique.
    """

    givens: dict[str, int]
    solution: dict[str, int]
    minimal: bool | None = None
    checked: str | None = None


@dataclass(frozen=True)
class Tally:
    """How many unique puzzles with ``givens`` givens there are, counted three ways.

    ``classes`` up to symmetry (board symmetries and renaming); ``renamed``
    up to renaming only (``None`` when values cannot be renamed);
    ``labelled`` as they are, with concrete values and no symmetry;
    ``minimal`` classes that are minimal.
    """

    givens: int
    classes: int
    minimal: int
    renamed: int | None
    labelled: int


@dataclass(frozen=True)
class Generation:
    """The answer of one generation: the puzzles, and the figures when exhaustive.

    ``method`` is ``"exhaustive"`` (every class, figures exact) or
    ``"random"`` (``puzzles`` were drawn; ``tally`` is ``None`` unless they
    were drawn from an exhaustive list).  ``short`` says why the generation gave less
    than was asked (stopped by Ctrl-C or a limit, random attempts used up, fewer classes
    than asked for); ``""`` when it gave all of it.
    """

    givens: int
    method: str
    puzzles: tuple[Generated, ...]
    tally: Tally | None = None
    seconds: float = 0.0
    message: str = ""
    details: dict[str, object] = field(default_factory=dict)
    short: str = ""
