# mypy: ignore-errors
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ConverseRequest(_message.Message):
    __slots__ = ("session_id", "message", "agent_id", "system_prompt", "workspace_id", "user_id")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_PROMPT_FIELD_NUMBER: _ClassVar[int]
    WORKSPACE_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    message: str
    agent_id: str
    system_prompt: str
    workspace_id: str
    user_id: str
    def __init__(self, session_id: _Optional[str] = ..., message: _Optional[str] = ..., agent_id: _Optional[str] = ..., system_prompt: _Optional[str] = ..., workspace_id: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class ConverseEvent(_message.Message):
    __slots__ = ("chunk", "thinking", "tool_call", "tool_result", "done", "usage")
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    THINKING_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALL_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESULT_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    chunk: ChunkEvent
    thinking: ThinkingEvent
    tool_call: ToolCallEvent
    tool_result: ToolResultEvent
    done: DoneEvent
    usage: UsageEvent
    def __init__(self, chunk: _Optional[_Union[ChunkEvent, _Mapping]] = ..., thinking: _Optional[_Union[ThinkingEvent, _Mapping]] = ..., tool_call: _Optional[_Union[ToolCallEvent, _Mapping]] = ..., tool_result: _Optional[_Union[ToolResultEvent, _Mapping]] = ..., done: _Optional[_Union[DoneEvent, _Mapping]] = ..., usage: _Optional[_Union[UsageEvent, _Mapping]] = ...) -> None: ...

class ChunkEvent(_message.Message):
    __slots__ = ("agent_id", "text")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    text: str
    def __init__(self, agent_id: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class ThinkingEvent(_message.Message):
    __slots__ = ("agent_id", "text")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    text: str
    def __init__(self, agent_id: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class ToolCallEvent(_message.Message):
    __slots__ = ("agent_id", "tool", "args_json", "call_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    TOOL_FIELD_NUMBER: _ClassVar[int]
    ARGS_JSON_FIELD_NUMBER: _ClassVar[int]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    tool: str
    args_json: str
    call_id: str
    def __init__(self, agent_id: _Optional[str] = ..., tool: _Optional[str] = ..., args_json: _Optional[str] = ..., call_id: _Optional[str] = ...) -> None: ...

class ToolResultEvent(_message.Message):
    __slots__ = ("call_id", "result_json", "error", "error_message")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_JSON_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    ERROR_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    result_json: str
    error: bool
    error_message: str
    def __init__(self, call_id: _Optional[str] = ..., result_json: _Optional[str] = ..., error: _Optional[bool] = ..., error_message: _Optional[str] = ...) -> None: ...

class DoneEvent(_message.Message):
    __slots__ = ("model", "turns")
    MODEL_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    model: str
    turns: _containers.RepeatedCompositeFieldContainer[Turn]
    def __init__(self, model: _Optional[str] = ..., turns: _Optional[_Iterable[_Union[Turn, _Mapping]]] = ...) -> None: ...

class Turn(_message.Message):
    __slots__ = ("agent_id", "text")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    text: str
    def __init__(self, agent_id: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class UsageEvent(_message.Message):
    __slots__ = ("agent_id", "model", "prompt_tokens", "completion_tokens", "total_tokens", "tool_use_prompt_tokens", "thoughts_tokens", "cached_tokens", "call_sequence")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    PROMPT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    COMPLETION_TOKENS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_TOKENS_FIELD_NUMBER: _ClassVar[int]
    TOOL_USE_PROMPT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    THOUGHTS_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CACHED_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CALL_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    tool_use_prompt_tokens: int
    thoughts_tokens: int
    cached_tokens: int
    call_sequence: int
    def __init__(self, agent_id: _Optional[str] = ..., model: _Optional[str] = ..., prompt_tokens: _Optional[int] = ..., completion_tokens: _Optional[int] = ..., total_tokens: _Optional[int] = ..., tool_use_prompt_tokens: _Optional[int] = ..., thoughts_tokens: _Optional[int] = ..., cached_tokens: _Optional[int] = ..., call_sequence: _Optional[int] = ...) -> None: ...
