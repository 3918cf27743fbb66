"""The IPC sweep's docs page: its summary, then one row per domain."""

from __future__ import annotations

import re
import statistics

SOURCE = "https://github.com/aibasel/downward-benchmarks"

FD_WORDS = {"exit 34": "unsupported (LM-cut: conditional effects or axioms)",
            "exit 1": "failed (exit 1)", "time": "time limit"}
"""Fast Downward's outcomes in words (exit 34: the search does not support the task)."""


def verdict(row: dict) -> str:
    """The row's comparison in a word."""
    if "refused" in row:
        return "refused"
    if row.get("fd_cost") is None or row.get("cp_status") != "optimal":
        return "-"
    return "same" if row["cp_cost"] == row["fd_cost"] else "DIFFERENT"


def one_line_refusal(row: dict) -> bool:
    """Whether a refusal is cpsolve's one line naming a feature (exit 2, one stderr line),
    not a crash, a kill or a traceback."""
    return row.get("cp_code") == 2 and row.get("refused_lines", 1) == 1


def summary(rows: list[dict], limit: float) -> list[str]:
    """The page's figures."""
    grounded = [r for r in rows if "refused" not in r and r.get("cp_status") not in
                (None, "error")]
    refused = [r for r in rows if "refused" in r]
    named = len([r for r in refused if one_line_refusal(r)])
    fd_all = [r for r in rows if r.get("fd_cost") is not None]
    by_fd = [r for r in grounded if r.get("fd_cost") is not None]
    finished = [r for r in by_fd if r.get("cp_status") == "optimal"]
    different = [r for r in finished if r["cp_cost"] != r["fd_cost"]]
    valid = [r for r in by_fd if r.get("val_valid") and r.get("val_cost") == r["fd_cost"]]
    reused = [r for r in rows if min(r.get("fd_limit", limit), r.get("cp_limit", limit)) < limit]
    loads = [x for r in rows for x in r.get("loads", [])]
    load = (f"; the load average (1 min) as runs ended: median {statistics.median(loads):g}, "
            f"{min(loads):g} to {max(loads):g}" if loads else "")
    return [
        f"- domains: {len(rows)}; parsed and grounded by cpsolve within the limit: "
        f"{len(grounded)}; not taken: {len(refused)} ({named} refused in one line "
        f"naming the feature, {len(refused) - named} crashed or killed); the limit reached "
        "while translating or grounding: "
        f"{len([r for r in rows if r.get('cp_status') == 'error'])}",
        f"- solved by Fast Downward (seq-opt-lmcut; A* with the blind heuristic where LM-cut "
        f"refuses the task): {len(fd_all)} ({len(by_fd)} of them "
        f"grounded by cpsolve); of those {len(fd_all)} cpsolve's search proved the optimum "
        f"on {len(finished)} ({100 * len(finished) / max(1, len(fd_all)):.0f} %), with "
        f"{len(different)} disagreement(s)",
        f"- Fast Downward's plan valid by `cpsolve validate`, at its cost: {len(valid)} of "
        f"{len([r for r in by_fd if r.get('val_code', -1) != -1])} checked within the "
        "limit",
        f"- runs reused from a sweep at a smaller limit (they had finished there; column "
        f"\"run at\"): {len(reused)} domains{load}"]


