"""The two streaming dialects ``tests.fakes.fake_llm.FakeLLM`` serves by default.

Anthropic Messages (``…/messages``) and OpenAI Chat Completions (``…/chat/completions``) as
server-sent events, per ``shared/reference/real-agents-offline.md`` §3, plus helpers that read the
tool results an agent sent back (``anthropic_tool_results``, ``openai_tool_results``).
"""

from __future__ import annotations

import json
import time
from typing import Any, ClassVar

from tests.fakes.fake_llm_script import Turn, sse


def _split(text: str) -> list[str]:
    """A JSON string in two pieces, to exercise the client's accumulation."""
    middle = len(text) // 2
    return [p for p in (text[:middle], text[middle:]) if p]


class AnthropicMessages:
    """Anthropic Messages streaming (``event:`` name equals ``data.type``)."""

    name = "anthropic"
    _ERROR_TYPES: ClassVar[dict[int, str]] = {
        400: "invalid_request_error",
        401: "authentication_error",
        403: "permission_error",
        404: "not_found_error",
        429: "rate_limit_error",
        529: "overloaded_error",
    }

    def error_body(self, turn: Turn) -> dict[str, Any]:
        kind = self._ERROR_TYPES.get(turn.status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": turn.error_message}}

    def frames(self, turn: Turn, request: dict[str, Any], index: int) -> list[bytes]:
        def ev(data: dict[str, Any]) -> bytes:
            return sse(data, data["type"])

        usage_in = turn.usage.get("input_tokens", 12)
        usage_out = turn.usage.get("output_tokens", 5)
        out = [
            ev(
                {
                    "type": "message_start",
                    "message": {
                        "id": f"msg_fake_{index}",
                        "type": "message",
                        "role": "assistant",
                        "model": request.get("model", "fake-model"),
                        "content": [],
                        "stop_reason": None,
                        "stop_sequence": None,
                        "usage": {
                            "input_tokens": usage_in,
                            "output_tokens": 1,
                            "cache_read_input_tokens": turn.usage.get("cache_read_tokens", 0),
                            "cache_creation_input_tokens": turn.usage.get("cache_write_tokens", 0),
                        },
                    },
                }
            )
        ]
        block = 0
        if turn.thinking:
            out.append(
                ev(
                    {
                        "type": "content_block_start",
                        "index": block,
                        "content_block": {"type": "thinking", "thinking": "", "signature": ""},
                    }
                )
            )
            out.append(
                ev(
                    {
                        "type": "content_block_delta",
                        "index": block,
                        "delta": {"type": "thinking_delta", "thinking": turn.thinking},
                    }
                )
            )
            out.append(
                ev(
                    {
                        "type": "content_block_delta",
                        "index": block,
                        "delta": {"type": "signature_delta", "signature": f"fake-sig-{index}"},
                    }
                )
            )
            out.append(ev({"type": "content_block_stop", "index": block}))
            block += 1
        if turn.chunks():
            start = {"type": "text", "text": ""}
            out.append(ev({"type": "content_block_start", "index": block, "content_block": start}))
            for chunk in turn.chunks():
                delta = {"type": "text_delta", "text": chunk}
                out.append(ev({"type": "content_block_delta", "index": block, "delta": delta}))
            out.append(ev({"type": "content_block_stop", "index": block}))
            block += 1
        for call, call_id in zip(turn.tool_calls, turn.call_ids("toolu_fake_", index), strict=True):
            start = {"type": "tool_use", "id": call_id, "name": call.name, "input": {}}
            out.append(ev({"type": "content_block_start", "index": block, "content_block": start}))
            for piece in _split(json.dumps(call.arguments)):
                delta = {"type": "input_json_delta", "partial_json": piece}
                out.append(ev({"type": "content_block_delta", "index": block, "delta": delta}))
            out.append(ev({"type": "content_block_stop", "index": block}))
            block += 1
        stop = "tool_use" if turn.tool_calls else "end_turn"
        out.append(
            ev(
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": usage_out},
                }
            )
        )
        out.append(ev({"type": "message_stop"}))
        return out


class ChatCompletions:
    """OpenAI Chat Completions streaming (no ``event:`` lines; ends with ``[DONE]``)."""

    name = "openai-chat"

    def error_body(self, turn: Turn) -> dict[str, Any]:
        kind = {401: "invalid_api_key", 429: "rate_limit_exceeded"}.get(turn.status, "server_error")
        return {"error": {"message": turn.error_message, "type": kind, "code": kind}}

    def frames(self, turn: Turn, request: dict[str, Any], index: int) -> list[bytes]:
        created = int(time.time())
        model = request.get("model", "fake-model")

        def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
            choice = {"index": 0, "delta": delta, "finish_reason": finish}
            return sse(
                {
                    "id": f"chatcmpl-fake-{index}",
                    "object": "chat.completion.chunk",
                    "created": created,
                    "model": model,
                    "choices": [choice],
                    **extra,
                }
            )

        out = [chunk({"role": "assistant", "content": ""})]
        if turn.thinking:
            out.append(chunk({"reasoning_content": turn.thinking}))
        out += [chunk({"content": text}) for text in turn.chunks()]
        ids = turn.call_ids("call_fake_", index)
        for n, (call, call_id) in enumerate(zip(turn.tool_calls, ids, strict=True)):
            pieces = _split(json.dumps(call.arguments)) or [""]
            head = {"name": call.name, "arguments": pieces[0]}
            first = {"index": n, "id": call_id, "type": "function", "function": head}
            out.append(chunk({"tool_calls": [first]}))
            for piece in pieces[1:]:
                out.append(chunk({"tool_calls": [{"index": n, "function": {"arguments": piece}}]}))
        prompt = turn.usage.get("input_tokens", 12)
        completion = turn.usage.get("output_tokens", 5)
        usage = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
        out.append(chunk({}, "tool_calls" if turn.tool_calls else "stop", usage=usage))
        out.append(sse("[DONE]"))
        return out


def anthropic_tool_results(body: dict[str, Any]) -> dict[str, tuple[str, bool]]:
    """``{tool_use_id: (content, is_error)}`` from the last user message of a request."""
    last = body["messages"][-1]
    results: dict[str, tuple[str, bool]] = {}
    for block in last["content"] if isinstance(last["content"], list) else []:
        if block.get("type") == "tool_result":
            content = block.get("content", "")
            if isinstance(content, list):
                content = "".join(part.get("text", "") for part in content)
            results[block["tool_use_id"]] = (content, bool(block.get("is_error", False)))
    return results


def openai_tool_results(body: dict[str, Any]) -> dict[str, tuple[str, bool]]:
    """``{tool_call_id: (content, False)}`` from the trailing ``tool`` messages of a request
    (Chat Completions has no error flag)."""
    results: dict[str, tuple[str, bool]] = {}
    for message in reversed(body["messages"]):
        if message.get("role") != "tool":
            break
        results[message["tool_call_id"]] = (message.get("content", ""), False)
    return results
