"""Lights Out 4×4 three ways: what writing an effect once over every cell buys (issue 10).

* ``once``  — the model file of examples/lights_out.toml at n = 4: the effect
  ``"x[k]" = "1 - x[k] if <k next to i> else x[k]"`` is written once; the
  condition is decided when the file is read, so a press writes only the 3-5
  cells it toggles;
* ``every`` — the same file with ``ite(...)`` instead of ``a if c else b``
  (``ite`` is kept as written): every press writes all 16 cells, as files had
  to before;
* ``python`` — the Python API version, writing only the toggled cells (the
  peer the issue compared with).

Prints seconds for the search engine's BFS (all on -> all off) and its full
analysis (the 2^12 = 4,096 boards reachable), measured interleaved, best of
3, and the ratios to ``python``.  Figures, not assertions.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import ROOT, timed  # noqa: E402

from cpsolve import Planning  # noqa: E402
from cpsolve.engines import Options, run  # noqa: E402
from cpsolve.puzzles.files import load  # noqa: E402

N = 4


def from_file(every: bool) -> Planning:
    text = (ROOT / "examples" / "lights_out.toml").read_text(encoding="utf-8")
    text = text.split("[expected]")[0].replace("n = 3", f"n = {N}")
    text = "\n".join(line for line in text.splitlines() if not line.startswith("{x["))
    text = text.replace('show = """', 'show = ""').replace('"""\n\n[constants]', "\n[constants]")
    if every:
        text = text.replace("1 - x[k] if abs", "ite(abs").replace(
            "<= 1   # k is i or next to it", "<= 1, 1 - x[k], x[k])").replace("    else x[k]", "")
    path = Path(tempfile.mkdtemp()) / "lights.toml"
    path.write_text(text, encoding="utf-8")
    return load(path).model


def python_api() -> Planning:
    model = Planning("Lights Out (Python API)")
    x = model.add_array("x", N * N, 0, 1)
    model.set_initial({v.name: 1 for v in x})
    model.set_goal(sum((v for v in x), 0) == 0)
    for i in range(N * N):
        near = [k for k in range(N * N) if abs(k // N - i // N) + abs(k % N - i % N) <= 1]
        model.add_action(f"press {i}", True, {x[k]: 1 - x[k] for k in near})
    return model


def main() -> None:
    models = {"once": from_file(False), "every": from_file(True), "python": python_api()}
    written = {k: sum(len(a.effects) for a in m.actions) for k, m in models.items()}
    print(f"Lights Out {N}x{N}: cells written by the {N * N} presses: {written}")
    best: dict[tuple[str, str], float] = {}
    for _ in range(3):
        for name, model in models.items():
            for task in ("solve", "analyze"):
                result, seconds = timed(lambda m=model, t=task: run("search", t, m,
                                                                    Options(time_limit=120)))
                key = (name, task)
                best[key] = min(best.get(key, seconds), seconds)
                if task == "solve":
                    assert result.steps is not None
    for task in ("solve", "analyze"):
        peer = best[("python", task)]
        line = ", ".join(f"{name} {best[(name, task)]:.3f} s ({best[(name, task)] / peer:.2f}x)"
                         for name in models)
        print(f"search {task}: {line}")


if __name__ == "__main__":
    main()
