"""A process for code we did not write: resource limits, namespaces, a folder of its own.

:class:`Sandbox` starts a command (a tournament's outside bot) as a fresh program, never a
fork of the caller's Python state: ``python3 -I -m perfectplay.jobs.sandbox LIMITS -- CMD...``
(the *confiner*, :func:`confine`) applies the limits and then ``exec``\\ s the command::

    caller (referee) ── start_new_session ──▶ confiner (root of its own session and group)
                                                 │ setrlimit AS, CPU, FSIZE, NOFILE, NPROC, CORE
                                                 │ unshare net, mount, pid, ipc, uts (+user when
                                                 │   not root): no network, its own process tree
                                                 │ every mount read-only but the folder; own /proc
                                                 └─ fork ─▶ the bot: pid 1 of its namespace,
                                                          capabilities dropped, no_new_privs,
                                                          cwd and HOME = the folder, exec CMD

The confiner writes one line of JSON on the bot's standard output before the bot starts
(:data:`HELLO`: the bot's pid as the caller sees it and what was enforced), then waits for
the bot and exits with its status (``128 + signal`` when it was killed). It dies with the
caller (``PR_SET_PDEATHSIG``) and the bot dies with it; as pid 1 of its namespace, the bot's
death kills every process it started. :meth:`Sandbox.close` kills the whole session.

What a Linux without privileges cannot give is skipped and said in the hello line (see
docs/tournaments.md for what was measured on our machines).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HELLO = "perfectplay-sandbox"
"""The key of the confiner's first line: ``{"perfectplay-sandbox": {...}}``."""
MAX_LINE = 1 << 16
"""The longest line read from a bot (a longer one is garbage: the bot loses)."""
START_SECONDS = 10.0
"""How long the confiner has to write its hello line."""
CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1024, 2048, 1 << 21
ST_RELATIME = 4096
"""statvfs's relatime flag (the other flags share the values of mount's)."""
PR_SET_PDEATHSIG, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 1, 24, 38
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits of one sandboxed process.

    ``memory_mb``: address space (``RLIMIT_AS``); ``cpu_seconds``: CPU time until the caller
    raises it (``RLIMIT_CPU``, SIGXCPU then SIGKILL one second later); ``processes``:
    ``RLIMIT_NPROC`` (not enforced for uid 0: the kernel exempts root); ``file_mb``: the
    largest file it may write (``RLIMIT_FSIZE``); ``open_files``: ``RLIMIT_NOFILE``;
    ``namespaces``: isolate network, mounts, processes (off only for tests of the limits).
    """

    memory_mb: int = 512
    cpu_seconds: int = 30
    processes: int = 32
    file_mb: int = 16
    open_files: int = 64
    namespaces: bool = True


@dataclass(slots=True)
class Enforced:
    """What the confiner managed to enforce (its hello line): ``pid`` of the bot as the
    caller sees it; ``network`` ``"none"`` (an empty network namespace) or ``"open"``;
    ``filesystem`` ``"read-only"`` (every mount but the folder) or ``"open"``, with
    ``unprotected`` mounts it failed to make read-only; ``processes`` ``"own-namespace"``
    or ``"shared"``; ``user`` as the bot runs (``"root-without-capabilities"``, or a uid);
    ``nproc`` whether ``RLIMIT_NPROC`` binds; ``notes`` what failed and why."""

    pid: int = 0
    network: str = "open"
    filesystem: str = "open"
    unprotected: list[str] = field(default_factory=list)
    processes: str = "shared"
    user: str = ""
    nproc: bool = False
    notes: list[str] = field(default_factory=list)


class SandboxEnded(Exception):
    """The sandboxed process closed its output (it exited or was killed)."""


class Sandbox:
    """One command running confined (see the module docstring), spoken to in lines.

    ``argv`` is the command (its program found on ``PATH`` when not a path); the folder is a
    fresh temporary directory (in ``parent``, else the system's), filled by
    ``folder_setup(folder)`` when given, the command's working directory and ``HOME``,
    removed by :meth:`close`; the bot's error log lies beside it. ``env`` adds variables to
    the few the bot gets (``PATH``, ``LANG``, ``HOME``, ``TMPDIR``, and the caller's
    ``PERFECTPLAY_*`` run markers). Raises :class:`SandboxEnded` when the confiner does not
    start.
    """

    def __init__(
        self,
        argv: list[str],
        limits: Limits = Limits(),
        env: dict[str, str] | None = None,
        folder_setup: Any = None,
        parent: Path | None = None,
    ) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="perfectplay-bot-", dir=parent))
        if folder_setup is not None:
            folder_setup(self.folder)
        self.log_path = self.folder.parent / (self.folder.name + ".log")
        self._buffer = b""
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in close()
        config = {"limits": asdict(limits), "folder": str(self.folder), "env": bot_env(self, env)}
        command = [sys.executable, "-I", "-B", "-m", __name__, json.dumps(config), "--", *argv]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            start_new_session=True,
            close_fds=True,
        )
        self.enforced = self._hello()

    # -- talking -----------------------------------------------------------------------------
    def _hello(self) -> Enforced:
        line = self.receive(START_SECONDS)
        try:
            data = json.loads(line or "")[HELLO]
            return Enforced(**data)
        except (ValueError, KeyError, TypeError):
            self.close()
            raise SandboxEnded(f"the sandbox did not start: {self.log_tail()}") from None

    def send(self, line: str) -> None:
        """Write one line to the bot; raises :class:`SandboxEnded` when it is gone."""
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(line.encode() + b"\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise SandboxEnded("the bot closed its input") from None

    def receive(self, seconds: float) -> str | None:
        """The bot's next line (without its end), or ``None`` when ``seconds`` pass first.
        Raises :class:`SandboxEnded` when the output closes, ``ValueError`` for a line
        longer than :data:`MAX_LINE` or not UTF-8."""
        stdout = self.process.stdout
        assert stdout is not None
        deadline = time.monotonic() + seconds
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_LINE:
                raise ValueError(f"a line of more than {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([stdout], [], [], left)
            if not ready:
                return None
            chunk = os.read(stdout.fileno(), MAX_LINE)
            if not chunk:
                raise SandboxEnded("the bot closed its output")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8").rstrip("\r")

    # -- limits while it runs ----------------------------------------------------------------
    def cpu_used(self) -> float:
        """Seconds of CPU the bot has used (0 when it is gone)."""
        try:
            fields = Path(f"/proc/{self.enforced.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_memory_mb(self) -> float:
        """The most address space the bot has held, in MB (``VmPeak``; 0 when it is gone)."""
        try:
            status = Path(f"/proc/{self.enforced.pid}/status").read_text()
        except OSError:
            return 0.0
        for line in status.splitlines():
            if line.startswith("VmPeak:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def allow_cpu(self, seconds: float) -> None:
        """Let the bot use ``seconds`` more CPU from now (its ``RLIMIT_CPU``, raised by the
        caller; whole seconds, rounded up): past it the kernel sends SIGXCPU, a second later
        SIGKILL."""
        soft = math.ceil(self.cpu_used() + seconds)
        with contextlib.suppress(OSError, ValueError):
            resource.prlimit(self.enforced.pid, resource.RLIMIT_CPU, (soft, soft + 1))

    # -- the end -----------------------------------------------------------------------------
    def exit_status(self, wait: float = 0.0) -> int | None:
        """The bot's exit status as the confiner passes it on (``128 + signal`` for a bot
        killed by a signal), or ``None`` while it runs (after waiting up to ``wait``)."""
        try:
            return self.process.wait(timeout=wait) if wait > 0 else self.process.poll()
        except subprocess.TimeoutExpired:
            return None

    def log_tail(self, size: int = 2000) -> str:
        """The end of what the bot (and the confiner) wrote to standard error."""
        try:
            data = self.log_path.read_bytes()
        except OSError:
            return ""
        return data[-size:].decode("utf-8", "replace")

    def close(self) -> None:
        """Kill the whole session (confiner, bot, whatever they started), wait for the
        confiner, remove the folder and the log. Safe to call twice."""
        for pid in (self.enforced.pid if hasattr(self, "enforced") else 0, 0):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                if pid:
                    os.kill(pid, signal.SIGKILL)
                else:
                    os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._log.close()
        shutil.rmtree(self.folder, ignore_errors=True)
        with contextlib.suppress(OSError):
            self.log_path.unlink()


def probe(limits: Limits = Limits()) -> Enforced:
    """What the sandbox enforces on this machine: a trivial command started and ended.
    Raises :class:`SandboxEnded` when no sandbox can be started here."""
    sandbox = Sandbox(["true"], limits)
    sandbox.close()
    return sandbox.enforced


def bot_env(sandbox: Sandbox, extra: dict[str, str] | None) -> dict[str, str]:
    """The environment of a bot: a safe ``PATH``, ``LANG``, the folder as ``HOME`` and
    ``TMPDIR``, the caller's ``PERFECTPLAY_*`` markers, then ``extra``."""
    env = {"PATH": SAFE_PATH, "LANG": "C.UTF-8", "HOME": str(sandbox.folder)}
    env["TMPDIR"] = str(sandbox.folder)
    env.update({k: v for k, v in os.environ.items() if k.startswith("PERFECTPLAY_")})
    env.update(extra or {})
    return env


