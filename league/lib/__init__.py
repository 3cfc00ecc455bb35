"""Small helpers any app uses: refusals, form inputs, one-time tokens, numbers, logs, the responses to a
refusal, the middleware and page cache, the league writes and the admin's helpers."""
