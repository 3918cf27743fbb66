"""Why the article of seed 004 finds 8,217 five-given puzzles where there are 10,090.

    python benchmarks/seed004_article.py [path/to/seed004.txt]

Runs the article's own Perl generator (cut out of the seed text; needs
``perl``), brings every puzzle it prints to its canonical form under the
board's symmetries and renaming, and compares with cpsolve's exhaustive list.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from cpsolve.model.symmetry.canonical import canonical_puzzle
from cpsolve.puzzles.files import load
from cpsolve.workflows.grids.generator import Generator

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT.parent / "shared" / "seeds" / "004_c11124d7b8cc0394.txt"


def article_program(text: str) -> str:
    """The second Perl listing of the article, without its line numbers."""
    start = text.index(" 1  use strict;\n 2  my @pattern")
    lines = []
    for line in text[start:].splitlines():
        m = re.match(r"^ ?(\d+)  ?(.*)$", line)
        if not m:
            break
        lines.append(m.group(2))
    return "\n".join(lines) + "\n"


def main() -> None:
    seed = Path(sys.argv[1]) if len(sys.argv) > 1 else SEED
    with tempfile.NamedTemporaryFile("w", suffix=".pl", delete=False) as f:
        f.write(article_program(seed.read_text(encoding="utf-8")))
    out = subprocess.run(["perl", f.name], capture_output=True, text=True, check=True).stdout
    puzzle = load(ROOT / "models" / "xsudoku5.toml")
    gen = Generator(puzzle.model, puzzle.symmetry(), "pyconstraint")
    sym = gen.sym
    for k in (4, 5):
        ours = {canonical_puzzle(sym, p.givens): p.minimal for p in gen.every(k).puzzles}
        theirs, cell_sets = [], {}
        for line in out.splitlines():
            cells, pattern = line.split("|")
            idx = [int(i) for i in cells.split(":")]
            if len(idx) == k:
                givens = {sym.variables[i]: "ABCDE".index(pattern[i]) + 1 for i in idx}
                theirs.append(canonical_puzzle(sym, givens))
                cell_sets.setdefault(theirs[-1], set()).add(cells)
        seen = Counter(theirs)
        same_cells = sum(c - 1 for key, c in seen.items() if len(cell_sets[key]) == 1)
        distinct = set(seen)
        assert distinct <= ours.keys(), "the article printed a puzzle that is not unique"
        minimal = sum(1 for c in distinct if ours[c])
        missed = ours.keys() - distinct
        print(f"{k} givens: article {len(theirs):,} lines = {len(distinct):,} classes + "
              f"{len(theirs) - len(distinct):,} repeats; cpsolve {len(ours):,} classes "
              f"({sum(ours.values()):,} minimal)")
        print(f"  article's classes: {minimal:,} minimal, {len(distinct) - minimal:,} not "
              f"minimal; never reached: {len(missed):,} ({sum(ours[c] for c in missed):,} "
              f"minimal)")
        print(f"  repeats that are the same cells with mirror-image symbols: {same_cells:,}")


if __name__ == "__main__":
    main()
