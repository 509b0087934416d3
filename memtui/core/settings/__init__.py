"""Settings and state: the config file, writing it back, and the query history."""
