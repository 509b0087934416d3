"""Errors every entry point shares; the CLI turns them into a message on stderr and exit 2."""

from __future__ import annotations


class UsageError(Exception):
    """Bad input from the command line or the settings it names (printed on stderr, exit 2)."""
