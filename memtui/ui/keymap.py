"""The `[keymap]` table checked against the live binding tables before Textual applies it.

Textual's keymap silently ignores an id it does not know and lets one key serve two bindings, so
`"pane.edit" = "y"` would quietly take `y` from Copy. Here every remap is checked: an unknown id
is reported and ignored; a key already used by another binding active at the same time (in the
same *scope*, e.g. the panes or the query box) is reported and the remap is refused. Help, the
footer and the palette then show the keys that are really in force (`live_keys`).

A scope with a text box (the query box) keeps the keys the box needs: a remap onto a key that
edits the text there (backspace, ctrl+w, …) is refused, and so is a printable key for a binding
that only the box has or that runs before the box sees its keys (`priority`): the first would
never fire (the box types the letter), the second would take the letter from every query.

The table comes from the config file, so it is untrusted text: a key holding a control
character (`"\u001b]0;title\u0007"`, `"\u001bc"`) is refused with a warning, and every id and
key quoted in a warning is made visible (`sanitize.one_line`), so none reaches the terminal.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from textual.binding import Binding, BindingType
from textual.keys import key_to_character

from memtui.core.sanitize import has_unsafe, one_line

MAX_KEY_CHARS = 40
"""Longer than any key name Textual knows (`ctrl+shift+exclamation_mark` is 27)."""


@dataclass(frozen=True)
class KeymapCheck:
    """The remaps to apply, and why the others were not."""

    accepted: dict[str, str]
    problems: tuple[str, ...]


def _keys(spec: str) -> set[str]:
    return {key.strip() for key in spec.split(",") if key.strip()}


def _bindings(table: Iterable[BindingType]) -> list[Binding]:
    return [item for item in table if isinstance(item, Binding) and item.id]


def _typed(key: str) -> bool:
    """Whether the key types a character into a text box (`e`, `E`, `space`, `question_mark`)."""
    character = key_to_character(key)
    return character is not None and character.isprintable()


def check_keymap(
    keymap: Mapping[str, str],
    scopes: Mapping[str, Sequence[BindingType]],
    text_boxes: Mapping[str, Collection[str]] | None = None,
) -> KeymapCheck:
    """Which remaps of `keymap` can be applied; `scopes` are binding tables active together;
    `text_boxes`: scope -> the editing keys of the text box focused in it."""
    tables = {name: _bindings(table) for name, table in scopes.items()}
    text_boxes = text_boxes or {}
    known = {binding.id: binding for table in tables.values() for binding in table}
    accepted: dict[str, str] = {}
    problems: list[str] = []

    def keys_of(binding: Binding) -> set[str]:
        assert binding.id is not None
        return _keys(accepted.get(binding.id, binding.key))

    for binding_id, spec in keymap.items():
        shown_id, shown_spec = one_line(binding_id, MAX_KEY_CHARS), one_line(spec, MAX_KEY_CHARS)
        if binding_id not in known:
            problems.append(
                f'[keymap] "{shown_id}": no binding has this id; ignored (help, ?, lists every id)'
            )
            continue
        if has_unsafe(spec) or any(len(key) > MAX_KEY_CHARS for key in _keys(spec)):
            problems.append(
                f'[keymap] "{shown_id}" = "{shown_spec}": not a key name '
                "(control characters, or too long); not applied"
            )
            continue
        wanted = _keys(spec)
        if not wanted:
            problems.append(f'[keymap] "{binding_id}": no key given; ignored')
            continue
        clash = next(
            (
                other
                for table in tables.values()
                if any(binding.id == binding_id for binding in table)
                for other in table
                if other.id != binding_id and keys_of(other) & wanted
            ),
            None,
        )
        if clash is not None:
            taken = ", ".join(sorted(keys_of(clash) & wanted))
            problems.append(
                f'[keymap] "{shown_id}" = "{shown_spec}": {one_line(taken)} already does '
                f"{clash.description or clash.action} ({clash.id}); not applied"
            )
            continue
        box_problem = _text_box_problem(binding_id, wanted, tables, text_boxes)
        if box_problem is not None:
            problems.append(f'[keymap] "{shown_id}" = "{shown_spec}": {box_problem}; not applied')
            continue
        accepted[binding_id] = spec
    return KeymapCheck(accepted, tuple(problems))


def _text_box_problem(
    binding_id: str,
    wanted: set[str],
    tables: Mapping[str, list[Binding]],
    text_boxes: Mapping[str, Collection[str]],
) -> str | None:
    """Why `wanted` cannot serve the binding where a text box has the keys, if it cannot."""
    for scope, editing in text_boxes.items():
        binding = next((item for item in tables[scope] if item.id == binding_id), None)
        if binding is None:
            continue
        if edits := sorted(wanted & set(editing)):
            return f"{one_line(', '.join(edits))} edits the text in the {scope} box"
        elsewhere = any(
            item.id == binding_id
            for name, table in tables.items()
            if name != scope
            for item in table
        )
        if (binding.priority or not elsewhere) and (typed := sorted(filter(_typed, wanted))):
            return f"{one_line(', '.join(typed))} types itself in the {scope} box"
    return None


def live_keys(binding: Binding, keymap: Mapping[str, str]) -> list[str]:
    """The keys that trigger `binding` once `keymap` (the accepted remaps) is applied."""
    spec = keymap.get(binding.id or "", binding.key)
    return sorted(_keys(spec), key=spec.index)
