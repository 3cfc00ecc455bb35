"""Small helpers any app uses: refusals, form inputs, one-time tokens, numbers, paging, logs, the
responses to a refusal, the middleware and page cache, the league writes, the admin's helpers and the few
reads written out in SQL (plain_sql)."""
