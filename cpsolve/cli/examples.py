"""The examples that end each command's ``--help`` (:data:`EXAMPLES`): the command-line
reference lists them and tests/test_docs.py runs every one."""

from __future__ import annotations

import argparse

EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    "": (("cpsolve solve water_jugs", "a bundled model, by name"),
         ("cpsolve compare water_jugs blocks", "every engine, side by side"),
         ("cpsolve show hoppers --plan --html hoppers.html", "a page that plays the plan")),
    "solve": (("cpsolve solve water_jugs", "CP-SAT and search race; the plan step by step"),
              ("cpsolve solve eight_puzzle --engine search --algorithm bidir", ""),
              ("cpsolve solve sudoku_inkala --json", "one JSON object (cpsolve schema)")),
    "compare": (("cpsolve compare water_jugs blocks", "every engine; exit 1 if they disagree"),
                ("cpsolve compare xsudoku5 --task count", "")),
    "count": (("cpsolve count xsudoku5 --engine search", "960 solutions"),
              ("cpsolve count xsudoku5 --up-to relabel", "8 classes"),
              ("cpsolve count hoppers --optimal --list", "every optimal plan, listed")),
    "generate": (("cpsolve generate xsudoku5 --givens 4 5 --count",
                  "unique puzzles up to symmetry"),
                 ("cpsolve generate sudoku4 --givens 4 --random 2 --seed 1", "")),
    "analyze": (("cpsolve analyze eight_puzzle", "states that reach the goal, distances"),
                ("cpsolve analyze eight_puzzle --from start --svg layers.svg", ""),
                ("cpsolve analyze klotski --limit none", "no limit on states")),
    "show": (("cpsolve show knight_8x8 --svg tour.svg", "a csp is solved, then drawn"),
             ("cpsolve show hoppers --plan --html hoppers.html", "a page that plays the plan"),
             ("cpsolve show xsudoku5 --gallery 8 --html gallery.html", "")),
    "export": (("cpsolve export hoppers --to pddl -o out/", "out/hoppers-domain.pddl, ..."),
               ("cpsolve export xsudoku5 --to minizinc -o out/", "out/xsudoku5.mzn, .dzn")),
    "validate": (("cpsolve solve hanoi4 --plan-file plan.txt", "the plan, one (action) a line"),
                 ("cpsolve validate hanoi4 plan.txt", "valid: 15 steps, cost 15")),
    "models": (("cpsolve models", "one line each; use a name anywhere a file goes"),
               ("cpsolve models --json", "")),
    "schema": (("cpsolve schema", "the JSON Schema of every command's --json"),
               ("cpsolve solve water_jugs --json", "an object it describes")),
    "completion": (("cpsolve completion bash", "add eval \"$(...)\" to ~/.bashrc"),
                   ("cpsolve completion zsh", "")),
}
"""Two or three command lines for each command ("": cpsolve itself), with what each shows:
printed at the end of its ``--help``, listed in the command-line reference and run by
tests/test_docs.py."""


def examples_text(command: str) -> str:
    """The examples of ``command`` as its help's epilog."""
    rows = EXAMPLES[command]
    width = max(len(line) for line, _ in rows)
    return "examples:\n" + "\n".join(
        f"  {line:<{width}}  # {what}" if what else f"  {line}" for line, what in rows)


def with_examples(sub: argparse._SubParsersAction) -> None:
    """End every command's help with its :data:`EXAMPLES` (kept as written)."""
    for name, command in sub.choices.items():
        command.epilog = examples_text(name)
        command.formatter_class = argparse.RawDescriptionHelpFormatter
