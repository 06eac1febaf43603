"""Test configuration: Qt always headless, whatever the machine has, and the user's data
folder (OOB library, autosaves) a temporary one, so tests never touch the real one."""
import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def private_data(tmp_path, monkeypatch):
    monkeypatch.setenv("BERTHIER_DATA", str(tmp_path / "user-data"))
