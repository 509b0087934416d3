"""The Textual front end: thin widgets over what `memtui.core` computed."""
