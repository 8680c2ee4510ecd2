"""Conformance vector 45: every name-normalisation example of the reference."""

from __future__ import annotations

import pytest

from desktop.sdk import app_server_event_name, normalize_method, signal_event_name

EXAMPLES = {
    "turn/started": "turn.started",
    "turn/diff/updated": "turn.diff.updated",
    "thread/name/updated": "thread.name.updated",
    "item/tool/call": "item.tool.call",
    "app/list/updated": "app.list.updated",
    "error": "error",
    "thread/tokenUsage/updated": "thread.token_usage.updated",
    "item/agentMessage/delta": "item.agent_message.delta",
    "item/commandExecution/outputDelta": "item.command_execution.output_delta",
    "item/commandExecution/terminalInteraction": "item.command_execution.terminal_interaction",
    "item/fileChange/outputDelta": "item.file_change.output_delta",
    "item/mcpToolCall/progress": "item.mcp_tool_call.progress",
    "item/reasoning/summaryTextDelta": "item.reasoning.summary_text_delta",
    "item/reasoning/summaryPartAdded": "item.reasoning.summary_part_added",
    "item/reasoning/textDelta": "item.reasoning.text_delta",
    "rawResponseItem/completed": "raw_response_item.completed",
    "mcpServer/oauthLogin/completed": "mcp_server.oauth_login.completed",
    "account/rateLimits/updated": "account.rate_limits.updated",
    "deprecationNotice": "deprecation_notice",
    "configWarning": "config_warning",
    "windows/worldWritableWarning": "windows.world_writable_warning",
    "authStatusChange": "auth_status_change",
    "loginChatGptComplete": "login_chat_gpt_complete",
    "sessionConfigured": "session_configured",
    "codex/event/agent_message_content_delta": "codex.event.agent_message_content_delta",
    "codex/event/agent_message": "codex.event.agent_message",
    "item/commandExecution/requestApproval": "item.command_execution.request_approval",
    "item/fileChange/requestApproval": "item.file_change.request_approval",
    "item/tool/requestUserInput": "item.tool.request_user_input",
    "account/chatgptAuthTokens/refresh": "account.chatgpt_auth_tokens.refresh",
    "applyPatchApproval": "apply_patch_approval",
    "execCommandApproval": "exec_command_approval",
    "tool/requestUserInput": "tool.request_user_input",
    "": "unknown",
    "/": "unknown.unknown",
    "turn//started": "turn.unknown.started",
    "turn/started/": "turn.started.unknown",
    " turn / started ": "turn.started",
    "---/x": "x",
    "HTTPServer/getURLPath": "http_server.get_url_path",
    "XMLHttpRequest": "xml_http_request",
    "item/MCPToolCall/Progress": "item.mcp_tool_call.progress",
    "thread/v2Started": "thread.v2_started",
    "a1B2": "a1_b2",
    "ABC": "abc",
    "a-b/c.d": "a_b.c_d",
    "already_snake/Case": "already_snake.case",
    "item/fileChange2/x": "item.file_change2.x",
    "über/straße": "ber.stra_e",
}


@pytest.mark.parametrize(("method", "expected"), list(EXAMPLES.items()))
def test_normalize_method(method: str, expected: str) -> None:
    assert normalize_method(method) == expected


def test_event_names() -> None:
    assert app_server_event_name("item/fileChange/outputDelta", "notification") == (
        "app_server.item.file_change.output_delta"
    )
    assert app_server_event_name("item/fileChange/requestApproval", "request") == (
        "app_server.request.item.file_change.request_approval"
    )
    assert app_server_event_name("item/commandExecution/requestApproval", "request") == (
        "app_server.request.item.command_execution.request_approval"
    )
    assert signal_event_name("aionrs", "tool_request", "notification") == "aionrs.tool_request"
