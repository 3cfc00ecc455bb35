"""Norwegian dates as the league writes them: "24. nov."; Django's nb gives "24. november"."""

MONTH_DAY_FORMAT = "j. b."
