"""Measuring and judging memtui: synthetic and hostile corpora, reference baselines, keystrokes,
the judged ranking-quality sets and an app driver.

The bench sits above the UI: `bench.tui` drives the real app to time keystroke → repaint, while
neither the app nor the core ever imports the bench. `memtui bench` composes these pieces.
"""
