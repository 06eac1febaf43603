"""Conformance cases written from the rule texts, and the runner that plays them."""