def limits_text(limit: float) -> list[str]:
    """What the limit was for each planner, and what the seconds of the table measure."""
    return [
        f"The limit is not one clock. Fast Downward runs with `--overall-time-limit "
        f"{limit:g}s`, which its driver counts in CPU seconds (its translator's and its "
        "search's, each component given the CPU time left through RLIMIT_CPU), and the "
        f"script kills it at {limit + 30:g} s of wall time (the limit + 30 s). cpsolve runs "
        f"with `--time-limit {limit:g}`: wall time, within which it is to end its work "
        "(docs/reference/engines.md: within 10 % or 0.5 s, the answer's writing "
        f"excepted); the script would kill it at {limit + 60:g} s. The columns \"FD s\" and "
        "\"s\" are the wall time of the whole process, as the script timed it. At the load "
        "below (a load average of about 20 on two cores) a process gets a tenth of a core or so, "
        f"so Fast Downward's {limit:g} CPU seconds take far longer than {limit:g} s: its "
        f"runs that solved past {limit:g} s stayed within its CPU limit, and each \"time "
        f"limit\" of Fast Downward at {limit + 30:g} s is the script's kill, before Fast "
        f"Downward had used its {limit:g} CPU seconds. A row run at 30 s (column \"run "
        "at\") had a limit of 30 s: 30 CPU seconds and a kill at 60 s for Fast Downward, "
        "30 s for cpsolve."]


def overruns(rows: list[dict]) -> list[str]:
    """How far past its limit each of cpsolve's runs that hit it ended, against the
    promise of docs/reference/engines.md (the command's work within 10 % or 0.5 s)."""
    lines = []
    for limit in sorted({r["cp_limit"] for r in rows if "cp_limit" in r}):
        hit = [r for r in rows if r.get("cp_limit") == limit and "cp_seconds" in r
               and r.get("cp_status") in ("unknown", "error")]
        if not hit:
            continue
        over = [r for r in hit if r["cp_seconds"] > max(1.1 * limit, limit + 0.5)]
        most = max(hit, key=lambda r: r["cp_seconds"])
        lines.append(
            f"- cpsolve's runs at {limit:g} s that reached the limit: {len(hit)}, ended at "
            f"{min(r['cp_seconds'] for r in hit):g} to {most['cp_seconds']:g} s; "
            f"{len(over)} of them more than 10 % (and 0.5 s) past it: past what "
            "docs/reference/engines.md promises"
            + (f" (the most: {most['domain']}, {most['cp_seconds']:g} s, "
               f"{100 * (most['cp_seconds'] / limit - 1):.0f} % past)" if over else ""))
    return lines


def table(rows: list[dict], limit: float) -> str:
    """The docs page: summary, then one row per domain."""
    lines = [
        "# The IPC sweep: the smallest instance of every domain", "",
        f"Source: <{SOURCE}> (Fast Downward's collection of IPC benchmarks), the smallest "
        "problem file of each domain folder. Made by `python benchmarks/ipc/sweep.py "
        f"--time-limit {limit:g}`, the two planners one after the other on a shared two-core "
        "machine.", "", *limits_text(limit), "",
        *summary(rows, limit), *overruns(rows), "",
        "| domain | problem | FD cost | FD s | cpsolve | cost | s | run at | FD plan valid | "
        "verdict / refusal |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    lines += [table_row(r, limit) for r in rows]
    return "\n".join(lines) + "\n"


def table_row(r: dict, limit: float) -> str:
    """One domain's line of the table."""
    why = re.sub(r"^error: \S+: ", "", r.get("refused", verdict(r))).replace("|", "/")
    val = "" if "val_code" not in r else "time" if r["val_code"] == -1 else (
        "yes" if r.get("val_valid") and r.get("val_cost") == r.get("fd_cost") else "NO")
    if r.get("cp_status") == "error":
        why = "a limit (time or memory) reached while translating or grounding"
    fd = r.get("fd_cost") if r.get("fd_cost") is not None else FD_WORDS.get(
        r.get("fd_status", ""), r.get("fd_status", ""))
    if r.get("fd_search") and r.get("fd_cost") is not None:
        fd = f"{fd} (blind)"
    at = sorted({f"{r[k]:g}" for k in ("fd_limit", "cp_limit") if k in r})
    return (f"| {r['domain']} | {r.get('problem', '')} | {fd} | {r.get('fd_seconds', '')} | "
            f"{r.get('cp_status', '')} | "
            f"{r.get('cp_cost') if r.get('cp_cost') is not None else ''} | "
            f"{r.get('cp_seconds', '')} | {'/'.join(at) if at else limit} | {val} | {why} |")
