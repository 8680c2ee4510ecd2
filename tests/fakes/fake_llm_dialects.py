"""OpenAI Responses and Gemini streaming for ``tests.fakes.fake_llm.FakeLLM``.

Codex (``codex app-server``, codex-acp) speaks OpenAI Responses (``…/responses``), Gemini CLI
speaks ``…:streamGenerateContent?alt=sse``; both formats follow
``shared/reference/real-agents-offline.md`` §3.1 and §3.4. Plug them in with
``install_dialects(llm)``. Helpers read what the agent sent back after a tool call
(``responses_tool_outputs``, ``gemini_function_responses``).
"""

from __future__ import annotations

import json
from typing import Any

from tests.fakes.fake_llm import FakeLLM, Turn, sse


class OpenAIResponses:
    """OpenAI Responses streaming: the ``event:`` name equals ``data.type``."""

    name = "openai-responses"

    def error_body(self, turn: Turn) -> dict[str, Any]:
        return {"error": {"type": "server_error", "message": turn.error_message}}

    def frames(self, turn: Turn, request: dict[str, Any], index: int) -> list[bytes]:
        def ev(data: dict[str, Any]) -> bytes:
            return sse(data, data["type"])

        response_id = f"resp_fake_{index}"
        out = [ev({"type": "response.created", "response": {"id": response_id}})]
        output = 0
        if turn.chunks():
            item_id = f"msg_fake_{index}"
            item: dict[str, Any] = {
                "type": "message",
                "id": item_id,
                "role": "assistant",
                "content": [],
            }
            out.append(ev({"type": "response.output_item.added", "output_index": 0, "item": item}))
            for chunk in turn.chunks():
                out.append(
                    ev(
                        {
                            "type": "response.output_text.delta",
                            "item_id": item_id,
                            "output_index": output,
                            "content_index": 0,
                            "delta": chunk,
                        }
                    )
                )
            text = "".join(turn.chunks())
            done = {**item, "content": [{"type": "output_text", "text": text, "annotations": []}]}
            out.append(ev({"type": "response.output_item.done", "output_index": 0, "item": done}))
            output += 1
        for call, call_id in zip(turn.tool_calls, turn.call_ids("call_fake_", index), strict=True):
            call_item = {
                "type": "function_call",
                "id": f"fc_{call_id}",
                "call_id": call_id,
                "name": call.name,
                "arguments": json.dumps(call.arguments),
                "status": "completed",
            }
            if "::" in call.name:  # a tool of a namespace (Codex's MCP servers): "NS::tool"
                call_item["namespace"], call_item["name"] = call.name.split("::", 1)
            for kind in ("response.output_item.added", "response.output_item.done"):
                out.append(ev({"type": kind, "output_index": output, "item": call_item}))
            output += 1
        usage_in = turn.usage.get("input_tokens", 12)
        usage_out = turn.usage.get("output_tokens", 5)
        usage = {
            "input_tokens": usage_in,
            "input_tokens_details": {"cached_tokens": turn.usage.get("cache_read_tokens", 0)},
            "output_tokens": usage_out,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": usage_in + usage_out,
        }
        completed = {"id": response_id, "status": "completed", "usage": usage}
        out.append(ev({"type": "response.completed", "response": completed}))
        return out


class GeminiStream:
    """Gemini ``streamGenerateContent?alt=sse``: one ``data:`` frame, no ``event:`` line."""

    name = "gemini"

    def error_body(self, turn: Turn) -> dict[str, Any]:
        return {"error": {"code": turn.status, "message": turn.error_message, "status": "ERROR"}}

    def frames(self, turn: Turn, request: dict[str, Any], index: int) -> list[bytes]:
        parts: list[dict[str, Any]] = [{"text": chunk} for chunk in turn.chunks()]
        parts += [{"functionCall": {"name": c.name, "args": c.arguments}} for c in turn.tool_calls]
        usage_in = turn.usage.get("input_tokens", 12)
        usage_out = turn.usage.get("output_tokens", 5)
        body = {
            "candidates": [
                {
                    "content": {"role": "model", "parts": parts or [{"text": ""}]},
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "usageMetadata": {
                "promptTokenCount": usage_in,
                "candidatesTokenCount": usage_out,
                "totalTokenCount": usage_in + usage_out,
            },
            "modelVersion": "gemini-2.5-flash",
        }
        return [sse(body)]


def install_dialects(llm: FakeLLM) -> FakeLLM:
    """Serve OpenAI Responses and Gemini streaming from ``llm`` too."""
    llm.add_dialect("/responses", OpenAIResponses())
    llm.add_dialect(":streamGenerateContent", GeminiStream())
    return llm


def responses_tool_outputs(body: dict[str, Any]) -> dict[str, str]:
    """``{call_id: output}`` of every ``function_call_output`` in a Responses request."""
    found: dict[str, str] = {}
    for item in body.get("input") or []:
        if isinstance(item, dict) and item.get("type") == "function_call_output":
            output = item.get("output")
            found[str(item.get("call_id"))] = (
                output if isinstance(output, str) else json.dumps(output)
            )
    return found


def gemini_function_responses(body: dict[str, Any]) -> dict[str, Any]:
    """``{function name: response}`` of every ``functionResponse`` in a Gemini request."""
    found: dict[str, Any] = {}
    for content in body.get("contents") or []:
        for part in content.get("parts") or []:
            response = part.get("functionResponse") if isinstance(part, dict) else None
            if isinstance(response, dict):
                found[str(response.get("name"))] = response.get("response")
    return found
