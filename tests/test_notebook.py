"""examples/pictures.ipynb runs top to bottom in a fresh kernel, and shows pictures."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "pictures.ipynb"


def test_pictures_notebook_runs_and_draws():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    kinds = [key for cell in nb.cells if cell.cell_type == "code"
             for out in cell.outputs for key in out.get("data", {})]
    assert not [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert kinds.count("image/svg+xml") == 2  # the sudoku's givens, one ON-OFF state
    assert kinds.count("text/html") == 5  # a result's summary, four drawn answers
