"""Config: TOML from --config or XDG, defaults otherwise; errors name file, key and problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtui.core.settings.config import (
    Boost,
    Config,
    ConfigError,
    load_config,
    normalise_weights,
    parse_config,
)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_valid_config(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
days = 14
half_life_days = 7.5
min_score = 0.2
theme = "memtui-light"
mask_secrets = false
evergreen_long_term = false

[weights]
relevance = 0.6
source = 0.2
recency = 0.1
position = 0.1

[source_priority]
daily = 70

[boosts]
"memory/projects/*" = 1.5
"tag:draft" = 0.5
""",
    )
    config, warnings = load_config(path)
    assert warnings == []
    assert (config.days, config.half_life_days, config.min_score) == (14, 7.5, 0.2)
    assert (config.theme, config.mask_secrets, config.evergreen_long_term) == (
        "memtui-light",
        False,
        False,
    )
    assert config.weights == {"relevance": 0.6, "source": 0.2, "recency": 0.1, "position": 0.1}
    assert config.source_priority["daily"] == 70
    assert config.source_priority["long_term"] == Config().source_priority["long_term"]
    assert config.boosts == (Boost("memory/projects/*", 1.5), Boost("tag:draft", 0.5))
    assert config.source_path == path


def test_defaults_when_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert load_config() == (Config(), [])


def test_xdg_file_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "memtui").mkdir()
    (tmp_path / "memtui/config.toml").write_text("days = 3\n")
    assert load_config()[0].days == 3


def test_explicit_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.toml")


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "days = = 3\n")
    with pytest.raises(ConfigError, match=f"{path}.*invalid TOML"):
        load_config(path)


def test_unknown_keys_warn_but_load(tmp_path: Path) -> None:
    path = write(tmp_path, "dayz = 3\n[weights]\nfreshness = 1.0\n[source_priority]\nweb = 1\n")
    config, warnings = load_config(path)
    assert config.days == Config().days
    assert any("'dayz'" in w and str(path) in w for w in warnings)
    assert any("weights.freshness" in w for w in warnings)
    assert any("source_priority.web" in w for w in warnings)


def test_an_unknown_key_is_quoted_with_its_escapes_shown_as_everywhere_else(tmp_path: Path) -> None:
    """QA: Python's repr wrote `'\\x1b[31m'` here, where every other message shows `␛[31m`."""
    _, warnings = load_config(write(tmp_path, '"x\\u001b[31m" = 1\n'))
    assert any("unknown key 'x␛[31m' ignored" in warning for warning in warnings)


@pytest.mark.parametrize(
    ("text", "key", "problem"),
    [
        ('days = "ten"\n', "days", "whole number"),
        ("days = -1\n", "days", "whole number"),
        ("days = true\n", "days", "whole number"),
        ("half_life_days = 0\n", "half_life_days", ">= 0.001"),
        ("min_score = 1.5\n", "min_score", "between"),
        ('mask_secrets = "yes"\n', "mask_secrets", "true or false"),
        ("theme = 3\n", "theme", "theme name"),
        ("weights = 3\n", "weights", "table"),
        ('[weights]\nrelevance = "high"\n', "weights.relevance", "number"),
        ("[weights]\nrelevance = -1\n", "weights.relevance", ">= 0"),
        ("[source_priority]\ndaily = 101\n", "source_priority.daily", "between"),
        ('[boosts]\n"a*" = 11\n', "boosts", "between 0 and 10"),
        ('[boosts]\n"a*" = "x"\n', "boosts", "number"),
        ('[boosts]\n"*a*a*a*a*a*a*a*a*a" = 1\n', "boosts", "wildcards"),
        ("[weights]\nrelevance = nan\n", "weights.relevance", "finite"),
        ("[weights]\nrelevance = inf\n", "weights.relevance", "finite"),
        ("min_score = nan\n", "min_score", "finite"),
        ("min_score = -inf\n", "min_score", "finite"),
        ("half_life_days = nan\n", "half_life_days", "finite"),
        ("half_life_days = inf\n", "half_life_days", "finite"),
        ("[source_priority]\ndaily = nan\n", "source_priority.daily", "finite"),
        ('[boosts]\n"a*" = nan\n', "boosts", "between 0 and 10"),
        ("[health]\nduplicate_similarity = nan\n", "health.duplicate_similarity", "between"),
    ],
)
def test_bad_values_name_file_key_and_problem(
    tmp_path: Path, text: str, key: str, problem: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert str(path) in message
    assert key in message
    assert problem in message


def test_weights_are_normalised_with_a_warning(tmp_path: Path) -> None:
    path = write(tmp_path, "[weights]\nrelevance = 2\nsource = 1\nrecency = 1\nposition = 0\n")
    config, warnings = load_config(path)
    assert config.weights == {"relevance": 0.5, "source": 0.25, "recency": 0.25, "position": 0.0}
    assert any("normalised" in w for w in warnings)


def test_partial_weights_keep_other_defaults_then_normalise(tmp_path: Path) -> None:
    config, _ = load_config(write(tmp_path, "[weights]\nposition = 0\n"))
    assert config.weights["position"] == 0
    assert sum(config.weights.values()) == pytest.approx(1.0)


def test_all_zero_weights_are_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="above 0"):
        normalise_weights({"relevance": 0.0, "source": 0.0})
    path = write(tmp_path, "[weights]\nrelevance = 0\nsource = 0\nrecency = 0\nposition = 0\n")
    with pytest.raises(ConfigError, match=f"{path}: weights: at least one weight"):
        load_config(path)


def test_weights_whose_sum_overflows_still_normalise(tmp_path: Path) -> None:
    """1e308 twice sums to inf: every share was 0 and the first search raised ConfigError."""
    path = write(tmp_path, "[weights]\nrelevance = 1e308\nsource = 1e308\n")
    config, _ = load_config(path)
    assert sum(config.weights.values()) == pytest.approx(1.0)
    assert config.weights["relevance"] == pytest.approx(0.5)
    assert normalise_weights(dict(config.weights))[0] == pytest.approx(config.weights)


def test_default_weights_sum_to_one() -> None:
    assert normalise_weights(Config().weights)[1] is None


def test_keymap_table_remaps_binding_ids() -> None:
    config, warnings = parse_config({"keymap": {"pane.edit": "o", "query.weights": "ctrl+w"}})
    assert config.keymap == {"pane.edit": "o", "query.weights": "ctrl+w"}
    assert warnings == []


def test_keymap_with_a_non_string_value_names_the_key() -> None:
    with pytest.raises(ConfigError, match=r"keymap\.pane\.edit"):
        parse_config({"keymap": {"pane.edit": 3}})


def test_the_first_problem_reported_does_not_depend_on_the_files_key_order() -> None:
    """Keys are checked in one fixed order, so two bad keys give the same message either way."""
    bad_theme_first = {"theme": "", "days": -1}
    bad_days_first = {"days": -1, "theme": ""}
    messages = []
    for raw in (bad_theme_first, bad_days_first):
        with pytest.raises(ConfigError) as caught:
            parse_config(raw)
        messages.append(str(caught.value))
    assert messages == ["config: days: expected a whole number >= 0, got -1"] * 2


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_config_that_is_not_finite_exits_2_naming_the_key(
    tmp_path: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from memtui.cli import main

    path = write(tmp_path, f"[weights]\nrelevance = {value}\n")
    assert main(["list", "--demo", "--config", str(path)]) == 2
    assert "weights.relevance: must be a finite number" in capsys.readouterr().err
