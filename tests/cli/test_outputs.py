"""What cpsolve reads and writes, where the hostile corpus (plain text files) cannot
set the scene: an empty or too long file name is one line, exit 2; an output that is an
input under another name (a symbolic or hard link, an absolute path through ``..``, a
bundled model's installed file) is refused before any work, one line, exit 2, the input
untouched; a folder's pipes, loops of links and links to devices are rows of their own;
an answer file is called an answer file, and UTF-16 is named."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.mark.parametrize("argv", [
    ["solve", ""], ["compare", ""], ["count", ""], ["analyze", ""], ["export", "", "--to", "pddl"],
    ["validate", "", "x"], ["validate", "water_jugs", ""], ["count", "d.pddl", ""],
    ["solve", "water_jugs", "--plan-file", ""], ["show", "water_jugs", "--svg", ""],
    ["analyze", "water_jugs", "--work-dir", ""], ["export", "water_jugs", "--to", "pddl", "-o", ""],
])
def test_an_empty_file_name_is_refused(cli, tmp_path, monkeypatch, argv):
    """Never the current folder: there `solve ""` ran every Python file."""
    monkeypatch.chdir(tmp_path)
    Path("ran.py").write_text("open('ran', 'w').write('ran')\n")
    run = cli(*argv)
    assert run.code == 2 and len(run.err_lines) == 1 and "an empty file name" in run.err
    assert sorted(os.listdir()) == ["ran.py"]


@pytest.mark.parametrize("argv", [
    ["solve", "a" * 300], ["count", "a" * 300], ["export", "water_jugs", "--to", "pddl", "-o",
                                                 "p/" + "a" * 300],
    ["show", "water_jugs", "--svg", "a" * 256], ["solve", "/".join(["b" * 200] * 21)],
])
def test_a_file_name_too_long_is_refused(cli, argv):
    run = cli(*argv)
    assert run.code == 2 and len(run.err_lines) == 1 and "file name too long" in run.err


def test_names_the_system_takes_are_accepted(cli, tmp_path):
    """255 bytes a name is the limit, not beyond it."""
    path = tmp_path / ("w" * 250 + ".toml")
    path.write_bytes((MODELS / "water_jugs.toml").read_bytes())
    assert cli("solve", path, "--engine", "search").code == 0


@pytest.fixture
def jugs(tmp_path, monkeypatch) -> Path:
    """``o/w.toml``, a copy of water_jugs, in a fresh current folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "o").mkdir()
    model = tmp_path / "o" / "w.toml"
    model.write_bytes((MODELS / "water_jugs.toml").read_bytes())
    return model


def _refused(run, model: Path, text: bytes) -> None:
    assert run.code == 2, (run.code, run.err)
    assert len(run.err_lines) == 1 and "an input of the command" in run.err, run.err
    assert model.read_bytes() == text


def _aliases(model: Path) -> list[str]:
    """Other names of ``model``: a symbolic link, a hard link, an absolute path through .."""
    os.symlink(model, "sym.svg")
    os.link(model, "hard.svg")
    return ["sym.svg", "hard.svg", f"{os.getcwd()}/o/../o/w.toml", "./o/w.toml"]


@pytest.mark.parametrize("engine", ["search", "cpsat", "auto"])
def test_the_plan_file_is_never_one_of_the_inputs(cli, jugs, engine):
    text = jugs.read_bytes()
    for where in _aliases(jugs):
        _refused(cli("solve", "o/w.toml", "--engine", engine, "--plan-file", where), jugs,
                 text)
    run = cli("solve", "o/w.toml", "--engine", engine, "--plan-file", "hard.svg", "--json")
    _refused(run, jugs, text)
    assert json.loads(run.out)["exit"] == 2  # one JSON document: the error object


@pytest.mark.parametrize("argv", [["show", "o/w.toml", "--svg"],
                                  ["show", "o/w.toml", "--html"],
                                  ["show", "o/w.toml", "--plan", "--html"],
                                  ["analyze", "o/w.toml", "--svg"]])
def test_pictures_are_never_written_over_an_input_by_another_name(cli, jugs, argv):
    text = jugs.read_bytes()
    for where in _aliases(jugs):
        _refused(cli(*argv, where), jugs, text)