# -- the confiner: runs in its own interpreter --------------------------------------------------
def _libc() -> Any:
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def _set_limits(limits: Limits) -> None:
    mb = 1 << 20
    for which, value in (
        (resource.RLIMIT_AS, limits.memory_mb * mb),
        (resource.RLIMIT_FSIZE, limits.file_mb * mb),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_NPROC, limits.processes),
        (resource.RLIMIT_CORE, 0),
    ):
        resource.setrlimit(which, (value, value))
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))


def _unshare(libc: Any, enforced: Enforced) -> int:
    """Enter new namespaces (a user namespace too when not root); the flags entered."""
    import ctypes

    uid, gid = os.getuid(), os.getgid()
    flags = CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS
    if uid != 0:
        flags |= CLONE_NEWUSER
    if libc.unshare(flags) != 0:
        enforced.notes.append(f"unshare: {os.strerror(ctypes.get_errno())}")
        return 0
    if uid != 0:
        Path("/proc/self/setgroups").write_text("deny")
        Path("/proc/self/uid_map").write_text(f"0 {uid} 1")
        Path("/proc/self/gid_map").write_text(f"0 {gid} 1")
    enforced.network = "none"
    enforced.processes = "own-namespace"
    return flags


def _mount(libc: Any, source: str | None, target: str, kind: str | None, flags: int) -> bool:
    enc = [None if s is None else s.encode() for s in (source, target, kind)]
    return bool(libc.mount(enc[0], enc[1], enc[2], flags, None) == 0)


