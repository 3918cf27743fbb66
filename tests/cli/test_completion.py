"""Shell completion (``cpsolve completion bash|zsh``) offers, for each command, what that
command's own ``--help`` lists: its options, and for an option with choices exactly the
values it accepts — ``show --engine`` never offers ``solve``'s engines, ``compare`` (which
has no ``--engine``) offers none, ``analyze --algorithm`` the analyses, not the searches."""

from __future__ import annotations

import re
import subprocess

import pytest


@pytest.fixture
def complete(cli, tmp_path):
    """``complete(*words)``: what the bash script offers after ``cpsolve WORDS`` (the last
    word is the one under the cursor), in an empty folder (no file names to offer)."""
    run = cli("completion", "bash")
    assert run.code == 0
    script = tmp_path / "complete.sh"
    script.write_text(run.out)
    here = tmp_path / "empty"
    here.mkdir()

    def offered(*words: str) -> list[str]:
        line = " ".join(f'"{w}"' for w in ("cpsolve", *words))
        done = subprocess.run(["bash", "-c", f"source {script}; COMP_WORDS=({line}); "
                               f"COMP_CWORD={len(words)}; _cpsolve; "
                               'printf "%s\\n" "${COMPREPLY[@]}"'],
                              capture_output=True, text=True, cwd=here, timeout=30, check=True)
        return done.stdout.split()

    return offered


def listed_choices(help_text: str, option: str) -> set[str] | None:
    """The values ``--help`` shows for ``option`` (``--engine {cpsat,search}``, or
    ``--check [{auto,cpsat}]`` for an optional value), None when it shows none."""
    found = re.search(re.escape(option) + r" \[?\{([^}]*)\}", help_text)
    return None if found is None else set(re.sub(r"\s", "", found[1]).split(","))


def test_every_command_is_offered_with_only_its_own_options_and_their_values(cli, complete):
    commands = [w for w in complete("") if not w.startswith("-")]
    assert {"solve", "show", "analyze", "compare", "completion"} <= set(commands)
    for command in commands:
        shown = cli(command, "--help")
        assert shown.code == 0, command
        options = complete(command, "-")
        assert options, command
        for option in options:
            assert re.search(rf"(^|[\s\[,(]){re.escape(option)}\b", shown.out), (command, option)
            values = set(complete(command, "x", option, ""))
            wanted = listed_choices(shown.out, option)
            anything = set(complete(command, "x", ""))
            if wanted is None and re.search(rf"{re.escape(option)} [A-Z]", shown.out):
                # a value without choices: files, folders or nothing, never a model name
                assert values <= anything - {"water_jugs"}, (command, option)
            elif wanted is None:  # a flag: the word after it completes as any word does
                assert values == anything, (command, option)
            else:
                assert values == wanted, (command, option)


@pytest.mark.parametrize("command, option, wanted", [
    ("show", "--engine", {"cpsat", "search", "pyconstraint"}),
    ("analyze", "--engine", {"search"}),
    ("analyze", "--algorithm", {"bitmap", "numpy", "python"}),
])
def test_the_reported_options_offer_what_their_command_takes(complete, command, option, wanted):
    """The cases of the report, by the values docs/reference/pictures.md and
    docs/how-to/analyze-large.md name for these commands."""
    assert set(complete(command, "x", option, "")) == wanted


def test_compare_has_no_engine_to_offer(complete):
    """``compare`` runs every engine: ``--engine`` is not its option, so the word after it
    completes as a file or model name, never as an engine."""
    assert "--engine" not in complete("compare", "-")
    assert not {"auto", "cpsat", "fd"} & set(complete("compare", "x", "--engine", ""))


def test_the_completion_command_offers_its_shells(complete):
    assert complete("completion", "") == ["bash", "zsh"]


def test_the_zsh_script_is_the_bash_one_loaded_through_bashcompinit(cli):
    """zsh gets the same completion, no shell's own list to drift from the parser."""
    bash, zsh = cli("completion", "bash").out, cli("completion", "zsh").out
    assert zsh == "autoload -U +X bashcompinit && bashcompinit\n" + bash


def test_an_options_value_is_offered_by_its_kind_and_a_bare_command_offers_nothing(
        complete, tmp_path):
    """A number (``--time-limit``, ``count -n``) offers nothing, a folder option
    (``--work-dir``) folders only, an output file (``show --svg``) file names but no model
    names; ``schema`` and ``models`` take no argument: nothing either.  A model argument
    still offers files and models."""
    here = tmp_path / "empty"
    (here / "plan.txt").write_text("")
    (here / "runs").mkdir()
    assert complete("schema", "") == []
    assert complete("models", "") == []
    assert complete("solve", "--time-limit", "") == []
    assert complete("count", "-n", "") == []
    assert complete("analyze", "--work-dir", "") == ["runs"]
    assert sorted(complete("show", "--svg", "")) == ["plan.txt", "runs"]
    assert {"plan.txt", "runs", "water_jugs"} <= set(complete("solve", ""))
    assert complete("schema", "--") == ["--help"]
