"""The league's pages: the front page, standings and the season board (pages), the leaders, the
rulesets with their editor and preview, and the confirm page other apps' views share."""
