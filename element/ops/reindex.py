"""``reindex``: re-embed, with the model the server runs, every memory whose vectors are
missing or come from another model (what ``triform reindex`` asks of a running server).

Opening a memory element with a new model marks the old vectors stale; until they are
embedded again those memories are found by text only. The answer is the line the command
line prints for the element.
"""

from __future__ import annotations

import time

from .op import MEMORY, Activity, OpCall, OpResult, OpTable
from .schemas import EMPTY, STRING, integer, obj

__all__ = ["ops"]

ops = OpTable()


@ops.op("reindex", "POST", "reindex", "write", types=MEMORY,
        summary="Re-embed memories whose vectors are missing or from another model",
        request=EMPTY,
        response=obj({"path": STRING, "model": STRING, "memories": integer(0),
                      "reembedded": integer(0),
                      "seconds": {"type": "number", "minimum": 0}},
                     ["path", "model", "memories", "reembedded", "seconds"]),
        description="Memories already embedded with the current model are left alone, so "
                    "a second call re-embeds nothing. Long for large elements: the call "
                    "returns when every stale memory is embedded again.")
def reindex(call: OpCall) -> OpResult:
    started = time.monotonic()
    with call.home.memory_store(call.element) as store:
        reembedded = store.repair_embeddings()
        memories = len(store)
    model = call.home.embedder.model_id
    return OpResult({"path": call.element.path, "model": model, "memories": memories,
                     "reembedded": reembedded,
                     "seconds": round(time.monotonic() - started, 3)},
                    activity=[Activity({"reembedded": reembedded, "model": model})]
                    if reembedded else ())
