"""The ``propsim://NAME?OPTIONS`` URL: a simulated prop by name, made if new.

URL options (all optional): ``script=DECK,HAND1,PILE,...`` (buttons ``DECK``, ``PILE``,
``HAND1``-``HAND3`` or ``1``-``3``, and fault steps ``reset``, ``corrupt``, ``drop``,
``garbage``), ``corrupt=P`` and ``drop=P`` (chance per line / per event), ``seed=N``
(for those chances), ``boot_delay=N`` (lines swallowed after a restart), ``version=1``
(a prop that speaks only protocol version 1; default: versions 1 and 2),
``reset_on_open=0|1`` (default 1, like an Arduino's auto-reset), ``mute=1`` (never
answers) and ``usb_serial=TEXT``. An option that is not known or out of range, or a
script word that is none of those, is bad input (:class:`hardware.errors.PortURLError`).
"""

from __future__ import annotations

import urllib.parse

from hardware.errors import PortURLError
from hardware.propsim.registry import SCHEME, create, lookup
from hardware.propsim.script import parse_script
from hardware.propsim.twin import Faults, PropSim
from hardware.protocol import VERSIONS


def _flag(key: str, value: str) -> bool:
    if value not in ("0", "1"):
        raise PortURLError(f"propsim option {key}={value!r} is not 0 or 1")
    return value == "1"


def _chance(key: str, value: str) -> float:
    try:
        chance = float(value)
    except ValueError:
        chance = -1.0
    if not 0.0 <= chance <= 1.0:
        raise PortURLError(f"propsim option {key}={value!r} is not a chance between 0 and 1")
    return chance


def _count(key: str, value: str) -> int:
    if not value.isdigit():
        raise PortURLError(f"propsim option {key}={value!r} is not a whole number")
    return int(value)


def open_url(url: str) -> PropSim:
    """The simulated prop a ``propsim://NAME?OPTIONS`` URL names, created if new.

    Options apply only when the URL creates the prop; an existing one is reused as is.
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme.lower() != SCHEME:
        raise PortURLError(f"URL {url!r} is not a propsim:// URL")
    name = parts.netloc or None
    if name is not None:
        existing = lookup(name)
        if existing is not None:
            return existing
    fields: dict[str, str] = {}
    for key, values in urllib.parse.parse_qs(parts.query, keep_blank_values=True).items():
        fields[key] = values[-1]
    known = {"script", "corrupt", "drop", "seed", "boot_delay", "reset_on_open", "mute",
             "usb_serial", "version"}
    for key in fields:
        if key not in known:
            raise PortURLError(
                f"propsim option {key!r} is not known, expected one of "
                f"{', '.join(sorted(known))}"
            )
    faults = Faults(
        corrupt=_chance("corrupt", fields.get("corrupt", "0")),
        drop=_chance("drop", fields.get("drop", "0")),
        seed=_count("seed", fields.get("seed", "0")),
        boot_delay=_count("boot_delay", fields.get("boot_delay", "0")),
        reset_on_open=_flag("reset_on_open", fields.get("reset_on_open", "1")),
        mute=_flag("mute", fields.get("mute", "0")),
    )
    return create(
        name,
        script=parse_script(fields.get("script", "")),
        faults=faults,
        usb_serial=fields.get("usb_serial") or None,
        max_version=_count("version", fields.get("version", str(VERSIONS[-1]))),
    )
