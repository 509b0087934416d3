"""Bundled demo memory (package data), dated relative to today at load."""
