"""The engine registry: an engine that cannot be imported is an error, not a skip."""

from __future__ import annotations

import pytest

from cpsolve import engines
from cpsolve.model import Csp


def test_every_engine_applies_to_a_small_csp():
    csp = Csp("one variable")
    csp.add_variable("x", 0, 1)
    assert engines.engines_for(csp, "count") == ["cpsat", "search", "pyconstraint"]


def test_an_engine_that_fails_to_import_raises(monkeypatch):
    monkeypatch.setitem(engines.ENGINES, "broken", "cpsolve.engines.no_such_module")
    csp = Csp("one variable")
    csp.add_variable("x", 0, 1)
    with pytest.raises(ImportError, match="engine 'broken'"):
        engines.engines_for(csp, "solve")