def _read_only(libc: Any, folder: str, enforced: Enforced) -> None:
    """Every mount read-only but ``folder`` (bound onto itself first)."""
    _mount(libc, None, "/", None, MS_REC | MS_PRIVATE)
    if not _mount(libc, folder, folder, None, MS_BIND | MS_REC):
        enforced.notes.append("the folder could not be bound")
        return
    points = [line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()]
    for point in points:
        point = point.encode().decode("unicode_escape")
        if point == folder or point.startswith(folder + "/"):
            continue
        try:
            kept = os.statvfs(point).f_flag
        except OSError:
            continue
        flags = kept & (MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME | MS_NODIRATIME)
        flags |= MS_RELATIME if kept & ST_RELATIME else 0
        if not _mount(libc, None, point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | flags):
            enforced.unprotected.append(point)
    enforced.filesystem = "read-only"


def _drop_privileges(libc: Any) -> None:
    """No capabilities after ``exec`` (an empty bounding set) and no way to gain any."""
    last = int(Path("/proc/sys/kernel/cap_last_cap").read_text())
    for cap in range(last + 1):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def confine(config: dict[str, Any], argv: list[str]) -> int:
    """The confiner (see the module docstring): limits, namespaces, then the bot; returns
    the bot's exit status (``128 + signal`` when a signal ended it)."""
    libc = _libc()
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    limits = Limits(**config["limits"])
    folder = str(config["folder"])
    enforced = Enforced()
    flags = _unshare(libc, enforced) if limits.namespaces else 0
    if flags & CLONE_NEWNS:
        _read_only(libc, folder, enforced)
    _set_limits(limits)
    ready, go = os.pipe()
    init = os.fork()
    if init == 0:
        os.close(go)
        _init(libc, flags, folder, config["env"], argv, ready)
    os.close(ready)
    enforced.pid = _child_of(init)
    uid = os.getuid()
    enforced.user = "root-without-capabilities" if uid == 0 else f"uid {uid}"
    enforced.nproc = uid != 0
    os.write(1, (json.dumps({HELLO: asdict(enforced)}) + "\n").encode())
    os.close(go)
    for fd in (0, 1):
        os.close(fd)
    return _status(os.waitpid(init, 0)[1])


