// Exploding Mittens prop firmware for an Arduino Uno or Nano (ATmega328P).
//
// The prop shows what the host tells it (discard top, hand, strikes, solve, serial
// number, batteries) and reports debounced button presses; the host runs the game.
// Protocol: docs/protocol.md. Wiring and parts: docs/hardware.md.
//
// Builds in the Arduino IDE or with arduino-cli (board "Arduino Uno" or "Arduino Nano"),
// and with the Makefile next to this folder. Needs no libraries beyond the Arduino core.
#include "prop_buttons.h"
#include "prop_display.h"
#include "prop_link.h"

void setup() {
  link_begin();
  display_begin();
  buttons_begin();
  link_send_boot();
}

void loop() {
  uint32_t now_ms = millis();
  link_poll(now_ms);
  link_send_new_events(buttons_poll(now_ms));
  display_tick(now_ms);
}
