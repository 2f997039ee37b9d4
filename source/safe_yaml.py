"""Hostile-input YAML: every YAML this service reads from a repository goes through here.

A member pushes ``.triform/spec.yaml`` and fixture manifests; both are parsed by the server.
YAML anchors and aliases let a few hundred bytes expand into gigabytes ("billion laughs":
seven levels of ``&a [*a, *a, ...]``), and deep nesting exhausts the parser's stack. So the
text is bounded in bytes, its event stream is scanned *before* any object is built, and an
alias, an anchor, too deep a nesting or too many nodes refuses the whole document with a
:class:`YamlRefused` reason. Only then is it loaded, with ``SafeLoader`` (no Python tags).
"""

from __future__ import annotations

from typing import Any

import yaml

__all__ = ["MAX_YAML_BYTES", "MAX_YAML_DEPTH", "MAX_YAML_NODES", "YamlRefused", "scan_yaml",
           "load_yaml"]

#: Largest YAML text read at all (a spec is a few hundred bytes; fixtures have their own,
#: lower, per-file bound).
MAX_YAML_BYTES = 1024 * 1024
#: Deepest nesting of mappings and sequences.
MAX_YAML_DEPTH = 32
#: Most scalars, mappings and sequences in one document set.
MAX_YAML_NODES = 100_000


class YamlRefused(ValueError):
    """The YAML text is refused before it is loaded (the message says why)."""


def scan_yaml(text: str, loader: type[yaml.SafeLoader] = yaml.SafeLoader) -> None:
    """Refuse anchors, aliases, nesting over :data:`MAX_YAML_DEPTH` and more than
    :data:`MAX_YAML_NODES` nodes, reading only the event stream (nothing is built).

    :raise YamlRefused: with the reason and line.
    :raise yaml.YAMLError: the text is not YAML.
    """
    if len(text) > MAX_YAML_BYTES:
        raise YamlRefused(f"{len(text)} characters, over the {MAX_YAML_BYTES} limit")
    depth = nodes = 0
    for event in yaml.parse(text, Loader=loader):
        line = f" (line {event.start_mark.line + 1})" if event.start_mark else ""
        if isinstance(event, yaml.AliasEvent):
            raise YamlRefused(f"YAML anchors and aliases are not allowed{line}")
        if isinstance(event, yaml.NodeEvent) and event.anchor is not None:
            raise YamlRefused(f"YAML anchors and aliases are not allowed{line}")
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_YAML_DEPTH:
                raise YamlRefused(f"nested deeper than {MAX_YAML_DEPTH} levels{line}")
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        if isinstance(event, yaml.NodeEvent):
            nodes += 1
            if nodes > MAX_YAML_NODES:
                raise YamlRefused(f"more than {MAX_YAML_NODES} nodes{line}")


def load_yaml(text: str) -> Any:
    """One YAML document, scanned by :func:`scan_yaml` first, then safely loaded.

    :raise YamlRefused / yaml.YAMLError: as :func:`scan_yaml`.
    """
    scan_yaml(text)
    return yaml.safe_load(text)
