"""`berthier host` and `berthier join` refuse bad input with a message, never a traceback."""
import subprocess
import sys

from net_helpers import AUSTERLITZ, ROOT

from manager.cli import build_parser


def berthier(*args, tmp_path, timeout=60):
    env = {"PYTHONPATH": str(ROOT), "BERTHIER_DATA": str(tmp_path / "data"), "PATH": ""}
    return subprocess.run([sys.executable, "-m", "manager.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=timeout)


def test_host_and_join_are_berthier_subcommands():
    sub = build_parser()._subparsers._group_actions[0].choices
    assert {"host", "join"} <= set(sub)
    host = sub["host"].parse_args(["x.berthier", "--port", "0"])
    assert host.port == 0 and host.save is None and not host.public
    join = sub["join"].parse_args(["10.0.0.2:8765", "--code", "K", "--commands", "a,b", "--auto"])
    assert join.auto and join.commands == "a,b"


def test_bad_input_gets_a_message_naming_the_problem(tmp_path):
    missing = berthier("host", tmp_path / "nowhere.toml", tmp_path=tmp_path)
    assert missing.returncode == 2 and "nowhere.toml" in missing.stderr
    assert "Traceback" not in missing.stderr
    turns = berthier("host", tmp_path / "b.berthier", "--turns", 3, tmp_path=tmp_path)
    assert turns.returncode == 2 and "--turns goes with a scenario" in turns.stderr
    public = berthier("host", AUSTERLITZ, "--bind", "8.8.8.8", "--save", tmp_path / "p.berthier",
                      tmp_path=tmp_path)
    assert public.returncode == 2 and "not a local-network address" in public.stderr
    assert not (tmp_path / "p.berthier").exists()
    nobody = berthier("join", "127.0.0.1:9", "--code", "X", "--commands", "guard", "--wait",
                      0.5, tmp_path=tmp_path)
    assert nobody.returncode == 2 and "no answer from 127.0.0.1:9" in nobody.stderr
    assert "Traceback" not in nobody.stderr
    bad = berthier("join", "host:port", "--code", "X", "--commands", "guard", tmp_path=tmp_path)
    assert bad.returncode == 2 and "the port must be a number" in bad.stderr
