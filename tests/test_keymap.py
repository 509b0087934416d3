"""`[keymap]` remaps are checked: unknown ids and keys taken by another binding are refused."""

from __future__ import annotations

import pytest
from textual.binding import Binding

from memtui.ui.app import key_scopes, text_box_keys
from memtui.ui.keymap import check_keymap, live_keys

PANES = [
    Binding("e", "screen.edit", "Edit", id="pane.edit"),
    Binding("y", "screen.copy_entry", "Copy", id="pane.copy_entry"),
    Binding("Y", "screen.copy_citation", "Cite", id="pane.copy_citation"),
]
QUERY = [Binding("ctrl+o", "screen.edit", "Edit", id="query.edit")]
SCOPES = {"panes": PANES, "query": QUERY}


def test_a_free_key_is_accepted() -> None:
    check = check_keymap({"pane.edit": "o"}, SCOPES)
    assert check.accepted == {"pane.edit": "o"} and check.problems == ()
    assert live_keys(PANES[0], check.accepted) == ["o"]
    assert live_keys(PANES[1], check.accepted) == ["y"]


def test_an_unknown_id_is_reported_and_ignored() -> None:
    check = check_keymap({"pane.nonexistent": "x"}, SCOPES)
    assert check.accepted == {}
    assert check.problems and "pane.nonexistent" in check.problems[0]


def test_a_key_taken_by_another_binding_is_refused() -> None:
    check = check_keymap({"pane.edit": "y"}, SCOPES)
    assert check.accepted == {}
    assert "already does Copy (pane.copy_entry)" in check.problems[0]


def test_a_key_in_another_scope_is_free() -> None:
    assert check_keymap({"query.edit": "y"}, SCOPES).accepted == {"query.edit": "y"}


def test_swapping_two_keys_needs_the_first_move_out_of_the_way() -> None:
    check = check_keymap({"pane.copy_entry": "c", "pane.edit": "y"}, SCOPES)
    assert check.accepted == {"pane.copy_entry": "c", "pane.edit": "y"}
    assert check.problems == ()
    refused = check_keymap({"pane.copy_entry": "c", "pane.copy_citation": "c"}, SCOPES)
    assert refused.accepted == {"pane.copy_entry": "c"}
    assert "(pane.copy_entry)" in refused.problems[0]


def test_several_keys_for_one_binding() -> None:
    check = check_keymap({"pane.edit": "o,ctrl+e"}, SCOPES)
    assert live_keys(PANES[0], check.accepted) == ["o", "ctrl+e"]


@pytest.mark.parametrize(
    ("remap", "why"),
    [
        ({"query.quit": "backspace"}, "backspace edits the text in the query box"),
        ({"query.weights": "ctrl+w"}, "ctrl+w edits the text in the query box"),
        ({"query.edit": "e"}, "e types itself in the query box"),
        ({"app.quit": "x"}, "x types itself in the query box"),  # priority: before the box
    ],
)
def test_the_query_box_keeps_its_typing_and_editing_keys(remap: dict[str, str], why: str) -> None:
    """QA: `"query.quit" = "backspace"` quit at the first backspace, `"query.weights" =
    "ctrl+w"` (the README's own example) took delete-word, and `"query.edit" = "e"` was shown
    in the footer but typed an e. Each is refused now, with the reason."""
    check = check_keymap(remap, key_scopes(), text_box_keys())
    assert check.accepted == {}
    ((problem,),) = [check.problems]
    assert problem.endswith(f"{why}; not applied")


@pytest.mark.parametrize(
    "remap",
    [{"query.weights": "f4"}, {"pane.edit": "E"}, {"help": "f3"}, {"pane.weights": "ctrl+w"}],
)
def test_keys_the_box_does_not_need_stay_free(remap: dict[str, str]) -> None:
    assert check_keymap(remap, key_scopes(), text_box_keys()).accepted == remap
