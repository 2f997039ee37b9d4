"""The spec as a file: ``.triform/spec.yaml``, its keys, its YAML and its normal form.

A spec read from git (a push, a merge, an import) is untrusted text: :func:`normalize_spec`
checks it against the element's type and answers the catalog's form of it, naming the first
field that does not fit. The catalog mirrors the normal form (``mirror.py``).
"""

from __future__ import annotations

from typing import Any

import yaml

from index import InvalidMemory, MemorySettings

from ..catalog import Element
from ..errors import InvalidProperty, InvalidRequest
from .types import element_type, validate_properties

__all__ = ["SPEC_KEYS", "spec_of", "spec_yaml", "normalize_spec", "spec_fields"]

SPEC_KEYS = ("element_type", "slug", "name", "form", "description", "properties")


def spec_of(element: Element) -> dict[str, Any]:
    """The spec as it is written to ``.triform/spec.yaml`` (the catalog mirrors it)."""
    return {"element_type": element.element_type, "slug": element.slug, "name": element.name,
            "form": element.form, "description": element.description,
            "properties": element.properties}


def spec_yaml(spec: dict[str, Any]) -> bytes:
    """The spec as written to ``.triform/spec.yaml`` (the same layout ``create`` writes)."""
    return yaml.safe_dump(spec, sort_keys=False, allow_unicode=True).encode()


def normalize_spec(raw: Any, *, circle: str, element_type_name: str | None = None,
                   slug: str | None = None, keep_slug: bool = True) -> dict[str, Any]:
    """Check a spec read from git against its type and return it in the catalog's form.

    Missing ``element_type``/``slug``/``form`` are implied by the element; missing ``name``
    is derived from the slug; missing ``properties`` take the type's defaults.

    :param element_type_name: the element's type, which a spec may not change.
    :param slug: the element's slug; with ``keep_slug`` a spec may not change it, without
        it (imports under another slug) the given slug wins.
    :raise InvalidRequest / InvalidProperty: naming the first field that does not fit.
    """
    if not isinstance(raw, dict):
        raise InvalidRequest("spec", "must be a YAML mapping")
    for key in raw:
        if key not in SPEC_KEYS:
            raise InvalidRequest(f"spec.{key}", "is not a spec field (fields: "
                                 + ", ".join(SPEC_KEYS) + ")")
    kind_name = raw.get("element_type", element_type_name)
    if element_type_name is not None and kind_name != element_type_name:
        raise InvalidRequest("spec.element_type", f"must stay {element_type_name!r}; an "
                             "element's type cannot change")
    try:
        kind = element_type(kind_name)
    except InvalidRequest:
        raise InvalidRequest("spec.element_type", "must be a known element type") from None
    if raw.get("form", kind.form) != kind.form:
        raise InvalidRequest("spec.form", f"must be {kind.form!r} for {kind.name} elements")
    given_slug = raw.get("slug", slug)
    if kind.name == "circle":
        given_slug = None
    elif keep_slug and slug is not None and given_slug != slug:
        raise InvalidRequest("spec.slug", f"must stay {slug!r}; rename is not supported")
    elif not keep_slug and slug is not None:
        given_slug = slug
    name = raw.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise InvalidRequest("spec.name", "must be a non-empty string")
    description = raw.get("description")
    if description is not None and not isinstance(description, str):
        raise InvalidRequest("spec.description", "must be a string")
    props = raw.get("properties")
    props = validate_properties(kind.name, {} if props is None else props)
    if kind.name == "memory":
        try:
            MemorySettings.from_properties(props)
        except InvalidMemory as exc:
            raise InvalidProperty(exc.field, exc.reason) from None
    return {"element_type": kind.name, "slug": given_slug,
            "name": name or str(given_slug or circle).replace("-", " ").title(),
            "form": kind.form, "description": description, "properties": props}


def spec_fields(spec: dict[str, Any]) -> dict[str, Any]:
    """The catalog columns a spec sets."""
    return {"name": spec["name"], "description": spec["description"],
            "properties": spec["properties"]}
