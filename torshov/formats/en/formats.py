"""English short dates: "24. Nov"."""

MONTH_DAY_FORMAT = "j. M"
