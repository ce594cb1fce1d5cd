"""JSON Schemas (draft 2020-12) for GGN 1.0.0, LCN 1.0.0 and STN 1.0.0.

The texts of these notations point to published schemas that could not be
found, so these are the package's own, written from the texts and as strict
as a schema can be. Each is self-contained (no ``$ref`` leaves the file), and
its ``$id`` is a URN, so nothing is ever fetched.

The package's validators are stricter than the schemas: every document they
accept, the matching schema accepts too. What they check beyond the schema is
written in each schema's ``description``.

>>> schema = load_schema("lcn")
>>> schema["$id"]
'urn:ggn-python:schema:lcn-1.0.0'
>>> sorted(SCHEMA_IDS)
['ggn', 'lcn', 'stn']
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal, get_args

from ggn.errors import NotFoundError

__all__ = ["SCHEMA_IDS", "SchemaName", "load_schema"]

SchemaName = Literal["ggn", "lcn", "stn"]

_VERSION = "1.0.0"

#: The ``$id`` of each schema, by name.
SCHEMA_IDS: Mapping[str, str] = MappingProxyType(
    {name: f"urn:ggn-python:schema:{name}-{_VERSION}" for name in get_args(SchemaName)}
)


def load_schema(name: SchemaName) -> dict[str, Any]:
    """Return a fresh copy of the named schema, decoded from the package data.

    Each call reads and decodes the file again, so callers may change the
    result freely.

    >>> load_schema("ggn")["title"]
    'General Gameplay Notation (GGN) 1.0.0'
    >>> load_schema("xyz")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ggn.errors.NotFoundError: no schema 'xyz'; there are: ggn, lcn, stn
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    if name not in SCHEMA_IDS:
        raise NotFoundError.unknown("schema", name, SCHEMA_IDS)
    text = resources.files(__name__).joinpath(f"{name}-{_VERSION}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
