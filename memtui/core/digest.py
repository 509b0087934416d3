"""The one hash memtui uses, blake2b, without loading OpenSSL.

`hashlib` loads `_hashlib` (OpenSSL, ~3 ms of every command's start) to offer algorithms
memtui never uses; CPython builds blake2b in as `_blake2`, which `hashlib` itself hands out.
"""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # a Python without the built-in module: the same function, via hashlib
    from hashlib import blake2b

__all__ = ["blake2b"]
