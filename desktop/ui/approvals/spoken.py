"""What a screen reader hears about an approval card: its keys in words, and the announcement
made when a request appears (``desktop.ui.announce`` sends it).

A card's buttons take no focus (the card itself has the keyboard), so its accessible description
says which keys decide; the title (the card's accessible name) says what will happen.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from desktop.ui.approvals.summary import Sentence

__all__ = ["announcement", "keys"]


def keys(offers_reject_always: bool, extra: str = "") -> str:
    """The card's keys in words, after the agent's ``extra`` description when there is one."""
    said = [
        QCoreApplication.translate("ApprovalCard", "Y or Enter approves once"),
        QCoreApplication.translate("ApprovalCard", "A approves always"),
        QCoreApplication.translate("ApprovalCard", "N or Escape denies"),
        QCoreApplication.translate("ApprovalCard", "Shift+N denies with a reason"),
    ]
    if offers_reject_always:
        said.append(QCoreApplication.translate("ApprovalCard", "Ctrl+Shift+N denies always"))
    said.append(
        QCoreApplication.translate(
            "ApprovalCard", "Tab goes to the next request, Shift+Tab back to the prompt"
        )
    )
    text = QCoreApplication.translate("ApprovalCard", "Keys: {keys}.").format(keys="; ".join(said))
    return f"{extra.rstrip('.')}. {text}" if extra else text


def announcement(sentence: Sentence) -> str:
    """What screen readers are told when a request appears."""
    return QCoreApplication.translate(
        "ApprovalCard", "Approval needed: {what}. Tab to review it, Y approves, N denies."
    ).format(what=sentence.plain())
