"""What every ``triform`` command shares: opening the home, calling an op, printing, exit
codes and progress.

Exit codes: 0 done, 1 the op refused (its error is printed on stderr in the API's one
shape; a file or socket the system refused: one line), 2 the command line itself is wrong
(like argparse), 3 ``triform eval`` ran and a case failed, 141 the reader of stdout went
away (``| head``), 130 Ctrl-C.

The layers below (element, index, source) are imported only by what opens a home: a
command that goes through a running server never loads them (``api/options.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..options import add_home_options, default_home

if TYPE_CHECKING:
    from element import Home, OpResult

__all__ = ["EXIT_REFUSED", "EXIT_USAGE", "EXIT_BROKEN_PIPE", "EXIT_INTERRUPTED", "UsageError",
           "add_home_options", "home_of", "print_json", "refused", "guarded", "run_op",
           "Progress", "json_arg"]

EXIT_REFUSED, EXIT_USAGE = 1, 2
#: The reader of stdout went away (``| head``): 128 + SIGPIPE, as for any Unix tool.
EXIT_BROKEN_PIPE = 141
#: Ctrl-C (128 + SIGINT); ``serve`` takes it as its stop and exits 0.
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """The command line itself is wrong (exit 2, like argparse)."""


def home_of(args: argparse.Namespace) -> Home:
    """The home the command line names (``--home``, else ``$TRIFORM_HOME``, else the
    default), with the model it names.

    :raise UsageError: the folder cannot be a data home (not a directory, not writable,
        its catalog is not a database).
    """
    import sqlite3

    from element import DatabaseRequired

    from ..config import open_home

    path = getattr(args, "home", None) or default_home()
    try:
        return open_home(path, embedder=getattr(args, "embedder", None) or "fastembed",
                         model_cache=getattr(args, "model_cache", None),
                         database=getattr(args, "database", None))
    except DatabaseRequired as exc:
        raise UsageError(str(exc)) from None
    except (OSError, sqlite3.DatabaseError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UsageError(f"{path} cannot be a data home: {reason} (choose another with "
                         "--home or TRIFORM_HOME)") from None


def print_json(data: Any) -> None:
    """JSON on stdout, keys sorted: the same bytes whether the op ran here or on a server."""
    print(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True), flush=True)


def json_arg(raw: str | None, name: str) -> Any:
    """A JSON option's value; :raise UsageError: it is not JSON."""
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{name} is not valid JSON: {exc}") from None


def refused(exc: BaseException) -> int:
    """Print an op's error in the API's one shape, on stderr; exit code 1."""
    from element import error_body

    print(json.dumps(error_body(exc), sort_keys=True), file=sys.stderr)
    return EXIT_REFUSED


def guarded(command: Callable[[argparse.Namespace], int]
            ) -> Callable[[argparse.Namespace], int]:
    """Op errors become exit 1 (printed in the API's error shape), usage errors exit 2,
    and a file or socket the system refuses exit 1 with one line saying which: a mistake
    the user can make never ends in a traceback."""
    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except UsageError as exc:
            print(f"triform: {exc}", file=sys.stderr)
            return EXIT_USAGE
        except BrokenPipeError:
            raise                       # main() ends quietly: the reader went away
        except Exception as exc:
            if not isinstance(exc, _op_errors()):
                if isinstance(exc, OSError):
                    return _system_refused(exc)
                raise
            return refused(exc)
    run.__doc__ = command.__doc__
    return run


def _op_errors() -> tuple[type[Exception], ...]:
    """The errors an op raises (imported when one is caught: a command that never opened
    a home has not loaded the layers)."""
    from element import ElementError
    from index import StoreError
    from source import SourceError
    return ElementError, StoreError, SourceError


def _system_refused(exc: OSError) -> int:
    where = f"{exc.filename}: " if exc.filename else ""
    print(f"triform: {where}{exc.strerror or exc}", file=sys.stderr)
    return EXIT_REFUSED


def run_op(home: Home, path: str, name: str, *, body: dict[str, Any] | None = None,
           query: dict[str, str] | None = None, headers: dict[str, str] | None = None,
           params: dict[str, str] | None = None, env: str | None = None) -> OpResult:
    """Call one op on the one op path, as the home's operator (recorded as ``cli``).

    The command line holds the home itself, so it acts as an admin of the element's circle;
    the element's state and the shape of the request are checked as for any caller, and
    modifiers govern callers of the service, not its operator.
    """
    from element import Invocation, invoke

    return invoke(home, Invocation(path, op=name, operator="cli", body=body,
                                   query=query or {}, headers=headers or {},
                                   params=params or {}, env=env))


class Progress:
    """A bar on a terminal (stderr), plain lines otherwise."""

    def __init__(self, label: str, total: int, stream: Any = None) -> None:
        self.label, self.total, self.done = label, total, 0
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self._last_line = -1.0

    def advance(self, n: int) -> None:
        self.done = min(self.total, self.done + n)
        if self.tty:
            width = 30
            filled = int(width * self.done / self.total) if self.total else width
            self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] "
                              f"{self.done}/{self.total} texts")
            self.stream.flush()
        elif self.done == self.total or time.monotonic() - self._last_line >= 1.0:
            self._last_line = time.monotonic()
            print(f"{self.label}: {self.done}/{self.total} texts", file=self.stream,
                  flush=True)

    def finish(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