@pytest.mark.parametrize("argv", [["show", "sudoku4", "--svg", "pic.html"],
                                  ["show", "sudoku4", "--html", "page.svg"],
                                  ["show", "o/w.toml", "--plan", "--html", "page.svg"],
                                  ["analyze", "o/w.toml", "--html", "page.svg"],
                                  ["analyze", "o/w.toml", "--svg", "layers.txt"]])
def test_the_option_not_the_extension_decides_svg_or_html(cli, jugs, argv):
    """``--svg`` writes an SVG and ``--html`` a page whatever the name ends with."""
    run = cli(*argv, "--engine", "search")
    assert run.code == 0, run.err
    head = Path(argv[-1]).read_text(encoding="utf-8")[:40]
    if "--svg" in argv:
        assert head.startswith('<?xml version="1.0"'), head
    else:
        assert head.startswith("<!DOCTYPE html>"), head


def test_a_bundled_model_named_by_name_is_an_input_at_its_installed_path(cli, tmp_path,
                                                                       monkeypatch):
    """``three_jugs`` is read from the bundled folder: a link to that file is refused (the
    bundled folder is a copy here: a regression spoils no real file)."""
    from cpsolve.puzzles import files

    bundled = tmp_path / "bundled"
    bundled.mkdir()
    (bundled / "three_jugs.toml").write_bytes((MODELS / "three_jugs.toml").read_bytes())
    monkeypatch.setattr(files, "MODELS_DIR", bundled)
    monkeypatch.chdir(tmp_path)
    os.symlink(bundled / "three_jugs.toml", "link.txt")
    run = cli("solve", "three_jugs", "--engine", "search", "--plan-file", "link.txt")
    assert run.code == 2 and "an input of the command" in run.err, run.err
    assert (bundled / "three_jugs.toml").read_bytes() == (MODELS / "three_jugs.toml").read_bytes()


@pytest.mark.parametrize("name", ["y.dzn", "x.mzn"])
def test_export_never_writes_over_its_input(cli, tmp_path, monkeypatch, name):
    """MiniZinc's files are STEM.mzn and STEM.dzn: a model named either is refused."""
    monkeypatch.chdir(tmp_path)
    Path(name).write_bytes((MODELS / "xsudoku5.toml").read_bytes())
    text = Path(name).read_bytes()
    run = cli("export", name, "--to", "minizinc", "-o", ".")
    assert run.code == 2 and len(run.err_lines) == 1 and name in run.err, run.err
    assert Path(name).read_bytes() == text
    assert sorted(os.listdir()) == [name]  # nothing written: not even the other file


def test_export_never_writes_over_its_input_through_a_link(cli, tmp_path, monkeypatch):
    """The folder ``-o`` names is a link to the input's folder: the file it would write,
    ``x.dzn`` there, is the input."""
    monkeypatch.chdir(tmp_path)
    Path("src").mkdir()
    model = Path("src/x.dzn")
    model.write_bytes((MODELS / "xsudoku5.toml").read_bytes())
    os.symlink("src", "out")
    run = cli("export", "src/x.dzn", "--to", "minizinc", "-o", "out")
    assert run.code == 2 and "under another name" in run.err, run.err
    assert model.read_bytes() == (MODELS / "xsudoku5.toml").read_bytes()


def test_a_collections_instances_file_is_an_input_too(cli, tmp_path, monkeypatch):
    """Found only once the model is read: refused then, before any engine runs."""
    monkeypatch.chdir(tmp_path)
    Path("c.toml").write_text('family = "grid"\nname = "s4"\nsize = 4\nsymbols = "1234"\n'
                              'groups = ["rows", "columns", "boxes"]\nbox = [2, 2]\n'
                              'instances_file = "l.txt"\n')
    Path("l.txt").write_text("1...............\n")
    os.link("l.txt", "page.html")
    run = cli("show", "c.toml", "--html", "page.html", "--engine", "search")
    assert run.code == 2 and "l.txt" in run.err, run.err
    assert Path("l.txt").read_text() == "1...............\n"


@pytest.mark.parametrize("where", ["-", "/dev/stdout"])
def test_the_plan_file_on_stdout_leaves_json_alone(cli, where):
    run = cli("solve", "water_jugs", "--plan-file", where, "--json")
    assert run.code == 2 and "--json holds" in run.err
    assert json.loads(run.out)["exit"] == 2


