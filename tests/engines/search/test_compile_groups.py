"""The grouping of actions by a shared guard pin, which the generated successor code tests
once per group (:meth:`cpsolve.engines.search.compile.Task._group`)."""

from __future__ import annotations

import random

from cpsolve.engines.search.compile import Task


def test_the_most_shared_pin_groups_first_and_every_action_once():
    pinned = [{(0, 1)}, {(0, 1), (1, 2)}, {(1, 2)}, {(1, 2), (2, 0)}, set()]
    # (1, 2) is held by three actions, (0, 1) then by the one left that holds it
    assert Task._group(pinned) == [((1, 2), [1, 2, 3]), ((0, 1), [0]), (None, [4])]


def test_groups_partition_the_actions_and_each_member_holds_its_pin():
    rng = random.Random(7)
    pinned = [{(rng.randrange(5), rng.randrange(3)) for _ in range(rng.randrange(4))}
              for _ in range(300)]
    groups = Task._group(pinned)
    members = [k for _, ks in groups for k in ks]
    assert sorted(members) == list(range(300))
    assert all(pin is None or pin in pinned[k] for pin, ks in groups for k in ks)
    sizes = [len(ks) for pin, ks in groups if pin is not None]
    # greedy: a group is never smaller than what any pin could still have taken at its turn
    left = set(range(300))
    for (_pin, ks), size in zip(groups, sizes):
        best = max(sum(1 for k in left if p in pinned[k]) for k in left for p in pinned[k])
        assert size == best
        left -= set(ks)
