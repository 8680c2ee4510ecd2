"""A screen reader's ear for the e2e tests: the AT-SPI events a real window sends, over D-Bus.

Orca learns of announcements the way this listener does: it asks the AT-SPI registry for
``object:announcement`` events (apps' bridges send only events some client registered for) and
receives the ``org.a11y.atspi.Event.Object.Announcement`` signals on the accessibility bus, which
``at-spi-bus-launcher`` (package ``at-spi2-core``) starts on demand from the session bus. Plain
D-Bus through jeepney (which keyring already brings on Linux), no pyatspi.
"""

from __future__ import annotations

import os
import shutil
import threading
from dataclasses import dataclass

import pytest
from jeepney import DBusAddress, MatchRule, message_bus, new_method_call
from jeepney.io.blocking import DBusConnection, open_dbus_connection
from jeepney.low_level import HeaderFields, MessageType

#: AT-SPI's politeness of a live region (``AtspiLive``), the first detail of the signal.
POLITE, ASSERTIVE = 1, 2
_BUS = DBusAddress("/org/a11y/bus", bus_name="org.a11y.Bus", interface="org.a11y.Bus")
_REGISTRY = DBusAddress(
    "/org/a11y/atspi/registry",
    bus_name="org.a11y.atspi.Registry",
    interface="org.a11y.atspi.Registry",
)


@dataclass(frozen=True)
class Heard:
    """One announcement as a screen reader receives it."""

    text: str
    politeness: int
    sender: str


class Listener:
    """Registers for announcements on the session's accessibility bus and collects them."""

    def __init__(self) -> None:
        if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
            pytest.fail("no D-Bus session: run the tests inside dbus-run-session (tests/run.sh)")
        if shutil.which("at-spi-bus-launcher", path="/usr/libexec:/usr/lib/at-spi2-core") is None:
            pytest.fail("at-spi2-core is required (packaging/dev_install.sh --test installs it)")
        session = open_dbus_connection(bus="SESSION")
        try:
            address = session.send_and_get_reply(new_method_call(_BUS, "GetAddress")).body[0]
        finally:
            session.close()
        self._conn: DBusConnection = open_dbus_connection(bus=address)
        rule = MatchRule(
            type="signal", interface="org.a11y.atspi.Event.Object", member="Announcement"
        )
        self._conn.send_and_get_reply(message_bus.AddMatch(rule))
        event = new_method_call(_REGISTRY, "RegisterEvent", "s", ("object:announcement",))
        self._conn.send_and_get_reply(event)
        self.heard: list[Heard] = []
        self._closed = False
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        while not self._closed:
            try:
                message = self._conn.receive(timeout=0.5)
            except TimeoutError:
                continue
            except OSError:  # closed under us
                return
            if message.header.message_type != MessageType.signal or len(message.body) < 4:
                continue
            _kind, politeness, _detail2, (_signature, value), *_ = message.body
            sender = str(message.header.fields.get(HeaderFields.sender, ""))
            self.heard.append(Heard(str(value), int(politeness), sender))

    def said(self, words: str, politeness: int) -> bool:
        """Whether an announcement containing ``words`` was heard with ``politeness``."""
        return any(words in h.text and h.politeness == politeness for h in self.heard)

    def close(self) -> None:
        self._closed = True
        self._thread.join(5)
        self._conn.close()
