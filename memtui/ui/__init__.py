"""The Textual front end: thin widgets over what `memtui.core` computed.

Imports point one way (tests/test_ui_layers.py):

- leaves: `render` (rows, breakdowns, entry text), `status` (status lines, empty states,
  notices), `filters` (the query's filter tokens), `bindings` (the main screen's keys),
  `messages` (what workers and screens post), `themes` (loading, and keeping every theme's
  text readable), `contrast` (WCAG ratios, read off rendered segments), `markdown` (the entry
  as blocks: tables, code, lists…; `markdown_table` lays tables out), `titles` (titles with
  inline code), `widths` (one_line caps), `heap` (GC tuning), `editor` (open $EDITOR);
- `widgets/`: the query box, the results list, the entry view and the entry pane around it;
- `screens/`: the main screen (owns the engine and every worker) and one module per other
  screen, which report through `dismiss` or messages and never import the main screen;
- `app`: options, themes, the secret mask, the command palette, and forwarding the messages
  that modal screens post (they bubble to the app) to the main screen.
"""
