"""The desktop app (PySide6). It imports manager/; manager/ never imports it."""
