"""Import cases shared by the backend contract and PostgreSQL's own tests."""

from __future__ import annotations

from index import ImportedMemory, MemorySettings, validate_imported

__all__ = ["refused_part_way"]


def refused_part_way() -> tuple[MemorySettings, list[ImportedMemory]]:
    """A pool with room for five and six memories to import (five about Ana, then one
    general): the sixth is refused with ``MemoryCapacity`` once the first five are in."""
    full = MemorySettings(max_memories=5, subject_scoping=True)
    items = [validate_imported({"id": f"{n:032x}", "content": f"about ana {n}",
                                "category": "fact", "subject_type": "guest",
                                "subject_id": "ana", "created_at": "2024-01-01T00:00:00Z"})
             for n in range(5)]
    items.append(validate_imported({"id": "f" * 32, "content": "general", "category": "fact",
                                    "created_at": "2024-01-02T00:00:00Z"}))
    return full, items
