"""Errors written for people: each message says what is wrong and what was expected."""


class BerthierError(Exception):
    """Base of every error Berthier reports to a user instead of a traceback."""


class IllegalAction(BerthierError):
    """An action the rules or the model refuse; the message is for the player."""


class DiceError(BerthierError):
    """Dice faces that cannot be accepted (wrong count, face out of range, replay mismatch)."""


class ScenarioError(BerthierError):
    """A scenario file that cannot be loaded: names the file, the key or line, and the expectation."""

    def __init__(self, path, where, problem):
        self.path, self.where, self.problem = str(path), where, problem
        super().__init__(f"{self.path}: {where}: {problem}" if where else f"{self.path}: {problem}")


class OobError(ScenarioError):
    """A plain-text order of battle that cannot be read; `where` is 'line N'."""


class StoreError(BerthierError):
    """A battle or campaign file that cannot be opened or written."""
