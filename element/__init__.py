"""The element layer: the catalog, element types and specs, governance, agents, and the ops.

Entry points (``api/``: HTTP, CLI, MCP, git, events) use only what is exported here, and
every op runs through :func:`invoke` (``invoke.py``). See docs/design.md, "Where does X
live".
"""

from .agents.tools import UnknownTool, agent_tools, call_agent_tool
from .catalog import Catalog, Element
from .errors import (ERROR_CLASSES, ElementError, ElementNotFound, Forbidden, InvalidRequest,
                     TokenNotFound, Unauthorized, error_body)
from .governance.access import (ROLES, TOKEN_PREFIX, Principal, authenticate, create_token,
                                end_session, open_session, session_principal)
from .home import (MAX_ELEMENTS_PER_CIRCLE, SLUG_RE, DatabaseRequired, Home, Initialized,
                   check_slug, mark_backend, marked_database)
from .invoke import Invocation, admit, invoke, readable
from .ops import registry
from .ops.op import Op, OpResult
from .ops.schemas import COMPONENTS
from .spec.mirror import after_push, push_reasons
from .spec.types import TYPES
from .transfer import (BackupInvalid, backup_home, forget_after_restore, migrate_catalog,
                       migrate_memories, read_manifest, restore_home, verify_backup)

__all__ = ["Catalog", "Element", "ERROR_CLASSES", "ElementError", "ElementNotFound",
           "Forbidden", "InvalidRequest", "Unauthorized", "TokenNotFound", "error_body", "ROLES",
           "TOKEN_PREFIX", "Principal", "authenticate", "create_token", "open_session",
           "session_principal", "end_session", "SLUG_RE", "Home",
           "Initialized", "check_slug", "MAX_ELEMENTS_PER_CIRCLE", "DatabaseRequired",
           "mark_backend", "marked_database",
           "Invocation", "admit", "invoke", "readable", "registry", "Op",
           "OpResult", "COMPONENTS", "after_push", "push_reasons", "TYPES", "UnknownTool",
           "agent_tools", "call_agent_tool", "BackupInvalid", "backup_home",
           "verify_backup", "restore_home", "read_manifest", "forget_after_restore",
           "migrate_catalog", "migrate_memories"]
