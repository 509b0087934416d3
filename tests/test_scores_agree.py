"""On a boosted entry the why pane, `rank --explain` and `rank --json` give the same figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static
from ui_helpers import SIZE, build_app, type_query, wait_loaded, wait_until, write

from memtui.cli import main


@pytest.fixture
def boosted(tmp_path: Path) -> tuple[Path, Path]:
    root = write(
        tmp_path / "root" / "MEMORY.md",
        "## Deploy checklist\nDeploy to staging first.\n\n## Other\nnothing\n",
    ).parent
    config = write(tmp_path / "config.toml", '[boosts]\n"MEMORY.md" = 2.5\n')
    return root, config


async def test_every_view_prints_the_same_arithmetic(
    boosted: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root, config = boosted
    argv = ["rank", str(root), "-q", "deploy", "--config", str(config), "-n", "1"]
    assert main([*argv, "--explain"]) == 0
    explained = next(
        line.strip() for line in capsys.readouterr().out.splitlines() if "= score" in line
    )
    assert main([*argv, "--json", "--explain"]) == 0
    figures = json.loads(capsys.readouterr().out)["results"][0]["explanation"]
    assert figures["score"] > 1.0  # boosted past 1: nothing is capped
    assert explained == (
        f"base {figures['base']:.3f} × multipliers "
        f"{figures['multiplier']:.3f} = score {figures['score']:.3f}"
    )
    assert figures["score"] == figures["base"] * figures["multiplier"]

    app = build_app(str(root), "--no-watch", "--config", str(config))
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        breakdown = app.screen.query_one("#breakdown", Static)
        await wait_until(pilot, lambda: explained in str(breakdown.render()))
