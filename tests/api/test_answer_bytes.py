"""What the server puts on the wire: an answer's JSON (orjson, ``api/json_answer.py``),
compared with what Flask's own encoder writes, by value, on any JSON-shaped value
(Hypothesis) and on the values orjson would write otherwise (dates, big integers, lone
surrogates...).
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import uuid
from typing import Any

import pytest
from flask import Flask, jsonify
from hypothesis import given
from hypothesis import strategies as st

from api.json_answer import FastJSONProvider

_FAST = Flask("fast")
_FAST.json = FastJSONProvider(_FAST)
_FLASK = Flask("flask")

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner,
                                                                max_size=4),
    max_leaves=20)


def answers(value: Any) -> tuple[bytes, bytes]:
    """The answer's body by orjson and by Flask's own provider."""
    with _FAST.app_context():
        fast = jsonify(value)
    with _FLASK.app_context():
        flask = jsonify(value)
    assert fast.mimetype == flask.mimetype == "application/json"
    return fast.get_data(), flask.get_data()


@given(_JSON)
def test_an_answer_holds_the_same_json_as_flask_writes(value: Any) -> None:
    fast, flask = answers(value)
    assert json.loads(fast) == json.loads(flask)
    assert fast.endswith(b"\n")


@dataclasses.dataclass
class _Point:
    x: int


@pytest.mark.parametrize("value", [
    {"at": datetime.datetime(2026, 12, 4, 9, 30)},          # Flask: an HTTP date
    {"big": 2 ** 70}, {1: "a non-string key"}, {"lone": "\ud800"}, _Point(3),
    {"id": uuid.UUID(int=7)}, {"b": 1, "a": 2}])
def test_what_orjson_would_write_otherwise_is_flasks_bytes(value: Any) -> None:
    fast, flask = answers(value)
    assert fast == flask            # the stdlib wrote it, or orjson wrote the same bytes


def test_an_answer_beyond_ascii_is_utf8_and_nan_is_null() -> None:
    fast, flask = answers({"name": "Zoë", "score": float("nan"), "top": float("inf")})
    assert fast == '{"name":"Zoë","score":null,"top":null}\n'.encode()
    assert flask == b'{"name":"Zo\\u00eb","score":NaN,"top":Infinity}\n'   # not JSON
