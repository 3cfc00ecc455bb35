"""The match pages, one module a page; `matches.urls` imports each module."""
