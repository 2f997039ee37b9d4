"""The house rules of the imports, checked on the source text with ``ast`` (as dulwich's
test_source.py does), so a stray import fails here before it tangles the code.

- Layers import downward only: api -> element -> (source, index).
- A layer uses another only through its package (``from index import MemoryStore``), never
  a private module of it (``index.store``): each layer's ``__init__`` is its surface.
- Only source/ imports git libraries (pygit2, dulwich); only api/ imports Flask.
- No import cycles between modules, anywhere (imports inside ``if TYPE_CHECKING`` are for
  the type checker only and do not count). A module imported by name at run time counts
  too: the op modules the registry loads (``OP_MODULES`` of ``element/ops/__init__.py``)
  are edges of ``element.ops``, so a handler that imports ``element.invoke`` back (which
  imports the registry) closes a cycle here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("api", "element", "source", "index")
ALLOWED = {
    "api": {"api", "element", "source", "index"},
    "element": {"element", "source", "index"},
    "source": {"source"},
    "index": {"index"},
}
GIT_LIBRARIES = {"pygit2", "dulwich"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(path: Path, *, members: bool = True, name: str | None = None) -> set[str]:
    """Full names of the modules ``path`` imports at run time (relative ones resolved);
    with ``members``, also ``pkg.name`` for each ``from pkg import name`` (a submodule or
    an attribute: the cycle check resolves which). ``name``: the module's dotted name, when
    ``path`` is not in the tree."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = (name or module_name(path)).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[:len(package) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            if members:
                found.update(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def modules() -> list[tuple[str, Path]]:
    return [(layer, p) for layer in LAYERS for p in sorted((ROOT / layer).rglob("*.py"))]


ALL = {module_name(p): p for _, p in modules()}


def _ids(value: object) -> str:
    return str(value).split("main/")[-1] if isinstance(value, Path) else str(value)


@pytest.mark.parametrize("layer,path", modules(), ids=_ids)
def test_imports_point_down(layer: str, path: Path) -> None:
    wrong = {name.split(".")[0] for name in imports(path)} & set(LAYERS) - ALLOWED[layer]
    assert not wrong, f"{path.relative_to(ROOT)} ({layer}) imports {sorted(wrong)}"


@pytest.mark.parametrize("layer,path", modules(), ids=_ids)
def test_other_layers_only_through_their_package(layer: str, path: Path) -> None:
    wrong = sorted(name for name in imports(path, members=False)
                   if name.split(".")[0] in LAYERS and name.split(".")[0] != layer
                   and name.count(".") >= 1 and name in ALL)
    assert not wrong, f"{path.relative_to(ROOT)} reaches into private modules {wrong}"


@pytest.mark.parametrize("layer,path", [m for m in modules() if m[0] != "source"], ids=_ids)
def test_only_source_knows_git_libraries(layer: str, path: Path) -> None:
    used = {name.split(".")[0] for name in imports(path)} & GIT_LIBRARIES
    assert not used, f"{path.relative_to(ROOT)} imports {sorted(used)}"


@pytest.mark.parametrize("layer,path", [m for m in modules() if m[0] != "api"], ids=_ids)
def test_only_api_knows_flask(layer: str, path: Path) -> None:
    used = {name.split(".")[0] for name in imports(path)}
    assert "flask" not in used, f"{path.relative_to(ROOT)} imports flask"


def loaded_by_name(path: Path) -> set[str]:
    """The modules ``path`` imports by name at run time: the strings of a module-level
    ``OP_MODULES = (...)`` (the op registry's list)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple)
                and any(isinstance(t, ast.Name) and t.id == "OP_MODULES"
                        for t in node.targets)):
            found.update(e.value for e in node.value.elts
                         if isinstance(e, ast.Constant) and isinstance(e.value, str))
    return found


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in ALL.items():
        targets = set()
        for imported in imports(path) | loaded_by_name(path):
            # "from pkg import name" names a module or an attribute of the package.
            while imported and imported not in ALL:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (a module names its parent packages' ``__init__``
    implicitly, which Python runs first; those edges are not counted), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if node.startswith(target + "."):
                continue                # a package's own __init__
            if state.get(target) == 1:
                return stack[stack.index(target):] + [target]
            if state.get(target) is None:
                found = visit(target)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if state.get(start) is None:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def test_no_import_cycles() -> None:
    cycle = find_cycle(_graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_the_checkers_see_bad_imports(tmp_path: Path) -> None:
    # Written outside the tree: tests running meanwhile (the wheel's) must not see it.
    bad = tmp_path / "_probe_for_test.py"
    bad.write_text("from .home import Home\nimport api.app\nimport pygit2\n"
                   "from index.store import MemoryStore\n")
    found = imports(bad, name="element._probe_for_test")
    assert {"element.home", "api.app", "pygit2", "index.store"} <= found
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_op_modules_the_registry_loads_are_edges() -> None:
    """A handler importing ``element.invoke`` would close ops -> handler -> invoke -> ops:
    the registry's by-name imports are in the graph, so that cycle is seen."""
    from element.ops import OP_MODULES
    graph = _graph()
    assert set(OP_MODULES) <= graph["element.ops"] and len(OP_MODULES) > 10
    assert "element.ops" in graph["element.invoke"]
    probe = dict(graph, **{"element.ops.agents": graph["element.ops.agents"]
                           | {"element.invoke"}})
    cycle = find_cycle(probe)
    assert cycle is not None and "element.invoke" in cycle and "element.ops" in cycle