@pytest.mark.parametrize("argv", [
    ["analyze", "water_jugs", "--svg", "-"], ["analyze", "water_jugs", "--html", "-"],
    ["show", "water_jugs", "--svg", "-"], ["show", "water_jugs", "--plan", "--html", "-"],
    ["solve", "water_jugs", "--plan-file", "-"],
], ids=["analyze svg", "analyze html", "show svg", "show html", "solve plan file"])
def test_a_picture_page_or_plan_on_stdout_is_all_stdout_holds(cli, argv):
    """``-`` is stdout, for a file to pipe on: a picture parses as one XML document, a page
    is one HTML document from its doctype on, a plan file is the jugs' 10 moves (DESIGN.md)
    as IPC lines and its cost line — no text report before or after, no ``wrote`` line."""
    from xml.dom.minidom import parseString

    run = cli(*argv)
    assert run.code == 0, run.err
    if "--svg" in argv:
        assert parseString(run.out.encode()).documentElement.tagName == "svg"
    elif "--html" in argv:
        assert run.out.startswith("<!DOCTYPE html>") and run.out.rstrip().endswith("</html>")
    else:
        lines = run.out.splitlines()
        assert len(lines) == 11 and all(line.startswith("(") for line in lines[:10])
        assert lines[10] == "; cost = 10 (unit cost)"


def test_a_picture_to_dev_stdout_is_all_stdout_holds_too(cli_subprocess):
    """``/dev/stdout`` is stdout by another name: the same picture alone, no report."""
    from xml.dom.minidom import parseString

    run = cli_subprocess("analyze", "water_jugs", "--svg", "/dev/stdout")
    assert run.code == 0, run.err
    assert parseString(run.out.encode()).documentElement.tagName == "svg"


def test_every_picture_written_to_a_file_is_said_the_same_way(cli, tmp_path):
    """``analyze --svg FILE`` ends as ``show`` does: ``wrote FILE (what, by ENGINE)``.  The
    jugs (8 L, 5 L) reach the 26 states where one jug is empty or full (2 * 6 + 7 * 2),
    in the words of the report's headline."""
    out = tmp_path / "layers.svg"
    run = cli("analyze", "water_jugs", "--svg", out)
    assert run.code == 0 and out.read_text().startswith("<?xml")
    said = run.out.splitlines()[-1]
    assert said.startswith(f"wrote {out} (26 states reachable from the start, ")
    assert said.endswith(", by search)")
    shown = cli("show", "water_jugs", "--plan", "--html", tmp_path / "plan.html")
    assert shown.out.splitlines()[-1].startswith(f"wrote {tmp_path / 'plan.html'} (10 moves")
    assert shown.out.rstrip().endswith(", by search)")


def test_a_folder_lists_what_it_cannot_read_as_rows_of_their_own(cli, tmp_path):
    """A pipe, a loop of links, a link to a device and a link to nothing, named *.toml or
    *.py, are error rows (exit 2), never skipped; a sub-folder is no model file."""
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "a.toml").write_bytes((MODELS / "water_jugs.toml").read_bytes())
    os.mkfifo(folder / "pipe.toml")
    os.mkfifo(folder / "pipe.py")
    os.symlink("loop.toml", folder / "loop.toml")
    os.symlink("/dev/zero", folder / "zero.toml")
    os.symlink("nowhere.toml", folder / "gone.toml")
    (folder / "sub.toml").mkdir()
    run = cli("solve", folder, "--engine", "search", "--json")
    assert run.code == 2, run.err
    rows = [json.loads(line) for line in run.out.splitlines()][:-1]
    errors = {Path(r["source"]).name: r["error"] for r in rows if "error" in r}
    assert [Path(r["source"]).name for r in rows if "error" not in r] == ["a.toml"]
    assert sorted(errors) == ["gone.toml", "loop.toml", "pipe.py", "pipe.toml", "zero.toml"]
    for name in ("pipe.py", "pipe.toml", "zero.toml"):
        assert "not a regular file" in errors[name]
    assert "symbolic link" in errors["loop.toml"] and "does not exist" in errors["gone.toml"]


