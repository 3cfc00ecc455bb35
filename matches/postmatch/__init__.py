"""The post-match sequence for one team, one module a step (R24): each step is applied whole and once."""
