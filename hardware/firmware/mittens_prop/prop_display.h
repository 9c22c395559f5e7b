// What the prop shows: the display state the host sets, drawn on the two displays and
// the LEDs (docs/protocol.md, section 7; the layout is in docs/hardware.md).
//
// The firmware never changes this state on its own. Only the link indicators (waiting
// for host, host lost) and the timed red flash after a strike come from the firmware.
#ifndef PROP_DISPLAY_H
#define PROP_DISPLAY_H

#include <stdint.h>

// A card: colour index * 4 + shape index, or CARD_NONE.
// Colours R B G Y are 0-3, shapes C H T S (circle, heart, triangle, square) are 0-3.
#define CARD_NONE 0xFF
#define BATTERY_HOLDERS_UNKNOWN 0xFF

struct DisplayState {
  char serial[7];         // six characters, or "------" for none; NUL-ended
  uint8_t batteries;      // 0-99
  uint8_t holders;        // 0-99, or BATTERY_HOLDERS_UNKNOWN
  bool batteries_known;   // false until the first BATT
  uint8_t top;            // the discard top, or CARD_NONE
  uint8_t hand[3];        // hand slots 1-3, CARD_NONE when empty
  uint8_t strikes;        // 0-99
  bool solved;
};

// Initialises the displays and LEDs and shows the "waiting for host" screen.
void display_begin();

// The state last set by the host.
const DisplayState &display_state();

// Display commands. Each redraws before it returns, so the reply that follows is sent
// after the display changed. A rise in the strike count flashes the red light.
void display_set_serial(const char serial[6]);
void display_set_batteries(uint8_t count, uint8_t holders);
void display_set_top(uint8_t card);
void display_set_hand(const uint8_t cards[3]);
void display_set_strikes(uint8_t count);
void display_set_solved(bool solved);

// Link indicators: `session` is whether a host session exists; `host_lost` whether no
// good line came for PROP_HOST_LOST_MS.
void display_set_link(bool session, bool host_lost);

// Runs timed effects (the end of the strike flash); call it from every loop.
void display_tick(uint32_t now_ms);

#endif
