"""Errors of the prop bridge, split by whose fault they are.

Bad input (an :class:`edgework.errors.InputError`: the command line exits 2):

* :class:`PortURLError`: a port name or URL that names no port as given (an unknown
  URL scheme, a malformed URL, a ``propsim://`` option or script word that is not
  known or out of range).
* :class:`UnshowableEdgeError`: edgework the prop cannot show (a port plate with more
  ports than it has room for).

Faults (a :class:`HardwareError`, an :class:`edgework.errors.FaultError`: exit 1):

* :class:`HostProtocolError`: we (the host) sent something wrong: a command value out of
  range before sending, or the prop refused a command with ``ERR ... UNKNOWN``/``ARGS``.
  :class:`CommandRejected` is the same fault seen from the prop's side while decoding.
* :class:`DeviceProtocolError`: the prop sent something wrong: a checked line that is no
  message, or a reply of the wrong kind.
* :class:`VersionMismatchError`: the two sides speak different protocol versions.
* :class:`LinkError` and its subclasses: the connection itself (no port, no answer).

Every message names the input at fault and what was expected. Errors carry data, not
advice: ``setting`` names the :class:`~hardware.session.Timing` field whose limit was
reached (a :class:`Setting`), and a command says which of its options sets it. A
refused command carries its ``ERR`` code as an :class:`ErrorCode`.
"""

from __future__ import annotations

import enum

from edgework.errors import FaultError, InputError


class Setting(enum.Enum):
    """A :class:`~hardware.session.Timing` field whose limit an error or notice reached;
    the value is the field's name."""

    HANDSHAKE_TIMEOUT = "handshake_timeout"
    REPLY_TIMEOUT = "reply_timeout"
    RECONNECT_TIMEOUT = "reconnect_timeout"


class ErrorCode(enum.Enum):
    """Why a prop refused a command (``ERR <tag> <code>``)."""

    UNKNOWN = "UNKNOWN"
    ARGS = "ARGS"
    VERSION = "VERSION"
    NOSESSION = "NOSESSION"


class PropInputError(InputError):
    """Bad input about the prop: the message names the input and what was expected."""


class PortURLError(PropInputError):
    """A port name or URL that cannot name a port as given: an unknown URL scheme, a
    malformed URL, a ``propsim://`` option or script word not known or out of range."""


class UnshowableEdgeError(PropInputError):
    """Edgework the prop cannot show: a value beyond what its protocol carries."""


class HardwareError(FaultError):
    """Anything that goes wrong between the host and the prop (a fault, under the
    project's one root in :mod:`edgework.errors`).

    ``setting`` is the timing field whose limit was reached, or None.
    """

    def __init__(self, message: str = "", *, setting: Setting | None = None) -> None:
        super().__init__(message)
        self.setting = setting


class ProtocolError(HardwareError):
    """A message broke the protocol (docs/protocol.md)."""


class HostProtocolError(ProtocolError):
    """The host sent, or was about to send, something the protocol does not allow."""


class CommandRejected(HostProtocolError):
    """A command line that the prop must refuse; ``code`` is the ``ERR`` code to answer.

    ``tag`` is the tag text to echo, or ``None`` when the tag itself was unreadable (the
    prop then answers ``ERR - ARGS``).
    """

    def __init__(self, message: str, *, tag: str | None, code: ErrorCode) -> None:
        super().__init__(message)
        self.tag = tag
        self.code = code


class DeviceProtocolError(ProtocolError):
    """The prop sent a checked line that is not a valid message, or not the one expected."""

    def __init__(self, message: str, *, line: str = "") -> None:
        super().__init__(message)
        self.line = line


class VersionMismatchError(ProtocolError):
    """The prop does not speak a protocol version the host speaks; ``prop_version`` is
    the highest it does."""

    def __init__(self, message: str, *, prop_version: int) -> None:
        super().__init__(message)
        self.prop_version = prop_version


class LinkError(HardwareError):
    """The connection to the prop failed: no such port, no answer, gone."""


class PortNotFoundError(LinkError):
    """No port matched what was asked for; ``candidates`` are the ports that could be the
    prop when there were several (empty when there was none)."""

    def __init__(self, message: str, *, candidates: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = candidates


class NoAnswerError(LinkError):
    """The port opened but nothing answered the protocol in time."""
