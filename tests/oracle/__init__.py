"""The odds oracle: every ruleset's exact odds checked against icepool (an independent
dice library) and against seeded runs of the ruleset's own resolver."""
