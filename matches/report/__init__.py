"""The match report: filed by a coach (filing), confirmed by the other or the board, counted once (confirmation)."""
