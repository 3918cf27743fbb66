"""The command line's grammar: the commands, their options and their help — built once
by :func:`parser`, used by :mod:`cpsolve.cli`, the shell completion and the docs test.
Each command's options are in :mod:`.command_options`; the types that check each option's
value (a bad value is one line, exit 2) are in :mod:`.checks`; the options that do not go
together in :mod:`.option_rules`."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Collection

from ..language.quoting import escaped, shorten
from .command_options import COMMANDS, Commands
from .dashed_files import dashed_file
from .examples import examples_text, with_examples
from .interop_options import extra_model
from .version import VERSION

TYPE_CHECKING = False  # typing.TYPE_CHECKING: start-up (--help) imports no typing
if TYPE_CHECKING:
    from typing import NoReturn


class BadCommandLine(SystemExit):
    """A bad command line (exit 2), already reported on stderr; ``message`` is that line
    without its ``error:`` (for ``--json``'s error object)."""

    def __init__(self, message: str):
        super().__init__(2)
        self.message = message


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr, exit 2.

    A word that starts with ``-`` and a digit (``-1G``, ``-3``, ``-0.5s``, ``-1e9``), or is
    ``-inf``, ``-infinity`` or ``-nan`` in any case, is an option's value, never an option
    (no option is named so): argparse takes only plain negative numbers as values, so
    ``--memory-limit -1G`` or ``--time-limit -inf`` was "expected one argument" instead
    of the value check's own message (and ``count -n -nan`` was ``-n an``)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = re.compile(r"^-(\.?\d|(inf|infinity|nan)$)", re.I)
        for name in ("store", "store_const", "store_true", "store_false"):
            self.register("action", name, _once(self._registry_get("action", name)))
        self.register("action", None, self._registry_get("action", "store"))

    def _parse_optional(self, arg_string):
        """As argparse's, but a negative-looking value (above) is never read as a short
        option with its value attached (``-nan`` as ``-n an``)."""
        if self._negative_number_matcher.match(arg_string) \
                and arg_string not in self._option_string_actions:
            return None
        return super()._parse_optional(arg_string)

    def parse_args(self, args=None, namespace=None):
        """As argparse's, but words no option takes are reported by the command they were
        given to (``see cpsolve solve --help``), not by ``cpsolve`` itself; so is a second
        model given to a command of one (:func:`.interop_options.extra_model`)."""
        self.misplaced(sys.argv[1:] if args is None else list(args))
        self.dashed(sys.argv[1:] if args is None else list(args))
        parsed, extra = self.parse_known_args(args, namespace)
        vars(parsed).pop(_GIVEN, None)
        if extra:
            self._command(parsed).error(f"unrecognized arguments: {' '.join(extra)}")
        why = extra_model(parsed)
        if why:
            self._command(parsed).error(why)
        return parsed

    def misplaced(self, args: list[str]) -> None:
        """A command's option given before the command (``cpsolve --json solve FILE``) is
        an error that says where it goes, not words the command does not know."""
        commands = getattr(_subparsers(self), "choices", {})
        at = next((i for i, arg in enumerate(args) if arg in commands), None)
        if at is None or not any(arg.startswith("-") for arg in args[:at]):
            return
        actions = _subparsers(parser(args[at:at + 1])).choices[args[at]]._actions
        known = {name for action in actions for name in action.option_strings}
        flags = {name for action in actions if action.nargs == 0
                 for name in action.option_strings}  # they take no value: --json=1 is --json
        for arg in args[:at]:
            if arg.split("=", 1)[0] in known and arg not in self._option_string_actions:
                import shlex

                name = arg.split("=", 1)[0]
                if name in {a.split("=", 1)[0] for a in args[at + 1:]}:  # moved: twice
                    self.error(f"{name} is an option of the command, given after it too: "
                               "give it once, after the command")
                moved = [a.split("=", 1)[0] if a.split("=", 1)[0] in flags else a
                         for a in args[:at]]
                self.error(f"{name} is an option of the command: it goes "
                           f"after it ({shlex.join([self.prog, *args[at:], *moved])})")

    def dashed(self, args: list[str]) -> None:
        """A file named ``-x.toml`` after the command is an error that says how to name it
        (:func:`.dashed_files.dashed_file`), not argparse's own about a missing FILE."""
        commands = getattr(_subparsers(self), "choices", {})
        at = next((i for i, arg in enumerate(args) if arg in commands), None)
        if at is not None:
            why = dashed_file(commands[args[at]], args[at + 1:])
            if why:
                commands[args[at]].error(why)

    def _command(self, parsed: argparse.Namespace) -> argparse.ArgumentParser:
        """The parser of the command ``parsed`` names (itself when it names none)."""
        sub = _subparsers(self)
        return self if sub is None else sub.choices.get(getattr(parsed, "command", None), self)

    def error(self, message: str) -> NoReturn:
        """Report a bad command line in one line (with the command it concerns)."""
        valued = _IGNORED.fullmatch(message)  # argparse's words for a value it refused
        if valued:
            message = (f"{valued[1]} takes no value: give {valued[1]} alone, "
                       f"not {valued[1]}={valued[2]}")
        line = f"{printable(self.prog)}: {printable(message)} (see {self.prog} --help)"
        self._print_message(f"error: {line}\n", sys.stderr)
        raise BadCommandLine(line)


_IGNORED = re.compile(r"argument (\S+?)(?:/\S+)?: ignored explicit argument '(.*)'", re.S)
"""argparse's refusal of ``--json=1``, a flag given a value (it says "ignored": it refused)."""

_GIVEN = "_options_given"
"""The namespace's record of the options given so far (:func:`_once`), gone once parsed."""


_ONCE: dict[type, type] = {}
""":func:`_once`'s classes, made once per process (every command's parser registers them)."""


def _once(action: type[argparse.Action]) -> type[argparse.Action]:
    """``action`` refusing to be given twice on one command line: argparse keeps the last of
    ``--svg a.svg --svg b.svg`` (or ``--givens 4 --givens 5``) and drops the first without a
    word; a second one is a bad command line that says so."""
    if action in _ONCE:
        return _ONCE[action]

    class Once(action):  # type: ignore[misc, valid-type]
        def __call__(self, parser, namespace, values, option_string=None):
            given = vars(namespace).setdefault(_GIVEN, {})
            if option_string is not None and self.dest in given:
                first = given[self.dest]
                also = "" if first == option_string else f" (as {first})"
                parser.error(f"{option_string} given twice{also}: give it once"
                             + (", with all its values" if self.nargs in ("+", "*") else ""))
            given[self.dest] = option_string
            super().__call__(parser, namespace, values, option_string)

    _ONCE[action] = Once
    return Once


def _subparsers(p: argparse.ArgumentParser) -> argparse._SubParsersAction | None:
    """The commands of parser ``p`` (``None``: it has none)."""
    return next((a for a in p._actions if isinstance(a, argparse._SubParsersAction)), None)


def parser(commands: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser (also used by the docs test).

    ``commands``: only these commands, with their options — what a command line naming
    its command needs (the engines' tables are read only by the commands that name them);
    empty: every command listed with its one-line help but no options (``cpsolve --help``,
    a command that does not exist); None: every command with its options.
    """
    p = _Parser(
        prog="cpsolve",
        description="Solve puzzles declared as constraint models; cross-check engines.",
    )
    p.add_argument("--version", action="version", version=f"cpsolve {VERSION}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        try:
            command(sub if commands is None else _Listed(sub, commands))
        except _Unwanted:
            pass  # listed, without its options
    with_examples(sub)
    p.epilog, p.formatter_class = examples_text(""), argparse.RawDescriptionHelpFormatter
    return p


class _Unwanted(Exception):
    """A command :func:`parser` lists without its options."""


class _Listed:
    """The subparsers of :func:`parser`, where adding a command not in ``commands`` stops its
    function (:class:`_Unwanted`) before its options are built; the command is listed when
    ``commands`` is empty, left out otherwise."""

    def __init__(self, sub: Commands, commands: Collection[str]):
        self.sub, self.commands = sub, commands

    def add_parser(self, name: str, **kwargs) -> argparse.ArgumentParser:
        """The command's parser, when its options are wanted."""
        if self.commands and name not in self.commands:
            raise _Unwanted(name)
        command = self.sub.add_parser(name, **kwargs)
        if name not in self.commands:
            raise _Unwanted(name)
        return command


def printable(message: str, width: int = 2000) -> str:
    """``message`` on one line: runs of spaces, tabs and line breaks become one space, the
    unsafe characters are shown escaped (:func:`cpsolve.language.quoting.escaped`: ``\\x1b``,
    ``\\u202e``, ``\\u2028``), and a very long message is cut."""
    text = _LAYOUT.sub(" ", message).strip(" ")
    return shorten(escaped(text), width=width, quote=False)


_LAYOUT = re.compile("[ \t\n\r\f\v]+")
"""The white space a message may be laid out with (a long line folded): one space each run."""
