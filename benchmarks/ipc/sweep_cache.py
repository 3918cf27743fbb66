"""The IPC sweep's results file: one JSON line per run, keyed by domain, engine and limit.

A run is one planner on one domain's instance at one time limit: ``engine`` is ``fd``
(Fast Downward), ``search`` (cpsolve's search engine) or ``validate`` (cpsolve's checker on
Fast Downward's plan).  A run that *finished* (an answer, a proof, a refusal that names a
feature, a verdict) stays valid at any larger limit, so a sweep at 60 s reuses what a sweep
at 30 s finished and re-runs only what hit the 30 s limit.
"""

from __future__ import annotations

import json
from pathlib import Path

ENGINES = ("fd", "search", "validate")
PROVEN = ("optimal", "infeasible")
"""cpsolve's statuses that end a run before its limit (a proof either way)."""


def finished(record: dict) -> bool:
    """Whether ``record``'s answer would be the same at a larger limit."""
    engine = record["engine"]
    if engine == "fd":  # only its time limit depends on the limit (memory, failures don't)
        return record.get("fd_status") != "time"
    if engine == "search":
        return ("refused" in record and "refused_lines" in record) or \
            record.get("cp_status") in PROVEN
    return record.get("val_code") not in (None, -1)


class Cache:
    """The runs of a results file (later lines win), appended to as runs end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.runs: dict[tuple[str, str], dict[float, dict]] = {}
        if path.exists():
            for line in path.read_text().splitlines():
                if line.strip():
                    self.add(json.loads(line), write=False)

    def add(self, record: dict, write: bool = True) -> dict:
        """Keep ``record`` (``domain``, ``engine``, ``limit`` among its fields); append it
        to the file (one write: shards running at once append to the same file)."""
        key = (record["domain"], record["engine"])
        self.runs.setdefault(key, {})[float(record["limit"])] = record
        if write:
            with self.path.open("a") as out:
                out.write(json.dumps(record) + "\n")
        return record

    def best(self, domain: str, engine: str, limit: float) -> dict | None:
        """The run at ``limit`` itself, else the finished one at the largest smaller limit."""
        runs = self.runs.get((domain, engine), {})
        if limit in runs:
            return runs[limit]
        smaller = [runs[x] for x in sorted(runs) if x < limit and finished(runs[x])]
        return smaller[-1] if smaller else None

    def latest(self, domain: str, engine: str, limit: float) -> dict | None:
        """The run at the largest limit not above ``limit``, finished or not."""
        runs = self.runs.get((domain, engine), {})
        below = [x for x in runs if x <= limit]
        return runs[max(below)] if below else None


FD_FIELDS = ("problem", "fd_cost", "fd_status", "fd_seconds", "fd_search")
SEARCH_FIELDS = ("cp_code", "cp_seconds", "cp_status", "cp_cost", "cp_error", "refused")
VALIDATE_FIELDS = ("val_code", "val_valid", "val_cost", "val_error")


def split_row(row: dict, limit: float) -> list[dict]:
    """A row of the older, one-line-per-domain results file as runs at ``limit`` (its
    refusals without their line count are left out: they are re-run to count lines)."""
    base = {"domain": row["domain"], "limit": limit}
    if "problem" not in row:
        return []
    out = [{**base, "engine": "fd", **{k: row[k] for k in FD_FIELDS if k in row}}]
    if "refused" not in row:
        out.append({**base, "engine": "search", "problem": row["problem"],
                    **{k: row[k] for k in SEARCH_FIELDS if k in row}})
    if "val_code" in row:
        out.append({**base, "engine": "validate", "problem": row["problem"], "fd_limit": limit,
                    **{k: row[k] for k in VALIDATE_FIELDS if k in row}})
    return out
