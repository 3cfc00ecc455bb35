"""The season: divisions, fixtures, the cup draw, standings, the leaders and the season end, which
read matches and pay teams. Services write, selectors read, forms take the board's input."""
