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


class OutputError(BerthierError, OSError):
    """A file Berthier was asked to write (a report, a scenario) could not be written: a
    full disk, a read-only folder. An OSError too, so callers that catch those still do."""

    def __init__(self, path, reason: str, errno: int | None = None):
        OSError.__init__(self, errno or 0, reason, str(path))
        self.message = f"{path}: cannot be written ({reason}); nothing was written"

    def __str__(self) -> str:
        return self.message
