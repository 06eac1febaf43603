"""Test configuration: Qt always headless, whatever the machine has, and the user's data
folder (OOB library, autosaves) a temporary one, so tests never touch the real one."""
import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Property tests explore new examples on a developer's machine; under CI (CI=true) they
# are derandomized, so a landing is judged on the examples a developer can run again
# (`CI=true python -m pytest`) rather than on a draw nobody can reproduce.
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    _hypothesis_settings.load_profile("ci")


@pytest.fixture(autouse=True)
def private_data(tmp_path, monkeypatch):
    monkeypatch.setenv("BERTHIER_DATA", str(tmp_path / "user-data"))
