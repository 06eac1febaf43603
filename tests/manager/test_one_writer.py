"""One writer per battle file: a lock while it is recorded, told to a second opener, cleared
when its holder died; creates racing for one name: one wins, the other is told."""
import hashlib
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from manager import game_actions as ga
from manager.errors import StoreError
from manager.scenario_io import load_scenario
from manager.session import Session
from manager.simulate import fight
from manager.store import create_battle, open_battle
from manager.store.battle_file import load_battle
from manager.store.lock import FileLocked, lock_path

ROOT = Path(__file__).parent.parent.parent
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"

HOLD = textwrap.dedent("""
    import sys
    from manager.store import open_battle
    f = open_battle(sys.argv[1])
    f.session.execute(__import__("manager.game_actions", fromlist=["x"]).EndPhase())
    print("open", flush=True)
    sys.stdin.readline()
    f.close()
    print("closed", flush=True)
""")


def holder(path):
    """Another process that opens the battle for recording and keeps it open."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], cwd=ROOT, env=env, text=True,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = p.stdout.readline()
    assert line.strip() == "open", p.stderr.read()
    return p


def digest(path):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.parent.iterdir()) if p.is_file()}


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "b.berthier"
    s = Session(load_scenario(SKIRMISH))
    f = create_battle(path, s)
    s.execute(ga.StartBattle())
    f.close()
    return path


def test_a_second_process_is_told_who_holds_the_battle_and_may_view_it(saved):
    p = holder(saved)
    try:
        with pytest.raises(FileLocked, match=rf"{saved}: open for recording by process "
                                             rf"{p.pid} .*read-only") as info:
            open_battle(saved)
        assert info.value.holder["pid"] == p.pid
        # read-only: it sees the other's action (committed), and writes nothing
        before = digest(saved)
        view = open_battle(saved, read_only=True)
        assert view.read_only and view.holder["pid"] == p.pid
        assert len(view.session.entries) == 2
        view.session.execute(ga.EndPhase())             # played in memory only
        view.close()
        session, _ = load_battle(saved)
        assert len(session.entries) == 2
        r = subprocess.run([sys.executable, "-m", "manager.cli", "report", str(saved), "--json"],
                           cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        # a Save as over it is refused too, and leaves it as it was
        with pytest.raises(FileLocked):
            create_battle(saved, Session(load_scenario(SKIRMISH)), replace=True)
        after = digest(saved)
        assert {k: v for k, v in after.items() if not k.endswith("-shm")} == \
            {k: v for k, v in before.items() if not k.endswith("-shm")}
    finally:
        p.stdin.write("\n")
        p.stdin.flush()
        assert p.stdout.readline().strip() == "closed"
        p.wait()
    # closed there: opens here, with both actions, and the lock is gone with the close
    f = open_battle(saved)
    assert len(f.session.entries) == 2 and f.notice is None
    f.close()
    assert not lock_path(saved).exists()


def test_a_crashed_holders_lock_is_cleared_with_a_message(saved):
    p = holder(saved)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    assert lock_path(saved).exists()                   # what a kill -9 leaves
    f = open_battle(saved)
    assert f.notice and f"process {p.pid}" in f.notice and "no longer running" in f.notice
    assert len(f.session.entries) == 2                 # nothing committed was lost
    f.close()
    assert not lock_path(saved).exists()


def test_the_same_battle_twice_in_one_process_is_refused(saved):
    f = open_battle(saved)
    try:
        with pytest.raises(FileLocked, match="this Berthier"):
            open_battle(saved)
    finally:
        f.close()
    open_battle(saved).close()


def test_a_refused_lock_leaves_no_file_behind(saved):
    f = open_battle(saved)
    before = sorted(p.name for p in saved.parent.iterdir())
    with pytest.raises(FileLocked):
        open_battle(saved)
    assert sorted(p.name for p in saved.parent.iterdir()) == before
    f.close()


RACE = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from manager.errors import StoreError
    from manager.scenario_io import load_scenario
    from manager.session import Session
    from manager.store import create_battle
    s = Session(load_scenario(sys.argv[2]))
    go = Path(sys.argv[3])
    print("ready", flush=True)
    while not go.exists():
        time.sleep(0.001)
    try:
        f = create_battle(sys.argv[1], s)
    except StoreError as exc:
        print("refused", exc, flush=True)
    else:
        f.session.execute(__import__("manager.game_actions", fromlist=["x"]).StartBattle())
        f.close()
        print("created", flush=True)
""")


def test_creates_racing_for_one_name_one_wins_the_others_are_told(tmp_path):
    path = tmp_path / "race.berthier"
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", RACE, str(path), str(SKIRMISH), str(go)],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(4)]
    for p in procs:                                    # all at the start line
        assert p.stdout.readline().strip() == "ready"
    go.write_text("go")
    outs = [p.communicate(timeout=60) for p in procs]
    said = [o.split(" ", 1)[0].strip() for o, _ in outs]
    assert all(p.returncode == 0 for p in procs), [e for _, e in outs]
    assert said.count("created") == 1 and said.count("refused") == 3, outs
    for out, _ in outs:
        if out.startswith("refused"):
            assert str(path) in out and ("already exists" in out or "open for recording" in out)
    f = open_battle(path)                              # the winner's battle, whole
    assert len(f.session.entries) == 1
    f.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["go", "race.berthier"]


def test_simulate_save_onto_a_battle_being_recorded_is_refused(saved, tmp_path):
    f = open_battle(saved)
    try:
        r = subprocess.run([sys.executable, "-m", "manager.cli", "simulate", str(SKIRMISH),
                            "--save", str(saved)], cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 2 and str(saved) in r.stderr and "Traceback" not in r.stderr
    finally:
        f.close()
    fight(SKIRMISH, seed=1, save=tmp_path / "other.berthier")
    with pytest.raises(StoreError, match="already exists"):
        fight(SKIRMISH, seed=1, save=tmp_path / "other.berthier")
