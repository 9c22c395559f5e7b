"""The simulated props of this process, by name (a process-wide registry).

:func:`create` makes one and :func:`add` puts one in; :func:`lookup` finds one by name
(a test reaches the twin behind a ``propsim://NAME`` port this way), :func:`url_of`
names its URL, :func:`sim_ports` lists the plugged-in ones as USB ports with their
identity (so the host finds one again after an unplug), and :func:`plug_in` puts one
back, possibly under a new name.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from typing import Final

from edgework.errors import MisuseError
from hardware.errors import PortURLError
from hardware.propsim.script import ScriptStep
from hardware.propsim.twin import Faults, PropSim
from hardware.protocol import VERSIONS
from hardware.transport import PortInfo

#: The USB identity simulated props report: the pid.codes test vendor and product.
SIM_VID: Final = 0x1209
SIM_PID: Final = 0x0001
#: The URL scheme of simulated props.
SCHEME: Final = "propsim"

_REGISTRY: dict[str, PropSim] = {}
_REGISTRY_LOCK = threading.Lock()
_NAMES = itertools.count(1)


def create(
    name: str | None = None,
    *,
    script: Sequence[ScriptStep] = (),
    faults: Faults | None = None,
    usb_serial: str | None = None,
    max_version: int = VERSIONS[-1],
) -> PropSim:
    """A new simulated prop in the registry (named ``sim-N`` when no name is given).

    Its USB serial number defaults to one derived from the name it is created with, and
    stays when it is later plugged in under another name. ``max_version`` 1 makes a
    version-1 prop.
    """
    if max_version not in VERSIONS:
        raise PortURLError(
            f"protocol version {max_version} is not known, expected one of "
            f"{', '.join(map(str, VERSIONS))}"
        )
    with _REGISTRY_LOCK:
        if name is None:
            name = f"sim-{next(_NAMES)}"
            while name in _REGISTRY:
                name = f"sim-{next(_NAMES)}"
    return add(
        PropSim(
            name,
            script=tuple(script),
            faults=faults or Faults(),
            usb_serial=usb_serial or f"PROPSIM-{name.upper()}",
            max_version=max_version,
        )
    )


def add(sim: PropSim) -> PropSim:
    """Put ``sim`` in the registry under its name (:func:`create` makes and adds one)."""
    with _REGISTRY_LOCK:
        if sim.name in _REGISTRY:
            raise MisuseError(f"a simulated prop called {sim.name!r} already exists")
        _REGISTRY[sim.name] = sim
        return sim


def lookup(name: str) -> PropSim | None:
    """The simulated prop called ``name``, if any."""
    with _REGISTRY_LOCK:
        return _REGISTRY.get(name)


def url_of(sim: PropSim) -> str:
    """The URL that opens ``sim``."""
    return f"{SCHEME}://{sim.name}"


def sim_ports() -> list[PortInfo]:
    """The plugged-in simulated props, as a port list (for discovery after an unplug)."""
    with _REGISTRY_LOCK:
        sims = sorted(_REGISTRY.values(), key=lambda sim: sim.name)
    return [
        PortInfo(
            device=url_of(sim),
            description=f"simulated Exploding Mittens prop {sim.name}",
            hwid=f"USB VID:PID={SIM_VID:04X}:{SIM_PID:04X} SER={sim.usb_serial}",
            vid=SIM_VID,
            pid=SIM_PID,
            serial_number=sim.usb_serial,
            manufacturer="exploding-mittens",
            product="propsim",
        )
        for sim in sims
        if sim.plugged
    ]
