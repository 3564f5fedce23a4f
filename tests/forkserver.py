"""The suite's interpreter for crawls and sandbox servers: a fork of one that has imported Scrapy,
Twisted and scikit-learn already, in place of a new ``python`` (whose imports take 3.5-4.5 s on a
slow 2-core machine, for each of the suite's crawls and sandbox servers; a fork 0.25 s).

``python -S tests/forkserver.py -m scrapy crawl ...`` acts as ``python -m scrapy crawl ...``: the
same arguments, working directory, environment, standard streams, exit status and signals.
- It asks the server at ``$BILINGUAL_TEST_FORKSERVER`` (a Unix socket) to fork, hands it its
  three standard streams and waits. The fork runs the module with ``runpy`` as ``-m`` does.
- Signals sent to it go on to the fork. When it dies without asking (``SIGKILL``), the fork is
  killed at once.
- It runs a new interpreter instead when no server answers, or when the command needs what a fork
  cannot take on: another ``PYTHON*``, ``LC_*`` or ``LANG`` variable (``PYTHONHASHSEED``:
  deterministic crawls), or an option of the interpreter.

The server (``python tests/forkserver.py --serve SOCKET``, started by ``tests/conftest.py``)
imports what ``bilingual_spider.commands.crawl``, the spiders and the sandbox server import, but
no reactor. A fork reads the project's settings again (they read the environment as they are
imported) and runs its ``-m`` module afresh. Each request gets a monitor
process, which forks the command, waits for it and reports its status.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Mapping

SOCKET_VARIABLE = "BILINGUAL_TEST_FORKSERVER"
SETTINGS_MODULE = "bilingual_spider.settings"
"""The one module of the package that reads the environment as it is imported."""
FORWARDED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT,
                     signal.SIGUSR1, signal.SIGUSR2)  # fmt: skip
PROBE = (
    "import sys, bilingual_spider.commands.crawl, bilingual_spider.cli\n"
    "import bilingual_spider.spiders.backforth, bilingual_spider.spiders.detect\n"
    "import bilingual_spider.spiders.forward, bilingual_spider.spiders.pupsniffer\n"
    "import bilingual_spider.sandbox.server\n"
    "print('\\n'.join(sorted(sys.modules)))\n"
)
"""Prints the modules a crawl or a sandbox server imports."""


# -- the client: in place of `python` ---------------------------------------------------------


def client(arguments: list[str]) -> None:
    path = os.environ.get(SOCKET_VARIABLE)
    if not path or not arguments or not (arguments[0] == "-m" or arguments[0].endswith(".py")):
        run_new_interpreter(arguments)
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(path)
        socket.send_fds(connection, [b"R"], [0, 1, 2])
        request = {"arguments": arguments, "cwd": os.getcwd(), "env": dict(os.environ)}
        connection.sendall(json.dumps(request).encode() + b"\n")
        replies = connection.makefile("rb")
        reply = json.loads(replies.readline() or b"{}")
    except OSError:
        reply = {}
    if "pid" not in reply:  # no server, or one that cannot run this command
        connection.close()
        run_new_interpreter(arguments)
    pid = reply["pid"]
    for number in FORWARDED_SIGNALS:
        signal.signal(number, lambda received, _frame: os.kill(pid, received))
    line = replies.readline()
    if not line:
        sys.stderr.write("forkserver: the monitor died before the command ended\n")
        os._exit(1)
    status = json.loads(line)["status"]
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def run_new_interpreter(arguments: list[str]) -> None:
    os.execv(sys.executable, [sys.executable, *arguments])


# -- the server ------------------------------------------------------------------------------


class Forked(BaseException):
    """Raised in a fork that is to run a command: it unwinds the server's frames, and the command
    runs at the top of the script, where a ``python -m`` would run it."""

    def __init__(self, request: dict) -> None:
        self.request = request


def serve(path: str) -> None:
    preload()
    parent = os.getppid()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the monitors
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    sys.stdout.flush()
    while os.getppid() == parent:  # ends with the test process that started it
        if not select.select([listener], [], [], 1.0)[0]:
            continue
        connection, _ = listener.accept()
        if os.fork() == 0:
            listener.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            monitor(connection)  # raises Forked in the command's process
            os._exit(0)
        connection.close()


def preload() -> None:
    """Import what a crawl imports, but its reactor."""
    probe = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    )
    for name in probe.stdout.split():
        if name == "__main__" or "reactor" in name:
            continue
        try:
            __import__(name)
        except Exception:  # noqa: BLE001  (a platform's module: the command imports it if it can)
            continue
    assert "twisted.internet.reactor" not in sys.modules, "a preloaded module installed a reactor"
    gc.freeze()  # the collector leaves them alone: no fork copies their pages to mark them


def monitor(connection: socket.socket) -> None:
    _, streams, _, _ = socket.recv_fds(connection, 1, 3)
    request = json.loads(connection.makefile("rb").readline())
    refused = refusal(request)
    if refused:
        connection.sendall(json.dumps({"refused": refused}).encode() + b"\n")
        return
    pid = os.fork()
    if pid == 0:
        connection.close()
        for target, stream in enumerate(streams):
            os.dup2(stream, target)
        for stream in streams:
            if stream > 2:
                os.close(stream)
        raise Forked(request)
    for stream in streams:
        os.close(stream)
    connection.sendall(json.dumps({"pid": pid}).encode() + b"\n")
    ended = os.pidfd_open(pid)
    while True:
        readable = select.select([connection, ended], [], [])[0]
        if ended in readable:
            break
        if not connection.recv(1):  # the client is gone (SIGKILL): so goes its command
            os.kill(pid, signal.SIGKILL)
            break
    _, status = os.waitpid(pid, 0)
    with contextlib.suppress(OSError):
        connection.sendall(json.dumps({"status": status}).encode() + b"\n")


def refusal(request: dict) -> str:
    """Why a fork of this server cannot run the request ('' when it can)."""
    ours, theirs = startup_variables(os.environ), startup_variables(request["env"])
    if ours != theirs:
        return f"other variables read at startup: {sorted(set(ours.items()) ^ set(theirs.items()))}"
    return ""


def startup_variables(environment: Mapping[str, str]) -> dict[str, str]:
    """The variables an interpreter reads as it starts (``PYTHONHASHSEED``, the locale)."""
    return {
        name: value
        for name, value in environment.items()
        if name.startswith(("PYTHON", "LC_")) or name == "LANG"
    }


def run_command(request: dict) -> None:
    """Become ``python ARGUMENTS`` in the request's directory and environment."""
    import importlib
    import runpy

    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    for number in FORWARDED_SIGNALS:
        signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if "numpy" in sys.modules:  # a new interpreter's draws, not the server's
        sys.modules["numpy"].random.seed()
    if SETTINGS_MODULE in sys.modules:  # read the request's environment, as a new one does
        importlib.reload(sys.modules[SETTINGS_MODULE])
    arguments = request["arguments"]
    if arguments[0] == "-m":
        if not hasattr(sys.modules.get(arguments[1]), "__path__"):  # a package runs __main__
            sys.modules.pop(arguments[1], None)  # runs as __main__ only, as in a new one
        sys.argv = ["-m", *arguments[2:]]
        sys.path[0] = request["cwd"]
        runpy.run_module(arguments[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = list(arguments)
        sys.path[0] = os.path.dirname(os.path.abspath(arguments[0]))
        runpy.run_path(arguments[0], run_name="__main__")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        try:
            serve(sys.argv[2])
            sys.exit(0)
        except Forked as forked:
            request = forked.request
        run_command(request)  # outside the handler: its errors read as a new interpreter's
    else:
        client(sys.argv[1:])