@pytest.mark.parametrize("make, said", [
    (lambda p: p.mkdir(), "is a directory, not an answer file"),
    (lambda p: p.write_bytes(b"x" * (16 * 1024 * 1024 + 1)), "answer files are limited"),
    (lambda p: p.write_bytes("fill the 5 L jug\n".encode("utf-16")), "UTF-16"),
])
def test_an_answer_file_is_called_an_answer_file(cli, tmp_path, make, said):
    answer = tmp_path / "v"
    make(answer)
    run = cli("validate", "water_jugs", answer)
    assert run.code == 2 and len(run.err_lines) == 1 and said in run.err, run.err
    assert "model file" not in run.err


@pytest.mark.parametrize("encoding, said", [("utf-16", "UTF-16"), ("utf-16-le", "UTF-16"),
                                            ("utf-16-be", "UTF-16"), ("utf-32", "UTF-32")])
def test_a_model_in_utf_16_is_named_so(cli, tmp_path, encoding, said):
    path = tmp_path / "w.toml"
    path.write_bytes((MODELS / "water_jugs.toml").read_text().encode(encoding))
    run = cli("solve", path)
    assert run.code == 2 and f"in {said}: save it as UTF-8" in run.err, run.err


def test_a_latin1_model_names_the_line_and_column(cli, tmp_path):
    path = tmp_path / "w.toml"
    path.write_bytes(b"# 8 L \xd7 5 L\n" + (MODELS / "water_jugs.toml").read_bytes())
    run = cli("solve", path)
    assert run.code == 2
    assert run.err_lines == [f"error: {path}: not UTF-8 text (line 1, column 7: byte 0xd7): "
                             "save it as UTF-8, the encoding cpsolve reads"]


def test_a_model_inside_a_work_directorys_run_folder_is_never_removed(cli, tmp_path,
                                                                      monkeypatch):
    """A run that does not resume removes its ``bfs-*`` folder: a model kept there is
    refused, by any name of the folder; one beside the run folders is fine."""
    monkeypatch.chdir(tmp_path)
    run_folder = tmp_path / "work" / "bfs-0123456789abcdef"
    run_folder.mkdir(parents=True)
    model = run_folder / "w.toml"
    model.write_bytes((MODELS / "water_jugs.toml").read_bytes())
    os.symlink("work", "alias")
    for work in ("work", "alias", "./work/../work"):
        run = cli("analyze", str(model), "--work-dir", work)
        assert run.code == 2 and len(run.err_lines) == 1, (run.code, run.err)
        assert "run folder bfs-0123456789abcdef" in run.err
        assert model.exists()
    beside = tmp_path / "work" / "w.toml"
    beside.write_bytes(model.read_bytes())
    assert cli("analyze", str(beside), "--work-dir", "work").code == 0


class ReaderGone:
    """A stdout whose reader has gone before the first write (``cpsolve ... | true``)."""

    encoding = "utf-8"

    def write(self, text: str) -> int:
        raise BrokenPipeError

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_the_plan_file_is_written_when_the_reader_of_stdout_has_gone(cli, monkeypatch, tmp_path,
                                                                     extra):
    """``solve hanoi4 --plan-file p | true``: nothing can be shown, which is no error
    (exit 0), yet the file asked for is written whole: 2^4 - 1 = 15 moves and the cost."""
    import sys

    monkeypatch.setattr(sys, "stdout", ReaderGone())
    plan = tmp_path / "d.plan"
    run = cli("solve", "hanoi4", "--engine", "search", "--plan-file", plan, *extra)
    assert (run.code, run.err) == (0, "")
    lines = plan.read_text().splitlines()
    assert len(lines) == 16 and lines[-1] == "; cost = 15 (unit cost)"


