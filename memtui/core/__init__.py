"""The engine: parsing, store, index, ranking. Never imports Textual or Rich."""
