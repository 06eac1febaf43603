"""Campaigns: armies carried from battle to battle, with a ledger that always reconciles.

For every unit: strength at muster - losses + men returned + replacements = now.
Strength is counted in the ruleset's strength points (Morschauser: hits), the same
numbers a battle file starts and ends with, so nothing is converted or rounded.
"""
from .ledger import Campaign, CampaignOptions  # noqa: F401
