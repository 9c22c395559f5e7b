"""The simulated prop: a software twin of the physical prop that speaks the protocol.

One job per module:

* :mod:`~hardware.propsim.twin`: :class:`~hardware.propsim.twin.PropSim`, the device
  twin, with its faults and what it shows;
* :mod:`~hardware.propsim.script`: scripts of presses and faults, as words;
* :mod:`~hardware.propsim.registry`: the simulated props of this process, by name, and
  their USB identity (so the host finds one again after an unplug);
* :mod:`~hardware.propsim.url`: the ``propsim://NAME?OPTIONS`` URL that makes or opens
  one (the pyserial port is :mod:`hardware.protocol_propsim`);
* :mod:`~hardware.propsim.checking`: the conformance checker's hands and clock for one;
* :mod:`~hardware.propsim.pty`: one behind a real pseudo-terminal;
* :mod:`~hardware.propsim.__main__`: ``python -m hardware.propsim --pty``, that as a
  command line.
"""
