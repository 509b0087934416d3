"""memtui: search, rank and explain what your AI agent remembers."""

__version__ = "0.1.0"
