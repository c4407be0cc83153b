"""Object files of compiled units, kept between builds under a digest of all that made them.

A build compiles each unit (units.py) into an object file; with a cache, it
first looks the unit's key up, and keeps what it compiled. The key
(`cache_key`) is a SHA-256 digest of the unit's MLIR text, the mlir-opt
pipeline with its schedule's script, the tools' arguments, the CPU that
``-march=native`` targets, each tool's path, size and modification time, and
`FORMAT`; a group that changes in any way, or a tool upgraded, is a
different key, so an entry is never stale, only unused.

The cache is a directory (`default_cache`): ``$RELAY_XDSL_CACHE`` if set,
else ``$XDG_CACHE_HOME/relay-xdsl`` or ``~/.cache/relay-xdsl``;
``RELAY_XDSL_CACHE=off`` turns it off (as ``relay-xdsl compile --no-cache``
does for one build). Entries are ``objects/<2 digits>/<key>.o``, written
whole to a temporary name and renamed, so that builds running at once may
share it. Nothing is ever evicted: deleting the directory, or any entry,
is always safe.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

CACHE_VARIABLE = "RELAY_XDSL_CACHE"
"""The environment variable naming the cache's directory, or ``off``."""
OFF = "off"
"""`CACHE_VARIABLE` 's value that turns the cache off."""
FORMAT = "relay-xdsl objects 1"
"""Part of every key: changed when what the build does to a unit changes."""


@dataclass(frozen=True)
class ObjectCache:
    """Object files by key, in `directory`."""

    directory: Path

    def path(self, key: str) -> Path:
        """Where the object of `key` is kept."""
        return self.directory / "objects" / key[:2] / f"{key}.o"

    def get(self, key: str) -> Path | None:
        """The kept object of `key`, or None."""
        path = self.path(key)
        return path if path.is_file() else None

    def put(self, key: str, object_file: Path) -> Path:
        """Keep `object_file` under `key`; the kept copy, or `object_file` itself where the
        directory cannot be written (the build goes on without the cache)."""
        path = self.path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with (
                object_file.open("rb") as source,
                tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as out,
            ):
                shutil.copyfileobj(source, out)
            os.replace(out.name, path)
        except OSError:
            return object_file
        return path


def default_cache() -> ObjectCache | None:
    """The cache the environment names (see the module docstring); None where it is off."""
    named = os.environ.get(CACHE_VARIABLE)
    if named is not None and named.strip().lower() == OFF:
        return None
    if named:
        return ObjectCache(Path(named).expanduser())
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:  # no home directory: no cache
            return None
    return ObjectCache(Path(base) / "relay-xdsl")


def cache_key(parts: Iterable[str]) -> str:
    """The SHA-256 digest (hexadecimal) of `FORMAT` and `parts`, each part delimited."""
    digest = hashlib.sha256()
    for part in (FORMAT, *parts):
        data = part.encode()
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()
