"""hardware.protocol_propsim: a pyserial port whose other end is a simulated prop."""

from __future__ import annotations

import pytest
from prop_helpers import unique_name
from serial import PortNotOpenError, SerialException

from hardware.errors import PortURLError
from hardware.framing import LineFramer, seal
from hardware.propsim.registry import lookup
from hardware.protocol import Boot, Ping, Pong, decode_device, encode_command
from hardware.protocol_propsim import Serial


def replies(port: Serial) -> list[object]:
    """The lines waiting on ``port``, decoded."""
    lines = LineFramer().feed(port.read(port.in_waiting))
    return [decode_device(line) for line in lines if isinstance(line, str)]


def test_a_port_talks_to_the_prop_its_url_names() -> None:
    name = unique_name("port")
    port = Serial(f"propsim://{name}", timeout=0)
    assert port.is_open and port.resolved_url == f"propsim://{name}"
    assert replies(port) == [Boot(2)]  # the prop resets when the port opens
    assert port.write(seal(encode_command(Ping(), 5))) == len(seal(encode_command(Ping(), 5)))
    assert replies(port) == [Pong(5, 0, 0, 0)]
    port.write(b"PING\n")
    port.write(seal(encode_command(Ping(), 6)))
    port.reset_input_buffer()
    assert port.in_waiting == 0 and port.read(10) == b""
    sim = lookup(name)
    assert sim is not None and sim.bad_lines == 1
    port.close()
    with pytest.raises(PortNotOpenError):
        port.read(1)


def test_an_unplugged_prop_fails_every_call_as_a_vanished_device() -> None:
    name = unique_name("port")
    port = Serial(f"propsim://{name}", timeout=0)
    sim = lookup(name)
    assert sim is not None
    sim.unplug()
    for call in (lambda: port.in_waiting, lambda: port.read(1), lambda: port.write(b"x")):
        with pytest.raises(SerialException, match=f"simulated prop '{name}' was unplugged"):
            call()
    with pytest.raises(SerialException, match=f"simulated prop '{name}' is unplugged"):
        Serial(f"propsim://{name}")


def test_a_bad_url_is_bad_input_and_a_second_open_a_serial_error() -> None:
    with pytest.raises(PortURLError, match="propsim option 'x' is not known"):
        Serial(f"propsim://{unique_name('port')}?x=1")
    port = Serial(f"propsim://{unique_name('port')}")
    with pytest.raises(SerialException, match=r"Port is already open\."):
        port.open()
    with pytest.raises(SerialException, match="Port must be configured"):
        Serial().open()
