"""The command line: parse arguments, pick the command, render its errors. No more.

Exit codes: 0 every claim passed; 1 something was checked and found wanting (a claim
failed, errored or was skipped, the evidence drifted, a fault survived, a submission is
invalid); 2 misuse or input that cannot be used. Never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import json
import os
import re
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

from runner.errors import ClaimsError, InvalidClaims, UsageError
from runner.exits import EXIT_FOUND_WANTING, EXIT_MISUSE
from runner.i18n import LANGS, Catalog, catalog, os_reason, resolve_language
from runner.text import printable

# command -> (module, arguments function, command function); imported only when chosen, so
# `run` never loads what `validate` or `report` need.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "run": ("runner.cmd_run", "add_arguments", "cmd_run"),
    "inject": ("runner.cmd_inject", "add_arguments", "cmd_inject"),
    "validate": ("runner.cmd_validate", "add_arguments", "cmd_validate"),
    "list": ("runner.cmd_misc", "add_list_arguments", "cmd_list"),
    "scaffold": ("runner.cmd_misc", "add_scaffold_arguments", "cmd_scaffold"),
    "report": ("runner.cmd_misc", "add_report_arguments", "cmd_report"),
    "bundle": ("runner.cmd_bundle", "add_arguments", "cmd_bundle"),
}


# argparse's messages (English only) as our catalogue's, read back from its wording; a
# message not listed is shown as argparse wrote it (compiled on the first such message)
ARGPARSE_MESSAGES = (
    (r"the following arguments are required: (?P<names>.+)", "argparse.required"),
    (r"one of the arguments (?P<names>.+) is required", "argparse.one_required"),
    (r"argument (?P<arg>\S+): invalid choice: (?P<value>.+) \(choose from (?P<choices>.+)\)",
     "argparse.choice"),
    (r"argument (?P<arg>\S+): not allowed with argument (?P<other>.+)", "argparse.exclusive"),
    (r"unrecognized arguments: (?P<names>.+)", "argparse.unrecognized"),
    (r"argument (?P<arg>\S+): expected one argument", "argparse.expected_one"),
    (r"argument (?P<arg>\S+): expected at least one argument", "argparse.expected_some"),
    (r"argument (?P<arg>\S+): invalid (?P<type>\w+) value: (?P<value>.+)", "argparse.invalid"),
    (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)", "argparse.ambiguous"),
)  # fmt: skip


# argparse's own words in a help text, by the reader's language (its error messages are read
# back from their English wording above, so those stay as argparse writes them)
ARGPARSE_HELP = {
    "usage: ": "argparse.usage",
    "positional arguments": "argparse.positional",
    "options": "argparse.options",
    "show this help message and exit": "argparse.help",
}


def _argparse_speaks(words: Catalog) -> None:
    """argparse looks its words up through its module's ``_`` each time it writes them."""

    def translate(text: str) -> str:
        code = ARGPARSE_HELP.get(text)
        return words(code) if code else text

    setattr(argparse, "_", translate)  # noqa: B010 - argparse reads it as a global


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's own exit code for misuse is 2 too
        self.print_usage(sys.stderr)
        for pattern, code in ARGPARSE_MESSAGES:
            found = re.fullmatch(pattern, message)
            if found:
                raise UsageError(code, **found.groupdict())
        raise UsageError("use.argument", message=message)


def _language_asked(argv: Sequence[str]) -> str | None:
    """``--lang`` from the arguments, read before parsing so that help is in that language."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def build_parser(words: Catalog, command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only ``command``'s module is imported to define its arguments (all of
    them when it is None, as for ``--help``)."""
    _argparse_speaks(words)
    parser = _Parser(
        prog="python -m runner",
        description=words("help.description"),
        epilog=words("help.epilog"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, nargs=0, help=argparse.SUPPRESS)
    # known here too, so that a --lang given with no command asks for the command (given
    # before a command, it is moved after it: _lang_after_command)
    parser.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    common = _Parser(add_help=False)
    common.add_argument("--lang", choices=LANGS, default=None, help=words("help.lang"))
    sub = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, metavar="COMMAND"
    )
    children: dict[str, argparse.ArgumentParser] = {}
    for name, (module, define, _) in COMMANDS.items():
        children[name] = child = sub.add_parser(
            name, parents=[common], help=words(f"help.{name}"), description=words(f"help.{name}")
        )
        if command is None or command == name:
            getattr(importlib.import_module(module), define)(child, words)
    parser.set_defaults(**{_CHILD: children})
    return parser


