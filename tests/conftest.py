"""Test configuration: Qt always headless, whatever the machine has."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
