"""The match report: filed by a coach, confirmed by the other (or the board), counted once.

Confirming applies the report to the rosters (SPP by kind) in the same transaction that marks the
match confirmed, under a row lock, so two confirmations racing, a double submit or a crash half-way
never count it twice or by half. Reopening or voiding a confirmed report takes exactly that back.

One module per part: filing (the report's input and its problems) and confirmation (confirm, dispute,
reopen, void); every name is importable from here.
"""

from matches.report.confirmation import confirm_report, dispute_report, reopen_report, report_history, void_match
from matches.report.filing import (
    ApothecaryInput,
    LineInput,
    ReportError,
    ReportInput,
    apothecary_problems,
    file_report,
    report_problems,
    squad_ids,
)

__all__ = [
    "ApothecaryInput",
    "LineInput",
    "ReportError",
    "ReportInput",
    "apothecary_problems",
    "confirm_report",
    "dispute_report",
    "file_report",
    "reopen_report",
    "report_history",
    "report_problems",
    "squad_ids",
    "void_match",
]