_CHILD = "_command_parsers"  # the subcommands' parsers, kept for their usage lines


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """The arguments; one a command does not know is reported with that command's usage,
    not the top level's (argparse leaves extras to the top-level parser)."""
    args, extra = parser.parse_known_args(argv)
    children = vars(args).pop(_CHILD, {})
    if extra:
        child = children.get(args.command, parser)
        child.error("unrecognized arguments: " + " ".join(extra))
    return args


class _Version(argparse.Action):
    """``--version``: the installed distribution's version, read only when asked."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from runner.record.licenses import own_version

        version = own_version()
        print(f"{parser.prog} {version if version != '0+unknown' else '(not installed)'}")
        parser.exit()


def _command(name: str) -> Callable[[argparse.Namespace, Catalog], int]:
    module, _, fn = COMMANDS[name]
    command: Callable[[argparse.Namespace, Catalog], int] = getattr(
        importlib.import_module(module), fn
    )
    return command


class Terminated(KeyboardInterrupt):
    """SIGTERM (what `timeout`, CI runners and process managers send): stopped as Ctrl-C
    stops a run, so workers, their processes and temporary files are cleaned up."""


def _terminated(signum: int, frame: object) -> None:
    raise Terminated


def stop_on_sigterm() -> None:
    """SIGTERM raises :class:`Terminated` in this process (the command line's, not a
    library caller's: only ``python -m runner`` installs it). A Ctrl-C or SIGTERM that
    lands while Python runs a finalizer (an object's ``__del__``, a weakref's callback) is
    swallowed there, with a traceback and the run going on: it is kept instead, silently,
    and said at the end as any interruption is."""
    signal.signal(signal.SIGTERM, _terminated)
    sys.unraisablehook = _kept_interruptions


_SWALLOWED: list[KeyboardInterrupt] = []  # interruptions raised where Python could not raise


def _kept_interruptions(info: Any) -> None:
    if isinstance(info.exc_value, KeyboardInterrupt):
        # what it was, not it: its traceback would keep its frames alive (see _SAID)
        _SWALLOWED.append(
            Terminated() if isinstance(info.exc_value, Terminated) else KeyboardInterrupt()
        )
        return
    sys.__unraisablehook__(info)


def main(argv: Sequence[str] | None = None, started: Callable[[], None] | None = None) -> int:
    """Run one command. ``started`` is called once its code is imported and its arguments
    are read, before it does any work."""
    _SAID.clear()
    argv = _lang_after_command(list(sys.argv[1:] if argv is None else argv))
    words = catalog(resolve_language(_language_asked(argv)))
    try:
        code = _main(argv, words, started)
        sys.stdout.flush()  # a full disk or a closed reader shows here, not at exit
        if _SWALLOWED and code not in INTERRUPTED:  # stopped where it could not stop: what
            # was written is complete
            return interrupted(_SWALLOWED[0], words)
        return code
    except BrokenPipeError:
        # the reader (e.g. `| head`) left; say nothing more, as other command-line tools do
        _silence_stdout()
        return EXIT_FOUND_WANTING
    except OSError as exc:  # the output itself cannot be written (e.g. stdout on a full disk)
        _silence_stdout()
        _say(words("error", message=words("error.output", reason=os_reason(exc))))
        return EXIT_MISUSE


def _lang_after_command(argv: list[str]) -> list[str]:
    """``--lang zh run ...`` read as ``run ... --lang zh``: every command takes --lang, and a
    reader who puts it first means the same."""
    if argv and argv[0].startswith("--lang"):
        n = 1 if argv[0].startswith("--lang=") else 2
        return argv[n : n + 1] + argv[:n] + argv[n + 1 :]
    return argv


def _main(argv: list[str], words: Catalog, started: Callable[[], None] | None = None) -> int:
    json_wanted = _wants_json(argv)
    try:
        chosen = argv[0] if argv and argv[0] in COMMANDS and not _asks_help(argv) else None
        args = _parse(build_parser(words, chosen), argv)
        if started is not None:
            started()
        return _command(args.command)(args, words)
    except InvalidClaims as exc:
        for problem in exc.problems:
            _say(problem.render(words))
        _say(exc.render(words))
        if json_wanted:
            problems = [p.render(words) for p in exc.problems]
            _json_error(exc.message.code, exc.render(words), EXIT_MISUSE, problems=problems)
        return EXIT_MISUSE
    except ClaimsError as exc:
        _say(words("error", message=exc.render(words)))
        if json_wanted:
            _json_error(exc.message.code, exc.render(words), exc.exit_code)
        return exc.exit_code
    except KeyboardInterrupt as exc:
        return interrupted(exc, words)
    except SystemExit as exc:  # argparse's --help and --version
        return exc.code if isinstance(exc.code, int) else EXIT_MISUSE
    except (BrokenPipeError, OSError) as exc:
        if isinstance(exc, BrokenPipeError) or exc.errno in (errno.ENOSPC, errno.EPIPE, errno.EIO):
            raise  # the output could not be written: main says so
        return _internal(exc, words)
    except Exception as exc:
        return _internal(exc, words)


INTERRUPTED = (130, 143)  # 128 + SIGINT's number, and SIGTERM's, as shells give them


# that this command has said it was interrupted: a flag, not the exception, whose traceback
# would keep every frame it passed alive until the interpreter tears its modules down (a
# process pool among them, whose finalizer then fails: "Exception ignored in weakref_cb")
_SAID: list[bool] = []


def interrupted(exc: KeyboardInterrupt, words: Catalog | None = None) -> int:
    """Say that the command was interrupted (once, however many Ctrl-Cs reach it), and give
    its exit code. ``words`` is None when the command could not get as far as choosing them."""
    if not _SAID:
        _SAID.append(True)
        if words is None:
            words = catalog(resolve_language(_language_asked(sys.argv[1:])))
        _say(words("interrupted"))
    return INTERRUPTED[1] if isinstance(exc, Terminated) else INTERRUPTED[0]


def _internal(exc: BaseException, words: Catalog) -> int:
    if os.environ.get("LEARN_LLM_DEBUG"):
        raise exc
    # a bug of ours: one line, not a traceback, and an exit code that says "not ok"
    _say(words("internal_error", error=type(exc).__name__, message=printable(str(exc)[:300])))
    return EXIT_MISUSE


def _say(line: str) -> None:
    """One line on stderr, control characters shown, not acted on (a path or a claim id
    from a hostile file may hold an escape sequence); a closed or full stderr is not worth a
    traceback."""
    with contextlib.suppress(OSError):
        print(printable(line), file=sys.stderr)


def _json_error(code: str, message: str, exit_code: int, **extra: Any) -> None:
    """A script asked for JSON: the error is on stdout too, as a document."""
    print(json.dumps({"error": {"code": code, "message": message, **extra}, "exit_code": exit_code},
                     ensure_ascii=False))  # fmt: skip


def _wants_json(argv: Sequence[str]) -> bool:
    for i, arg in enumerate(argv):
        if arg == "--format=json" or (arg == "--format" and argv[i + 1 : i + 2] == ["json"]):
            return True
    return False


def _silence_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _asks_help(argv: Sequence[str]) -> bool:
    return "-h" in argv or "--help" in argv
