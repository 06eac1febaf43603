"""The black-box host tests' fixtures: `berthier host` subprocesses, stopped afterwards."""
import pytest

from net_blackbox import MAIDA, HostProc


@pytest.fixture
def host_factory(tmp_path):
    hosts = []

    def make(file=None, *args, port=0):
        if file is None:
            file = MAIDA
            args = ("--save", tmp_path / f"b{len(hosts)}.berthier", *args)
        h = HostProc(file, *args, port=port)
        hosts.append(h)
        return h
    yield make
    for h in hosts:
        h.stop()


@pytest.fixture(scope="module")
def quiet_host(tmp_path_factory):
    """A host nobody starts the battle on: any executed message would show as entry 0."""
    path = tmp_path_factory.mktemp("quiet") / "quiet.berthier"
    h = HostProc(MAIDA, "--save", path)
    h.path = path
    yield h
    h.stop()
