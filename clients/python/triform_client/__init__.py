"""Python client for the Triform Memory HTTP API.

    from triform_client import Client

    with Client("http://127.0.0.1:8765", token) as tf:
        memory = tf.memory("demo/memory")
        memory.store("Ana prefers tea over coffee", "preference")
        for hit in memory.search("what does Ana drink?")["results"]:
            print(hit["score"], hit["memory"]["content"])

Every failure raises a :class:`TriformError` subclass carrying ``code``, ``error_class``,
``retryable``, ``status`` and the message.
"""

from .agents import Agent, AgentFacing
from .client import Client
from .elements import Circle, Element
from .errors import (
                     Conflict,
                     ConnectionFailed,
                     Forbidden,
                     InvalidResponse,
                     MethodNotAllowed,
                     NotFound,
                     NotImplementedOp,
                     RateLimited,
                     ServerError,
                     TooLarge,
                     TriformError,
                     Unauthorized,
                     Unavailable,
                     ValidationError,
)
from .events import EventStream
from .memory import MemoryElement
from .models import (
                     JSON,
                     ActivityPage,
                     Category,
                     Decision,
                     ElementInfo,
                     EvalCase,
                     EvalRun,
                     EvalStatus,
                     EvalSummary,
                     Event,
                     ForgetResult,
                     Memory,
                     MemoryImport,
                     MemoryPage,
                     MemorySource,
                     MemoryVersion,
                     NewMemory,
                     Observation,
                     SearchHit,
                     SearchResult,
                     Spec,
                     SpecAnswer,
                     SpecUpdate,
                     Stats,
                     StoreResult,
                     SubjectType,
                     Turn,
)
from .retry import RetryPolicy
from .source import Source
from .transport import VERSION, RetryEvent

__version__ = VERSION

__all__ = ["Client", "Element", "Circle", "MemoryElement", "Agent", "AgentFacing", "Source",
           "EventStream", "RetryEvent", "RetryPolicy",
           "TriformError", "ValidationError", "Unauthorized", "Forbidden", "NotFound",
           "MethodNotAllowed", "Conflict", "TooLarge", "RateLimited", "ServerError",
           "NotImplementedOp", "Unavailable", "ConnectionFailed", "InvalidResponse",
           "JSON", "Category", "SubjectType", "MemorySource", "Memory", "NewMemory",
           "StoreResult", "SearchHit", "SearchResult", "MemoryPage", "Stats", "ForgetResult",
           "ElementInfo", "Spec", "SpecAnswer", "SpecUpdate", "Event", "ActivityPage",
           "MemoryImport", "MemoryVersion", "Turn", "Decision", "Observation", "EvalRun",
           "EvalCase",
           "EvalSummary", "EvalStatus", "__version__"]
