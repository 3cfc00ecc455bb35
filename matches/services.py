"""The old path of matches.results (the board's results and forfeits), kept for the tests that import it."""

from matches.results import MatchError, record_forfeit, record_result, result_problems

__all__ = ["MatchError", "record_forfeit", "record_result", "result_problems"]
