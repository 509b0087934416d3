"""Benchmark machinery for `memtui bench`: a synthetic corpus, reference baselines, keystrokes.

Nothing here is imported by the app; the bench command composes these pieces.
"""