def _status(status: int) -> int:
    """An exit status as a shell gives it: the code, or ``128 + signal``."""
    return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


def _child_of(pid: int, seconds: float = START_SECONDS) -> int:
    """The first child of process ``pid`` as this process numbers it (``pid`` itself when it
    starts none in time: a sandbox without a process namespace)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            children = path.read_text().split()
        except OSError:
            return pid
        if children:
            return int(children[0])
        time.sleep(0.001)
    return pid


def _init(
    libc: Any, flags: int, folder: str, env: dict[str, str], argv: list[str], ready: int
) -> None:
    """Process 1 of the new process namespace: its own /proc, then the bot as its only
    child, whose status it passes on. (The bot is not process 1 itself: the kernel ignores
    signals such as SIGXCPU that process 1 does not handle.) When it ends, the kernel ends
    every process left in the namespace."""
    try:
        if flags & CLONE_NEWPID and flags & CLONE_NEWNS:
            _mount(libc, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        bot = os.fork()
        if bot == 0:
            _bot(libc, folder, env, argv, ready)
        os.close(ready)
        for fd in (0, 1):
            os.close(fd)
        code = _status(os.waitpid(bot, 0)[1])
    except BaseException as exc:  # nothing may return into the confiner's code
        sys.stderr.write(f"sandbox: {exc}\n")
        code = 127
    os._exit(code)


def _bot(libc: Any, folder: str, env: dict[str, str], argv: list[str], ready: int) -> None:
    """The bot's process: no privileges, dies with process 1; then ``exec``."""
    try:
        _drop_privileges(libc)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        os.read(ready, 1)  # wait until the hello line is out
        os.close(ready)
        os.chdir(folder)
        program = argv[0] if "/" in argv[0] else shutil.which(argv[0], path=env["PATH"])
        os.execve(program or argv[0], argv, env)
    except BaseException as exc:  # nothing may return into the confiner's code
        sys.stderr.write(f"sandbox: cannot start {argv[0]}: {exc}\n")
        sys.stderr.flush()
    os._exit(127)


def main(arguments: list[str]) -> int:
    """``python -m perfectplay.jobs.sandbox CONFIG -- CMD...``."""
    if len(arguments) < 3 or arguments[1] != "--":
        sys.stderr.write("usage: python -m perfectplay.jobs.sandbox CONFIG -- CMD...\n")
        return 2
    return confine(json.loads(arguments[0]), arguments[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
