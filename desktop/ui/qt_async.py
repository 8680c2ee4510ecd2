"""Our typed wrapper over qasync: task ownership, error reporting and ordered shutdown.

qasync 0.28 keeps no reference to tasks started by ``asyncSlot`` (a task can be garbage-collected
mid-run, qasync#98) and ``asyncClose`` busy-loops ``processEvents``. So nothing in the UI uses
those decorators: widgets own a ``TaskScope`` and call ``scope.spawn(coro)`` from plain slots;
closing the owner cancels its work. Failures go to the log and to ``AsyncRuntime.task_failed``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

import desktop.ui.pyside_fixes  # noqa: F401 - must run before any signal is emitted

if TYPE_CHECKING:
    import asyncio

    from PySide6.QtWidgets import QApplication

# asyncio and qasync are imported when the loop starts, not here: the first window paints
# before them (``desktop.ui.app``), and importing asyncio alone costs a fifth of a bare window.

log = logging.getLogger(__name__)


class AsyncRuntime(QObject):
    """Owns every UI task scope of the process.

    Signals:
        task_failed(str, str): a task of scope ``owner`` raised; the message is for the user.
    """

    task_failed = Signal(str, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._scopes: set[TaskScope] = set()

    def scope(self, owner: str) -> TaskScope:
        """A new task scope named ``owner`` (e.g. ``window:/src/app``)."""
        scope = TaskScope(owner, self)
        self._scopes.add(scope)
        return scope

    def _forget(self, scope: TaskScope) -> None:
        self._scopes.discard(scope)

    def _report(self, owner: str, task: asyncio.Task[Any]) -> None:
        exc = task.exception()
        assert exc is not None
        log.error("task %s of %s failed", task.get_name(), owner, exc_info=exc)
        self.task_failed.emit(owner, f"{type(exc).__name__}: {exc}")

    @property
    def live_tasks(self) -> int:
        """Tasks still running in every scope (tests assert it drops to zero)."""
        return sum(len(scope.tasks) for scope in self._scopes)

    async def aclose(self, timeout: float = 5.0) -> None:
        """Cancel what is left in every scope (after owners shut down their own work)."""
        for scope in tuple(self._scopes):
            await scope.aclose(timeout)


class TaskScope:
    """Strong references to the tasks of one owner; ``aclose`` cancels and awaits them."""

    def __init__(self, owner: str, runtime: AsyncRuntime) -> None:
        self.owner = owner
        self.tasks: set[asyncio.Task[Any]] = set()
        self._runtime = runtime
        self._closed = False

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str | None = None) -> asyncio.Task[Any]:
        """Run ``coro`` on the loop, keep it alive, report its failure.

        Raises:
            RuntimeError: the scope is closed (its owner is gone).
        """
        if self._closed:
            coro.close()
            raise RuntimeError(f"task scope {self.owner} is closed")
        import asyncio  # loaded by then: a task needs the running loop

        task = asyncio.get_running_loop().create_task(coro, name=name)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self._runtime._report(self.owner, task)

    async def aclose(self, timeout: float = 5.0) -> None:
        """Cancel every task of this scope and wait (bounded) until they are gone."""
        import asyncio

        self._closed = True
        pending = tuple(self.tasks)
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending, timeout=timeout)
        self._runtime._forget(self)


def run_qt(app: QApplication, main: Callable[[], Awaitable[int]]) -> int:
    """Run ``main()`` on a qasync loop over ``app`` and return its result.

    ``app.exec()`` is never called: the loop runs Qt's event processing. On Python 3.11
    ``asyncio.run`` has no ``loop_factory``, so an ``asyncio.Runner`` is used; it cancels stray
    tasks, shuts down async generators and closes the loop after it stopped (closing a running
    qasync loop raises).
    """

    import asyncio

    qasync = _qasync()

    async def wrapper() -> int:
        return await main()

    def loop_factory() -> asyncio.AbstractEventLoop:
        return _with_plain_executor(qasync.QEventLoop())

    with asyncio.Runner(loop_factory=loop_factory) as runner:
        return runner.run(wrapper())


def make_loop(app: QApplication) -> asyncio.AbstractEventLoop:
    """A qasync loop over ``app`` (tests drive it with ``run_until_complete``)."""
    return _with_plain_executor(_qasync().QEventLoop(app))


def _with_plain_executor(loop: asyncio.AbstractEventLoop) -> asyncio.AbstractEventLoop:
    """Give ``asyncio.to_thread`` plain threads instead of qasync's ``QThreadExecutor``.

    Blocking work sent to qasync's QThread pool (keyring, SQLite, HTTP clients) crashed the
    interpreter now and then inside ``run_forever`` (segfaults seen in our UI suite; upstream
    qasync#153/#154 report the same class of crash). Worker threads never touch widgets, so
    they need no QThread.
    """
    from concurrent.futures import ThreadPoolExecutor

    loop.set_default_executor(ThreadPoolExecutor(max_workers=8, thread_name_prefix="agentdesk-io"))
    return loop


def _qasync() -> Any:
    """The qasync module, bound to PySide6 (qasync picks the binding from ``QT_API``, qasync#23)."""
    os.environ.setdefault("QT_API", "pyside6")
    import qasync

    return qasync
