// The prop's side of the protocol (docs/protocol.md): reads the host's lines from the
// serial port, answers each command, keeps the session, sends button events and BOOT,
// and tells the display whether the host is there.
#ifndef PROP_LINK_H
#define PROP_LINK_H

#include <stdint.h>

// Opens the serial port. Call first in setup(), so bytes that arrive while the rest
// starts up wait in the receive buffer.
void link_begin();

// Announces the start: BOOT <version>.
void link_send_boot();

// The current session; 0 before the first HELLO.
uint16_t link_session();

// Reads and handles whatever the host sent; updates the link indicators.
void link_poll(uint32_t now_ms);

// Sends the newest `count` events as BTN lines, oldest first.
void link_send_new_events(uint8_t count);

#endif
