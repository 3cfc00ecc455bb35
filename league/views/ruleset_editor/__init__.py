"""The board's rules editor: every setting a labelled field, every table a grid of inputs, one module a part."""
