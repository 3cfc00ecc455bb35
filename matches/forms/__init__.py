"""The forms of the report and of the pre- and post-match steps, one module a part."""
