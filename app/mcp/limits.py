"""Every range and length a tool publishes in its input schema, and the one check that
enforces them.

A tool declares a numeric argument's range with ``bounded`` and a string's longest with
``text``: they go into the JSON schema an agent reads (``minimum``/``maximum``,
``maxLength``), and ``broken`` reads them back from that same schema before the tool
runs, so what is published is what is enforced, for every tool alike. A value outside
gets one sentence naming the argument and the limit ("top_k must be between 1 and 100",
spec 004's wording; "title must be at most 300 characters (got 301)"), never a silently
clamped or cut value: an agent learns the limit from the answer.

The services keep their own checks (and messages) for the other front doors.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field


def bounded(description: str, *, minimum: int | float, maximum: int | float) -> Any:
    """A number from ``minimum`` to ``maximum`` (both allowed), published in the schema."""
    return Field(
        description=description, json_schema_extra={"minimum": minimum, "maximum": maximum}
    )


def text(description: str, *, max_length: int) -> Any:
    """A string of at most ``max_length`` characters, published in the schema."""
    return Field(description=description, json_schema_extra={"maxLength": max_length})


def broken(schema: dict[str, Any], arguments: dict[str, Any]) -> list[str]:
    """A sentence for each argument outside the range its tool's ``schema`` declares.
    Values of another kind are left to the SDK's validation, which names them."""
    return _check(schema, schema, arguments, "")


def _check(root: dict[str, Any], schema: dict[str, Any], values: Any, prefix: str) -> list[str]:
    if not isinstance(values, dict):
        return []
    problems: list[str] = []
    for name, prop in schema.get("properties", {}).items():
        if name not in values:
            continue
        prop = _resolved(root, prop)
        value, where = values[name], f"{prefix}{name}"
        if isinstance(value, dict):
            problems += _check(root, prop, value, f"{where}.")
        elif isinstance(value, int | float) and not isinstance(value, bool):
            problem = _out_of_range(where, value, prop.get("minimum"), prop.get("maximum"))
            problems += [problem] if problem else []
        elif isinstance(value, str) and len(value) > prop.get("maxLength", len(value)):
            problems.append(
                f"{where} must be at most {prop['maxLength']} characters (got {len(value)})"
            )
    return problems


def _resolved(root: dict[str, Any], prop: dict[str, Any]) -> dict[str, Any]:
    """The property's own schema, following a local ``$ref`` (directly or in ``anyOf``)."""
    for candidate in [prop, *prop.get("anyOf", [])]:
        ref = candidate.get("$ref", "")
        if ref.startswith("#/$defs/"):
            found: dict[str, Any] = root.get("$defs", {}).get(ref.removeprefix("#/$defs/"), {})
            return {**found, **{k: v for k, v in prop.items() if k not in ("$ref", "anyOf")}}
    return prop


def _out_of_range(name: str, value: float, low: float | None, high: float | None) -> str | None:
    if (low is None or value >= low) and (high is None or value <= high):
        return None
    if low is not None and high is not None:
        return f"{name} must be between {low} and {high}"
    if low is not None:
        return f"{name} must be at least {low}"
    return f"{name} must be at most {high}"
