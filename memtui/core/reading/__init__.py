"""Reading: one file on disk -> decoded text -> its entries (walk, text, frontmatter, parse)."""
