from memtui.cli import entry

entry()
