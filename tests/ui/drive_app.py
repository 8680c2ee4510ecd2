"""Run the real app start-to-exit once: open a window, stream a flood, quit; exit status.

``python drive_app.py WORKSPACE AGENT_CMD PROMPT`` uses the same ``run_qt`` and shutdown path as
``agentdesk`` (sessions closed, agents reaped, loop closed, Qt released, interpreter exit).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from desktop.ui.app import AppContext
from desktop.ui.qt_async import run_qt
from desktop.ui.startup import make_application


async def scenario(context: AppContext, workspace: Path, prompt: str) -> int:
    window = context.open_workspace(workspace)
    pane = window.current
    assert pane is not None
    pane.submit(prompt, [])
    await pane.session.wait_idle()
    context.quit()
    await context.all_closed.wait()
    await context.shutdown()
    return 0


def main() -> int:
    workspace, agent_cmd, prompt = sys.argv[1], sys.argv[2], sys.argv[3]
    app = make_application()
    options = argparse.Namespace(path=workspace, agent=None, agent_cmd=agent_cmd)

    async def go() -> int:
        return await scenario(AppContext(app, options), Path(workspace), prompt)

    return run_qt(app, go)


if __name__ == "__main__":
    sys.exit(main())
