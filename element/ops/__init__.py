"""The ops, one module per topic, and the one function that wires them.

:func:`registry` imports exactly the modules listed in :data:`OP_MODULES`, collects the ops
each declares (its ``ops`` table) and checks them against the reference sheet, so a module
left out of the list stops the process at start instead of answering errors at run time.
"""

from __future__ import annotations

import functools
import importlib

from .op import OpTable, Registry

__all__ = ["OP_MODULES", "registry"]

OP_MODULES = (
    "element.ops.memory",       # store, store_batch, search, get, list, update, delete, ...
    "element.ops.elements",     # create, enable, disable, update_meta
    "element.ops.versions",     # spec, spec_update, version, restore
    "element.ops.files",        # readme, readme_update, source, intention
    "element.ops.source",       # source_status, _branches, _diff3, _merge, _promote, _validate
    "element.ops.repair",       # source_repair
    "element.ops.fixtures",     # source_fixtures
    "element.ops.bundles",      # export_bundle, import_bundle
    "element.ops.graph",        # context, tree, batch_stats, activity
    "element.ops.modifiers",    # attachments, compose, remove-modifier
    "element.ops.projects",     # promote
    "element.ops.ports",        # schema
    "element.ops.agents",       # observe, tools, tools_call
    "element.ops.reindex",      # reindex
    "element.ops.transfer",     # export_memories, import_memories
    "element.ops.evals",        # eval
)


@functools.cache
def registry() -> Registry:
    """Every op, from the listed modules, checked against the sheet (built once).

    :raise RuntimeError: an op of the sheet is missing or declared differently.
    """
    tables: list[OpTable] = [importlib.import_module(name).ops for name in OP_MODULES]
    built = Registry(op for table in tables for op in table.ops)
    built.check_sheet()
    return built
