"""Headless subcommands (`rank`, `list`, `bench`) and the helpers they share with the TUI."""
