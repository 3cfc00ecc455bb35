"""The team pages, one module a page; `teams.urls` imports each module."""
