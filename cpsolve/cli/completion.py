"""Shell completion: ``cpsolve completion bash|zsh`` prints a script built from the parser.

Install with ``eval "$(cpsolve completion bash)"`` in ~/.bashrc (zsh: the same line in
~/.zshrc; it loads bash completion through ``bashcompinit``).  Commands, options and
option choices are completed from the argument parser itself, so they never drift: each
command's own options, and the choices its own parser accepts (``show --engine`` offers
what ``show`` takes, not ``solve``'s engines; a command's positional choices too, as
``completion bash|zsh``); an option's value by what its metavar names (:data:`PATHS`: a
file name, a folder's), an option whose value is a number, a size or a name nothing; a
command's arguments as file names (and bundled model names), a command without any
(``models``, ``schema``) nothing.
"""

from __future__ import annotations

import argparse

from ..puzzles.files import bundled

SHELLS = ("bash", "zsh")

PATHS = {"FILE": "-f", "OUT": "-f", "DIR": "-d"}
"""An option's metavar -> the ``compgen`` flag of its values (files, folders); an option
that takes a value with another metavar (``S``, ``N``, ``SIZE``, ``NAME``) is offered
nothing."""


def words(parser: argparse.ArgumentParser) -> dict[str, list[str]]:
    """Command -> its options (and ``""`` -> the commands), from the parser."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = {"": sorted(sub.choices)}
    for name, cmd in sub.choices.items():
        out[name] = sorted(o for a in cmd._actions for o in a.option_strings)
    return out


def choices(parser: argparse.ArgumentParser) -> dict[str, dict[str, list[str]]]:
    """Command -> option -> the choices that command's own parser accepts for it (a
    positional argument's choices under ``""``).  Per command: ``--engine`` and
    ``--algorithm`` take different values in ``solve``, ``show`` and ``analyze``."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out: dict[str, dict[str, list[str]]] = {}
    for name, cmd in sub.choices.items():
        for action in cmd._actions:
            if action.choices:
                for option in action.option_strings or [""]:
                    out.setdefault(name, {})[option] = sorted(map(str, action.choices))
    return out


def values(parser: argparse.ArgumentParser) -> dict[str, dict[str, str]]:
    """Command -> option -> the ``compgen`` words of that option's values: its choices
    (``-W "a b"``), files or folders (:data:`PATHS`), or ``""`` (nothing to offer: a
    number, a size, a name); options that take no value are left out, and so is one whose
    value may be left out and is none of those (what follows it may be an argument)."""
    picks = choices(parser)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out: dict[str, dict[str, str]] = {}
    for name, cmd in sub.choices.items():
        for action in cmd._actions:
            if not action.option_strings or action.nargs == 0:
                continue
            for option in action.option_strings:
                listed = picks.get(name, {}).get(option)
                how = f'-W "{" ".join(listed)}"' if listed \
                    else PATHS.get(str(action.metavar), "")
                if how or action.nargs != "?":  # an optional value may be left out
                    out.setdefault(name, {})[option] = how
    return out


def _picks(parser: argparse.ArgumentParser) -> str:
    """The script's ``case`` over the command, then the option before the cursor: the
    values that command's option takes (nothing for a number)."""
    lines = []
    for cmd, options in values(parser).items():
        lines.append(f"        {cmd})")
        lines.append('            case "$prev" in')
        lines += [f'            {opt}) COMPREPLY=($(compgen {how} -- "$cur")); return ;;'
                  if how else f"            {opt}) COMPREPLY=(); return ;;"
                  for opt, how in options.items()]
        lines += ["            esac", "            ;;"]
    return "\n".join(lines)


def _positional(parser: argparse.ArgumentParser) -> str:
    """The script's ``case`` of the commands whose argument is one of a few words, and of
    those that take no argument (``none=1``: nothing but their options to offer)."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    bare = [name for name, cmd in sub.choices.items()
            if not any(not a.option_strings for a in cmd._actions)]
    return "\n".join([f'        {cmd}) words="{" ".join(options[""])}" ;;'
                      for cmd, options in choices(parser).items() if "" in options]
                     + [f"        {cmd}) none=1 ;;" for cmd in bare])


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script for ``shell``."""
    cases = "\n".join(f'        {cmd or "__top"}) opts="{" ".join(opts)}" ;;'
                      for cmd, opts in words(parser).items())
    models = " ".join(p.stem for p in bundled())
    body = f'''_cpsolve() {{
    local cur prev cmd opts words none
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    cmd="${{COMP_WORDS[1]}}"
    case "$cmd" in
{_picks(parser)}
    esac
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "{" ".join(words(parser)[""])} --help --version" -- "$cur"))
        return
    fi
    case "$cmd" in
{cases}
        *) opts="" ;;
    esac
    words=""
    none=""
    case "$cmd" in
{_positional(parser)}
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [ -n "$words" ]; then
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
    elif [ -n "$none" ]; then
        COMPREPLY=()
    else
        COMPREPLY=($(compgen -f -- "$cur") $(compgen -W "{models}" -- "$cur"))
    fi
}}
complete -o filenames -F _cpsolve cpsolve
'''
    if shell == "zsh":
        body = "autoload -U +X bashcompinit && bashcompinit\n" + body
    return body
