"""MemorySettings: the element properties the runtime obeys, validated, with the sheet's defaults.

The element layer owns the property schema; this module reads only the properties that
change runtime behaviour and ignores the rest (``description``, ``scope``,
``conscious_access``). Settings are passed to each op rather than stored, so a property
change takes effect on the next call without reopening the store.

Defaults (reference sheet): subject_scoping False, max_memories 1000, max_per_subject 200,
relevance_threshold 0.4, association_weights content 0.6 / context 0.25 / intention 0.15
(why: see ``recall.DEFAULT_WEIGHTS``), retention none.

``association_weights`` may name any of the three lanes; a lane it leaves out weighs 0 (the
sheet's formula has no term for it), and the weights are normalized to sum to 1. An empty
object or null means the default. ``retention`` maps a category to a TTL in days (> 0);
null for a category means "never expires", like leaving it out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeGuard

from .errors import InvalidMemory
from .recall import DEFAULT_WEIGHTS, LANES, normalize_weights
from .records import CATEGORIES

__all__ = ["MemorySettings", "require_settings"]

MAX_CAP = 10_000_000


def _default_weights() -> dict[str, float]:
    return normalize_weights(DEFAULT_WEIGHTS)


@dataclass(frozen=True, eq=True, unsafe_hash=False)
class MemorySettings:
    """Runtime knobs of one memory element (frozen; build a new one to change them).

    Not hashable (it holds dicts); compare with ``==``.

    Construct through :meth:`from_properties` when the values come from outside: the plain
    constructor validates too, but reports problems under the property's name only.
    """

    #: The properties :meth:`from_properties` reads.
    PROPERTIES: ClassVar[tuple[str, ...]] = (
        "subject_scoping", "max_memories", "max_per_subject", "relevance_threshold",
        "association_weights", "retention")

    subject_scoping: bool = False
    max_memories: int = 1000
    max_per_subject: int = 200
    relevance_threshold: float = 0.4
    association_weights: dict[str, float] = field(default_factory=_default_weights)
    retention: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Store normalized private copies: the caller's dicts can change later without
        # reaching these settings. They stay plain dicts so they serialize as JSON; treat
        # them as read-only.
        checked = _validated(self.subject_scoping, self.max_memories, self.max_per_subject,
                             self.relevance_threshold, self.association_weights,
                             self.retention)
        object.__setattr__(self, "association_weights", checked["association_weights"])
        object.__setattr__(self, "retention", checked["retention"])
        object.__setattr__(self, "relevance_threshold", checked["relevance_threshold"])

    @classmethod
    def from_properties(cls, props: Mapping[str, Any] | None) -> MemorySettings:
        """Build settings from element properties; absent or null properties take defaults.

        :raise InvalidMemory: naming the property (e.g. ``max_memories``) whose value is
            malformed.
        """
        props = props or {}
        if not isinstance(props, Mapping):
            raise InvalidMemory("properties", "must be an object")
        defaults = _DEFAULTS      # the constructor copies the dicts it is given
        values: dict[str, Any] = {}
        for name in cls.PROPERTIES:
            value = props.get(name)
            values[name] = getattr(defaults, name) if value is None else value
        if not values["association_weights"]:
            values["association_weights"] = defaults.association_weights
        return cls(**values)

    def to_properties(self) -> dict[str, Any]:
        """The settings as plain JSON-ready properties (normalized weights)."""
        return {
            "subject_scoping": self.subject_scoping, "max_memories": self.max_memories,
            "max_per_subject": self.max_per_subject,
            "relevance_threshold": self.relevance_threshold,
            "association_weights": dict(self.association_weights),
            "retention": dict(self.retention),
        }


def require_settings(settings: object) -> MemorySettings:
    """``settings`` itself. :raise TypeError: it is not a :class:`MemorySettings` (a
    programming error of the caller, not bad input)."""
    if not isinstance(settings, MemorySettings):
        raise TypeError("settings must be a MemorySettings")
    return settings


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _validated(scoping: object, max_memories: object, max_per_subject: object,
               threshold: object, weights: object, retention: object) -> dict[str, Any]:
    if not isinstance(scoping, bool):
        raise InvalidMemory("subject_scoping", "must be true or false")
    for name, value in (("max_memories", max_memories), ("max_per_subject", max_per_subject)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CAP:
            raise InvalidMemory(name, f"must be an integer from 1 to {MAX_CAP}")
    if not _is_number(threshold) or not math.isfinite(threshold) or not 0 <= threshold <= 1:
        raise InvalidMemory("relevance_threshold", "must be a number from 0 to 1")
    if not isinstance(weights, Mapping):
        raise InvalidMemory("association_weights", "must be an object")
    for lane, value in weights.items():
        if lane not in LANES:
            raise InvalidMemory("association_weights",
                                f"unknown lane {lane!r}; lanes are " + ", ".join(LANES))
        if not _is_number(value):
            raise InvalidMemory("association_weights", f"weight of {lane!r} must be a number")
    try:
        normalized = normalize_weights(weights)
    except ValueError as exc:
        raise InvalidMemory("association_weights", str(exc)) from None
    if not isinstance(retention, Mapping):
        raise InvalidMemory("retention", "must be an object mapping category to days")
    ttl: dict[str, float] = {}
    for category, days in retention.items():
        if category not in CATEGORIES:
            raise InvalidMemory("retention", f"unknown category {category!r}; categories "
                                "are " + ", ".join(CATEGORIES))
        if days is None:
            continue
        if not _is_number(days) or not math.isfinite(days) or days <= 0:
            raise InvalidMemory("retention", f"days for {category!r} must be a number > 0")
        ttl[category] = float(days)
    return {"association_weights": normalized, "retention": ttl,
            "relevance_threshold": float(threshold)}


#: The defaults, built (and validated) once rather than on each ``from_properties``.
_DEFAULTS = MemorySettings()
