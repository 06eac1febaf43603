"""Berthier's engine: the battle model, rules, dice, sessions and the CLI. No Qt here."""
__version__ = "0.1.0"
