"""The pre-match sequence of the referee sheet (R3, R12-R18, R22, R23, R36, R39), one module a part."""
