// What the prop shows: the display state the host sets, drawn on the two displays and
// the LEDs (docs/protocol.md, section 7; the layout is in docs/hardware.md).
//
// The firmware never changes this state on its own. Only the link indicators (waiting
// for host, host lost) and the timed red flash after a strike come from the firmware.
#ifndef PROP_DISPLAY_H
#define PROP_DISPLAY_H

#include <stdint.h>

#include "prop_config.h"

// A card: colour index * 4 + shape index, or CARD_NONE.
// Colours R B G Y are 0-3, shapes C H T S (circle, heart, triangle, square) are 0-3.
#define CARD_NONE 0xFF
#define BATTERY_HOLDERS_UNKNOWN 0xFF

// Port kinds, as bit numbers in a port plate's set of ports.
enum PortKind : uint8_t {
  PORT_DVI = 0,
  PORT_PARALLEL = 1,
  PORT_PS2 = 2,
  PORT_RJ45 = 3,
  PORT_SERIAL = 4,
  PORT_STEREO_RCA = 5,
  PORT_KINDS = 6,
};

// How the bomb stands (GAME), in the protocol's order.
enum GameState : uint8_t {
  GAME_PLAYING = 0,
  GAME_SOLVED = 1,
  GAME_EXPLODED = 2,  // the strike limit was reached
  GAME_TIMEOUT = 3,   // the timer ran out
};

struct Indicator {
  char label[3];  // three letters A-Z; label[0] == 0 until the host sets it
  bool lit;
};

struct Plate {
  uint8_t count;                        // ports on the plate (0: empty); 0xFF: not set
  uint8_t ports[PROP_MAX_PLATE_PORTS];  // PortKind of each, in the order given
};

struct DisplayState {
  char serial[7];         // six characters, or "------" for none; NUL-ended
  uint8_t batteries;      // 0-99
  uint8_t holders;        // 0-99, or BATTERY_HOLDERS_UNKNOWN
  bool batteries_known;   // false until the first BATT
  uint8_t aa_holders;     // 0-99 (HOLDERS), or BATTERY_HOLDERS_UNKNOWN
  uint8_t d_holders;      // 0-99 (HOLDERS), or BATTERY_HOLDERS_UNKNOWN
  Indicator indicators[PROP_MAX_INDICATORS];  // indicators 1, 2, ... as far as stored
  uint8_t indicator_count;  // 0-99, or 0xFF until the first INDS
  Plate plates[PROP_MAX_PLATES];  // port plates 1, 2, ... as far as stored
  uint8_t plate_count;      // 0-99, or 0xFF until the first PLATES
  uint8_t top;            // the discard top, or CARD_NONE
  uint8_t hand[3];        // hand slots 1-3, CARD_NONE when empty
  uint8_t strikes;        // 0-99
  uint8_t strike_limit;   // 1-99, or 0 when there is none to show
  bool solved;
  uint8_t game;           // a GameState
};

// Initialises the displays and LEDs and shows the "waiting for host" screen.
void display_begin();

// The state last set by the host.
const DisplayState &display_state();

// Display commands. Each redraws before it returns, so the reply that follows is sent
// after the display changed. A rise in the strike count flashes the red light.
void display_set_serial(const char serial[6]);
void display_set_batteries(uint8_t count, uint8_t holders);
void display_set_holders(uint8_t aa, uint8_t d);
void display_set_indicator_count(uint8_t count);
void display_set_indicator(uint8_t index, const char label[3], bool lit);  // index from 1
void display_set_plate_count(uint8_t count);
void display_set_plate(uint8_t index, const Plate &plate);  // index from 1
void display_set_top(uint8_t card);
void display_set_hand(const uint8_t cards[3]);
void display_set_strikes(uint8_t count);
void display_set_solved(bool solved);
void display_set_strike_limit(uint8_t limit);
void display_set_game(uint8_t game);

// Link indicators: `session` is whether a host session exists; `host_lost` whether no
// good line came for PROP_HOST_LOST_MS.
void display_set_link(bool session, bool host_lost);

// Runs timed effects (the end of the strike flash); call it from every loop.
void display_tick(uint32_t now_ms);

#endif
