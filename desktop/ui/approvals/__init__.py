"""Keyboard-first approval cards that show what a tool call will do before it runs."""

from desktop.ui.approvals.card import ApprovalCard, CardState, describe_decision
from desktop.ui.approvals.navigator import ApprovalNavigator

__all__ = ["ApprovalCard", "ApprovalNavigator", "CardState", "describe_decision"]
