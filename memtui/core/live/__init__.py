"""The live corpus: a store per root, watching, the engine facade and the warm start."""
