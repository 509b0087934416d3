"""One module per `memtui` subcommand (the TUI, `pick`, `rank`, `list`, `roots`, `health`,
`bench`, `cache`), plus what they share: startup from parsed arguments, masking, JSON output."""
