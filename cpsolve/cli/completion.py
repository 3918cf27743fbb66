"""Shell completion: ``cpsolve completion bash|zsh`` prints a script built from the parser.

Install with ``eval "$(cpsolve completion bash)"`` in ~/.bashrc (zsh: the same line in
~/.zshrc; it loads bash completion through ``bashcompinit``).  Commands, options and
option choices are completed from the argument parser itself, so they never drift;
everything else completes as file names (and bundled model names).
"""

from __future__ import annotations

import argparse

from ..puzzles.files import bundled

SHELLS = ("bash", "zsh")


def words(parser: argparse.ArgumentParser) -> dict[str, list[str]]:
    """Command -> its options (and ``""`` -> the commands), from the parser."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = {"": sorted(sub.choices)}
    for name, cmd in sub.choices.items():
        out[name] = sorted(o for a in cmd._actions for o in a.option_strings)
    return out


def choices(parser: argparse.ArgumentParser) -> dict[str, list[str]]:
    """Option -> its choices, for options that have them (any command)."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out: dict[str, set[str]] = {}
    for cmd in sub.choices.values():
        for action in cmd._actions:
            if action.choices and action.option_strings:
                for option in action.option_strings:
                    out.setdefault(option, set()).update(map(str, action.choices))
    return {k: sorted(v) for k, v in out.items()}


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script for ``shell``."""
    cases = "\n".join(f'        {cmd or "__top"}) opts="{" ".join(opts)}" ;;'
                      for cmd, opts in words(parser).items())
    picks = "\n".join(f'        {opt}) COMPREPLY=($(compgen -W "{" ".join(vals)}" -- "$cur")); '
                      "return ;;" for opt, vals in choices(parser).items())
    models = " ".join(p.stem for p in bundled())
    body = f'''_cpsolve() {{
    local cur prev cmd opts
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    cmd="${{COMP_WORDS[1]}}"
    case "$prev" in
{picks}
    esac
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "{" ".join(words(parser)[""])} --help --version" -- "$cur"))
        return
    fi
    case "$cmd" in
{cases}
        *) opts="" ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur") $(compgen -W "{models}" -- "$cur"))
    fi
}}
complete -o filenames -F _cpsolve cpsolve
'''
    if shell == "zsh":
        body = "autoload -U +X bashcompinit && bashcompinit\n" + body
    return body
