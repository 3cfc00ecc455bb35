"""The board's writes for seasons (setup, fixtures, cup, season_end; the refusal and R43 in base), one module a part."""
