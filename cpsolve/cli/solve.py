"""``cpsolve solve``, ``count`` and ``analyze``: one model through one engine (or ``auto``'s
race: :mod:`.one_model`), or a batch of instances (several files, a directory, a
collection: :mod:`.batch`)."""

from __future__ import annotations

from ..engines.runtime.clock import TimeUp
from ..puzzles.files import resolve
from .one_model import one
from .session import Cli
from .sources import pddl_pairs


def solve(cli: Cli) -> int:
    """``solve``: one instance, a PDDL domain and problem, or a batch.  A batch the
    command's clock cuts before it began (its files named: several, a directory, a PDDL
    domain's problems) still answers with its rows (:func:`.batch.batch`)."""
    try:
        return _solve(cli)
    except TimeUp:
        pairs = pddl_pairs(cli.args.files)
        if not (len(pairs) > 1 if pairs else named_batch(cli.args.files)):
            raise  # one instance (or a collection not read yet): the error line
        from .batch import cut_before_rows

        return cut_before_rows(cli, pairs or None)


def named_batch(files: list[str]) -> bool:
    """True when the names alone make a batch: several files, or a directory (a collection
    is one file, known to be a batch once read: :func:`is_batch`)."""
    return len(files) > 1 or resolve(files[0]).is_dir()


def _solve(cli: Cli) -> int:
    """:func:`solve`, the clock aside."""
    args = cli.args
    args.file = args.files[0]
    pairs = pddl_pairs(args.files)
    several = len(pairs) > 1 if pairs else is_batch(cli)
    if several and args.plan_file:
        return cli.fail("--plan-file writes the plan of one instance: give one", 2)
    if pairs:
        if len(pairs) > 1:  # several problems of one domain: a batch
            from .batch import batch

            return batch(cli, pairs)
        args.file = pairs[0]
    elif several:
        from .batch import batch

        return batch(cli)
    if cli.cluster():
        return cli.fail("--workers and --scheduler run batches (several files, a "
                        "directory or a collection): one instance runs here", 2)
    return one(cli, "solve")


def count(cli: Cli) -> int:
    """``count``: solutions of a csp, or (``--optimal``) the optimal plans; ``--up-to``
    counts classes (:mod:`.grids`)."""
    if cli.args.up_to:
        from .grids import count_up_to

        return count_up_to(cli)
    return one(cli, "count")


def analyze(cli: Cli) -> int:
    """``analyze``: the state space of a planning model."""
    return one(cli, "analyze")


def is_batch(cli: Cli) -> bool:
    """True when ``solve`` was given several files, a directory or a collection."""
    from ..puzzles.files import load_many

    names = cli.args.files
    if named_batch(names):
        return True
    what, path = f"loading {names[0]}", resolve(names[0])
    with cli.reading(what), cli.guarded(what, path):
        puzzles = load_many(path)
        first, second = next(puzzles, None), next(puzzles, None)
    if second is None and first is not None:
        cli.loaded[names[0]] = first  # one puzzle: solve() takes it from here
    return second is not None

