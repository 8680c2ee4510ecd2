"""Our typed wrapper over qasync: task ownership, error reporting and ordered shutdown.

qasync 0.28 keeps no reference to tasks started by ``asyncSlot`` (a task can be garbage-collected
mid-run, qasync#98) and ``asyncClose`` busy-loops ``processEvents``. So nothing in the UI uses
those decorators: widgets own a ``TaskScope`` and call ``scope.spawn(coro)`` from plain slots;
closing the owner cancels its work. Failures go to the log and to ``AsyncRuntime.task_failed``.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

import desktop.ui.pyside_fixes  # noqa: F401 - must run before any signal is emitted
from desktop.ui.garbage import GuiThreadGC

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
        self._finishing: set[asyncio.Task[Any]] = set()
        self._runtime = runtime
        self._closed = False

    def spawn(
        self, coro: Coroutine[Any, Any, Any], name: str | None = None, *, finish: bool = False
    ) -> asyncio.Task[Any]:
        """Run ``coro`` on the loop, keep it alive, report its failure.

        ``finish``: closing work (stopping an extension runtime after its window closed) that
        ``aclose`` lets end, within its timeout, instead of cancelling it half-way.

        Raises:
            RuntimeError: the scope is closed (its owner is gone).
        """
        if self._closed:
            coro.close()
            raise RuntimeError(f"task scope {self.owner} is closed")
        import asyncio  # loaded by then: a task needs the running loop

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the loop has ended (a timer fired while the app shut down)
            coro.close()
            raise
        task = loop.create_task(coro, name=name)
        self.tasks.add(task)
        if finish:
            self._finishing.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        self._finishing.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self._runtime._report(self.owner, task)

    async def aclose(self, timeout: float = 5.0) -> None:
        """Let closing work finish, cancel every other task of this scope, and wait (bounded)
        until they are gone."""
        import asyncio

        self._closed = True
        if self._finishing:
            await asyncio.wait(tuple(self._finishing), timeout=timeout)
        pending = tuple(self.tasks)
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending, timeout=timeout)
        self._runtime._forget(self)


class LoopStopped(RuntimeError):
    """Qt's event loop ended before the app's main coroutine did: Qt quit on its own (the X11
    or Wayland connection was lost)."""


#: The exit status when Qt stopped the app (its display went away).
DISPLAY_LOST = 1


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
        return _with_plain_executor(_loop_class(qasync)(app))

    with asyncio.Runner(loop_factory=loop_factory) as runner:
        try:
            return runner.run(wrapper())
        except LoopStopped:
            # What was completed is already saved; say it in one line, never a traceback.
            log.error("Qt stopped the app (the connection to the display was lost); exiting")
            return DISPLAY_LOST


def make_loop(app: QApplication) -> asyncio.AbstractEventLoop:
    """A qasync loop over ``app`` (tests drive it with ``run_until_complete``)."""
    return _with_plain_executor(_loop_class(_qasync())(app))


@functools.cache
def _loop_class(qasync: Any) -> Callable[[QApplication], asyncio.AbstractEventLoop]:
    """qasync's loop, collecting cyclic garbage on the GUI thread only while it is open."""

    class GuiLoop(qasync.QEventLoop):  # type: ignore[misc]
        def __init__(self, app: QApplication) -> None:
            super().__init__(app)
            self._app = app
            self._gc_hold: GuiThreadGC | None = GuiThreadGC.hold()

        def run_until_complete(self, future: Any) -> Any:
            """qasync's, with the running loop set while Qt's events are processed "one last
            time" after ``run_forever``: qasync (0.28) processes them after it has unset the
            running loop, so a task stepped there failed with "no running event loop" (a history
            service opening in a test between two ``run_until_complete`` calls; at exit in the
            app). Workaround for qasync's ``QEventLoop.run_until_complete``; remove when qasync
            keeps the running loop for that last pass."""
            import asyncio

            from PySide6.QtCore import QEventLoop

            future = asyncio.ensure_future(future, loop=self)

            def stop(_future: object) -> None:
                self.stop()

            future.add_done_callback(stop)
            try:
                self.run_forever()
            finally:
                future.remove_done_callback(stop)
            asyncio.events._set_running_loop(self)
            try:
                self._app.eventDispatcher().processEvents(QEventLoop.ProcessEventsFlag.AllEvents)
            finally:
                asyncio.events._set_running_loop(None)
            if not future.done():
                raise LoopStopped("Event loop stopped before Future completed.")
            return future.result()

        def close(self) -> None:
            super().close()
            if self._gc_hold is not None:
                self._gc_hold.release()
                self._gc_hold = None

    return GuiLoop


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
