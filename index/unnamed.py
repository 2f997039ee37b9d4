"""The attribute a query asks, read without the person it names (issue 23, item 5).

The profile bank's questions are about "they" (``profile_bank.py``); a query names its
person ("How does Bartholomew get to work?"), and a name the model has not seen weighs
on the query's vector as much as what it asks: .29 to "How do they get to work?", under
``asked.ASKED_MIN``. The ranking already reads the content cosine with the direction of
the query's first name taken out (``IndexParams.name_projection``, ``recall.without_name``:
the name's vector is embedded with the query, mostly from the cache). So a query that asks
no attribute clearly as it is (``asked.asked``) is read once more the same way: its
content vector with the name's unit vector projected out, against the bank (.47 to the
commute's question, .32 to the next). No model call: the vectors are the search's own.

What this second read finds is taken as asked faintly and unnamed (``asked.Asked``): only
a person's facts are its values, and only a newer value told as a change that the query
ties with an older one is moved by it (``changed_ahead.py``); of a single-valued
attribute only, and clearly (:data:`UNNAMED_MIN`, :data:`UNNAMED_MARGIN`: of LoCoMo's 999
questions, the 690 that ask nothing clearly, none reaches both; its questions about
events, "Where will Tim be going for a semester abroad?", reach .50 with a margin of .02).
"""

from __future__ import annotations

import numpy as np

from .profile_bank import ATTRIBUTES, attribute_scores

__all__ = ["UNNAMED_MIN", "UNNAMED_MARGIN", "read_unnamed"]

#: The least cosine of the query without its name with its attribute's best question
#: (all-MiniLM-L6-v2: "How does Bartholomew get to work?" .47 to the commute's).
UNNAMED_MIN = 0.42
#: How much better than any other attribute's question it must be asked (the commute's
#: .47 against the working pattern's .32; "What year does Cressida teach?" .53 education
#: against .51 child stays unasked).
UNNAMED_MARGIN = 0.05


def read_unnamed(query: np.ndarray | None, name: np.ndarray | None,
                 questions: np.ndarray) -> int | None:
    """The single-valued attribute (its index in the bank) that ``query`` (the query's
    unit content vector) asks clearly once the unit vector of its first ``name`` is
    projected out; None without a name, or asking none clearly."""
    if query is None or name is None:
        return None
    q = np.asarray(query, dtype=np.float64).reshape(-1)
    n = np.asarray(name, dtype=np.float64).reshape(-1)
    if q.shape != n.shape or q.shape[0] != questions.shape[1]:
        return None
    rest = q - float(q @ n) * n
    norm = float(np.linalg.norm(rest))
    if norm < 1e-6:
        return None     # the query says nothing but the name
    row = attribute_scores((rest / norm).astype(np.float32)[None, :], questions)[0]
    order = np.argsort(-row)
    best = int(order[0])
    if row[best] < UNNAMED_MIN or row[best] - row[order[1]] < UNNAMED_MARGIN or \
            not ATTRIBUTES[best].single:
        return None
    return best
