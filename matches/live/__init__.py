"""The match log kept beside the pitch (state, entries, kickoff, reads), one module a part."""
