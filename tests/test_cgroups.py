"""Where sealed bots' control groups are made (goat.arena.cgroups), decided on made-up cgroup trees.

Each test lays out the files a cgroup file system would show under a temporary directory and asks
:func:`goat.arena.cgroups.find` where a referee in it may make its bots' groups.  That the groups, once made,
bound a bot is tested on this machine's own cgroups in ``test_sandbox.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

from goat.arena import cgroups

V2 = frozenset({"rw", "nsdelegate"})


def group(root: Path, path: str, *, controllers: str = "", enabled: str = "", procs: str = "") -> Path:
    """A v2 group at ``path`` of the tree at ``root``: its available and enabled controllers, its processes."""
    directory = root / path.lstrip("/")
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "cgroup.controllers").write_text(controllers)
    (directory / "cgroup.subtree_control").write_text(enabled)
    (directory / "cgroup.procs").write_text(procs)
    return directory


def test_the_root_group_with_its_controllers_on_is_used_as_it_is(tmp_path: Path) -> None:
    group(tmp_path, "/", controllers="cpu memory pids io", enabled="cpu memory pids", procs="1\n77\n")
    found = cgroups.find([("cgroup2", str(tmp_path), V2)], {"": "/"}, root=True)
    assert {(p.controller, p.version, p.parent) for p in found.places} == {
        (name, 2, str(tmp_path)) for name in ("memory", "pids", "cpu", "cpuacct")
    }
    assert found.missing == ()
    assert not (tmp_path / cgroups.LEAF).exists()  # nothing moved


def test_a_group_delegated_to_a_user_gets_its_controllers_after_its_processes_move_to_a_leaf(
    tmp_path: Path,
) -> None:
    group(tmp_path, "/user.slice", controllers="cpu io memory pids", enabled="cpu memory pids")  # above: later
    scope = group(tmp_path, "/user.slice/run-1.scope", controllers="cpu io memory pids", procs="4242\n")
    found = cgroups.find([("cgroup2", str(tmp_path), V2)], {"": "/user.slice/run-1.scope"}, root=False)
    assert {p.parent for p in found.places} == {str(scope)}
    assert {p.controller for p in found.places} == {"memory", "pids", "cpu", "cpuacct"}
    assert (scope / cgroups.LEAF / "cgroup.procs").read_text() == "4242"  # moved first: v2 asks it
    assert set((scope / "cgroup.subtree_control").read_text().split()) == {"+cpu", "+memory", "+pids"}


def test_root_takes_a_group_above_with_the_controllers_on_before_moving_processes_in_its_own(tmp_path: Path) -> None:
    above = group(tmp_path, "/user.slice", controllers="cpu io memory pids", enabled="cpu memory pids")
    scope = group(tmp_path, "/user.slice/session-2.scope", controllers="cpu io memory pids", procs="77\n4242\n")
    found = cgroups.find([("cgroup2", str(tmp_path), V2)], {"": "/user.slice/session-2.scope"}, root=True)
    assert {p.parent for p in found.places} == {str(above)}
    assert not (scope / cgroups.LEAF).exists() and (scope / "cgroup.subtree_control").read_text() == ""


def test_a_group_that_refuses_its_controllers_says_why_and_how_to_get_them(tmp_path: Path) -> None:
    scope = group(tmp_path, "/user.slice/run-2.scope", controllers="cpu memory pids", procs="4242\n")
    (scope / "cgroup.subtree_control").unlink()  # the kernel refuses the write; here, a directory does
    (scope / "cgroup.subtree_control").mkdir()
    found = cgroups.find([("cgroup2", str(tmp_path), V2)], {"": "/user.slice/run-2.scope"}, root=False)
    assert found.places == ()
    why = found.why_not("memory")
    assert "refused its controllers" in why and "systemd-run --user --scope -p Delegate=yes" in why


def test_a_group_not_delegated_names_the_command_that_gets_one(tmp_path: Path) -> None:
    group(tmp_path, "/user.slice", controllers="cpu memory pids")  # the scope itself: not ours to write
    found = cgroups.find([("cgroup2", str(tmp_path), V2)], {"": "/user.slice/session-2.scope"}, root=False)
    assert found.places == ()
    assert "not delegated" in found.why_not("pids") and "Delegate=yes" in found.why_not("pids")


def test_as_root_the_nearest_group_above_with_the_controllers_on_is_used(tmp_path: Path) -> None:
    slice_ = group(tmp_path, "/system.slice", controllers="cpu memory pids", enabled="memory pids")
    found = cgroups.find([("cgroup2", str(tmp_path), V2)], {"": "/system.slice/absent.service"}, root=True)
    assert {(p.controller, p.parent) for p in found.places} == {
        ("memory", str(slice_)),
        ("pids", str(slice_)),
        ("cpuacct", str(slice_)),
    }
    assert dict(found.missing).keys() == {"cpu"}


def test_controllers_missing_from_v2_are_taken_from_v1_where_it_has_them(tmp_path: Path) -> None:
    unified = tmp_path / "unified"
    group(unified, "/", controllers="cpu pids", enabled="cpu pids")
    memory = tmp_path / "memory" / "box"
    memory.mkdir(parents=True)
    mounts = [
        ("cgroup", str(tmp_path / "memory"), frozenset({"rw", "memory"})),
        ("cgroup2", str(unified), V2),
        ("cgroup", str(tmp_path / "pids"), frozenset({"rw", "pids"})),
    ]
    found = cgroups.find(mounts, {"": "/", "memory": "/box", "pids": "/"}, root=True)
    assert {(p.controller, p.version) for p in found.places} == {
        ("memory", 1),
        ("pids", 2),
        ("cpu", 2),
        ("cpuacct", 2),
    }
    assert found.place("memory") == cgroups.Place("memory", 1, str(memory))


def test_a_v1_group_that_cannot_be_written_and_no_cgroup_at_all_are_each_explained(tmp_path: Path) -> None:
    mounts = [("cgroup", str(tmp_path / "pids"), frozenset({"rw", "pids"}))]
    found = cgroups.find(mounts, {"pids": "/not/ours"}, root=False)
    assert found.places == ()
    assert "is not writable" in found.why_not("pids")
    assert found.why_not("memory") == "no cgroup hierarchy has this controller"
    assert cgroups.find([], {}, root=False).why_not("cpu") == "no cgroup hierarchy has this controller"


def test_this_machines_groups_are_found_once_and_probing_leaves_nothing_behind() -> None:
    found = cgroups.hierarchy()
    assert cgroups.hierarchy() is found
    for place in found.places:
        assert not [name for name in os.listdir(place.parent) if name.startswith(f"goat-probe-{os.getpid()}-")]
