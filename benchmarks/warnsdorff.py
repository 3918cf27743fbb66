"""A knight's tour by Warnsdorff's rule: the peer of ``speed_round3.py``'s tour ratio.

    python benchmarks/warnsdorff.py N [--closed]

Warnsdorff (1823): always move to the square with the fewest onward moves; ties go to
the square farthest from the centre (Arnd Roth's tie-break), then to the first in a
fixed order.  The walk starts from the squares of the first row in turn until one
covers the board (an open tour: what the rule gives; measured here it succeeds from
the first square on 50x50).  With ``--closed`` the last square must also be a knight's
move from the first, which plain Warnsdorff rarely achieves (50x50: none from the
first row; the 1,074th start square of the board, 67 s).  So the peer solves the
easier, open problem, while cpsolve's tour is closed: the ratio is conservative.
Plain Python, no cpsolve: a whole process is its own start-up and its walk.
"""

from __future__ import annotations

import sys

JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def tour(n: int, start: tuple[int, int], closed: bool = True) -> list[tuple[int, int]] | None:
    """A tour from ``start`` by Warnsdorff's rule (``closed``: back to a knight's move
    from the start), or None when the walk sticks or does not close."""
    centre = (n - 1) / 2
    seen = [[False] * n for _ in range(n)]

    def free(r: int, c: int) -> list[tuple[int, int]]:
        return [(r + dr, c + dc) for dr, dc in JUMPS
                if 0 <= r + dr < n and 0 <= c + dc < n and not seen[r + dr][c + dc]]

    path = [start]
    seen[start[0]][start[1]] = True
    while len(path) < n * n:
        options = free(*path[-1])
        if not options:
            return None
        nxt = min(options, key=lambda s: (len(free(*s)),
                                          -((s[0] - centre) ** 2 + (s[1] - centre) ** 2)))
        seen[nxt[0]][nxt[1]] = True
        path.append(nxt)
    (r, c), (r0, c0) = path[-1], start
    return path if not closed or (abs(r - r0), abs(c - c0)) in ((1, 2), (2, 1)) else None


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    closed = "--closed" in sys.argv
    kind = "closed" if closed else "open"
    for c in range(n):
        found = tour(n, (0, c), closed)
        if found is not None:
            print(f"{n}x{n} {kind} tour from (0, {c})")
            return
    print(f"{n}x{n} no {kind} tour found")
    sys.exit(1)


if __name__ == "__main__":
    main()
