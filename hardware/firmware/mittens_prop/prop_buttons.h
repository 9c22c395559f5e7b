// Debounced buttons and the numbered press events (docs/protocol.md, sections 3.3, 6).
//
// A press counts once the button has read pressed for PROP_DEBOUNCE_MS in a row after
// reading released for PROP_DEBOUNCE_MS in a row; releases and held buttons make no
// events. Presses are numbered 1, 2, 3, ... from start (16-bit, 65535 is followed by 0)
// and the newest PROP_EVENT_STORE of them are kept for RESEND, each with the session the
// prop had when it was pressed.
#ifndef PROP_BUTTONS_H
#define PROP_BUTTONS_H

#include <stdint.h>

#include "prop_config.h"

// Button indexes, in protocol order.
enum ButtonIndex : uint8_t {
  BUTTON_DECK = 0,
  BUTTON_PILE = 1,
  BUTTON_HAND1 = 2,
  BUTTON_HAND2 = 3,
  BUTTON_HAND3 = 4,
};

// The protocol name of a button: DECK, PILE, HAND1, HAND2, HAND3.
const char *button_name(uint8_t button);

// Sets up the button pins (inputs with pull-ups) and the debouncers; takes one debounce
// time to watch the buttons.
void buttons_begin();

// Samples the buttons and stores each press that just completed its debounce as the
// newest event, pressed in `session` (0: none). Returns how many it stored (0-5): they
// are the newest events.
uint8_t buttons_poll(uint32_t now_ms, uint16_t session);

// The newest event number; 0 before the first press.
uint16_t events_newest();

// Calls `emit(seq, button, session)` for each stored event numbered from `from` to the
// newest, counting with 16-bit wrap-around, oldest first; nothing when `from` is newer
// than the newest (more than 32767 ahead of it).
void events_replay(uint16_t from, void (*emit)(uint16_t seq, uint8_t button, uint16_t session));

#endif