def test_export_says_each_file_it_replaced(cli, tmp_path):
    """An export replaces the files of the same names in its folder (a re-export is
    expected to), never silently: each replaced file's line says so; a new one's does
    not.  The user's old text is gone, the exported domain in its place."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "hoppers-domain.pddl").write_text("keep\n")
    run = cli("export", "hoppers", "--to", "pddl", "-o", out)
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0] == f"{out / 'hoppers-domain.pddl'} (replaced the file that was there)"
    assert lines[1] == str(out / "hoppers-problem.pddl")
    assert "(define (domain" in (out / "hoppers-domain.pddl").read_text()


def test_export_writes_every_file_when_the_reader_of_stdout_has_gone(cli, monkeypatch,
                                                                     tmp_path):
    """``export ... -o DIR | true``: the domain and the problem both, though no file name
    could be printed."""
    import sys

    monkeypatch.setattr(sys, "stdout", ReaderGone())
    run = cli("export", "hanoi4", "--to", "pddl", "-o", tmp_path / "out")
    assert (run.code, run.err) == (0, "")
    assert sorted(os.listdir(tmp_path / "out")) == ["hanoi4-domain.pddl",
                                                   "hanoi4-problem.pddl"]


@pytest.mark.parametrize("argv", [
    ["solve", "water_jugs", "--engine", "search", "--plan-file", "PIPE"],
    ["solve", "water_jugs", "--engine", "search", "--json", "--plan-file", "PIPE"],
    ["show", "water_jugs", "--plan", "--engine", "search", "--html", "PIPE"],
    ["show", "water_jugs", "--svg", "PIPE"],
    ["analyze", "water_jugs", "--json", "--svg", "PIPE"],
    ["export", "water_jugs", "--to", "pddl", "-o", "DIR"],
])
def test_an_output_pipe_nobody_reads_is_refused_not_waited_for(cli_subprocess, tmp_path, argv):
    """open() of a FIFO with no reader waits for one for good, past the time limit and a
    signal (Python retries it): such an output is one line naming it, exit 2, after the
    answer already printed (a JSON answer stays the one document)."""
    pipe = tmp_path / "water_jugs-domain.pddl"
    os.mkfifo(pipe)
    argv = [{"PIPE": pipe, "DIR": tmp_path}.get(a, a) for a in argv]
    run = cli_subprocess(*argv, timeout=60)  # a hang is a failure, not a stuck suite
    assert run.code == 2 and run.err_lines == [f"error: no process reads the pipe {pipe}"]
    if "--json" in argv:
        assert len(run.out.splitlines()) == 1
        assert json.loads(run.out)["status"] in ("optimal", "complete")
    elif argv[0] == "solve":
        assert "10 moves" in run.out


def test_an_output_pipe_with_a_reader_is_written(cli_subprocess, tmp_path):
    """A pipe that has its reader (``--plan-file >(cat)``, a /dev/fd/N pipe) still works."""
    read, write = os.pipe()
    try:
        run = cli_subprocess("solve", "water_jugs", "--engine", "search", "--plan-file",
                             f"/proc/{os.getpid()}/fd/{read}", "--json")
        assert run.code == 0
        assert os.read(read, 1 << 16).decode().startswith("(fill the 5 L jug)")
    finally:
        os.close(read)
        os.close(write)


@pytest.mark.parametrize("argv", [
    ["solve", "NAME"], ["count", "NAME"], ["analyze", "NAME"], ["compare", "NAME"],
    ["validate", "NAME", "x"], ["show", "NAME", "--svg", "o.svg"],
    ["export", "NAME", "--to", "pddl"], ["generate", "NAME", "--givens", "3"],
])
@pytest.mark.parametrize("name", [" ", "water_jugs "])
def test_a_file_name_with_spaces_at_its_ends_is_quoted(cli, tmp_path, monkeypatch, argv, name):
    """`error: : no such file` named nothing a reader could see."""
    monkeypatch.chdir(tmp_path)
    run = cli(*[name if a == "NAME" else a for a in argv])
    assert run.code == 2 and run.err_lines == [f"error: {name!r}: no such file"]


@pytest.mark.parametrize("argv", [
    ["solve", "water_jugs", "--plan-file"], ["show", "water_jugs", "--html"],
    ["analyze", "water_jugs", "--svg"], ["analyze", "water_jugs", "--work-dir"],
    ["export", "water_jugs", "--to", "pddl", "-o"],
])
def test_a_blank_output_name_is_refused(cli, tmp_path, monkeypatch, argv):
    """As an empty one is: a file named ' ' would be written, hidden from ``ls``."""
    monkeypatch.chdir(tmp_path)
    run = cli(*argv, "  ")
    assert run.code == 2 and len(run.err_lines) == 1 and "a blank file name" in run.err
    assert os.listdir() == []


def test_a_pipe_as_work_directory_is_called_what_it_is(cli, tmp_path):
    os.mkfifo(tmp_path / "pipe")
    run = cli("analyze", "water_jugs", "--work-dir", tmp_path / "pipe")
    assert run.code == 2 and "is a pipe, not a directory" in run.err
