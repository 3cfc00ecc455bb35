"""The league's pages: the front page, a coach's page, standings and rules (pages), the seasons with
the board's forms (seasons), the leaders, the rulesets with their editor and preview, the coaches'
accounts (accounts), and the confirm page other apps' views share."""
