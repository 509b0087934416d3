"""Search: the tokenizer, the query grammar, the inverted index and the ranker."""
