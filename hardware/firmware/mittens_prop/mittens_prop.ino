// Exploding Mittens prop firmware for an Arduino Uno or Nano (ATmega328P).
//
// The prop shows what the host tells it (discard top, hand, strikes, solve; the bomb's
// edge: serial number, batteries and holders, indicators, port plates; the bomb timer,
// the strike limit and the end of the game), plays the sound cues it is sent, and
// reports debounced button presses; the host runs the game. It speaks protocol
// versions 1 and 2. Protocol: docs/protocol.md. Wiring and parts: docs/hardware.md.
//
// Builds in the Arduino IDE or with arduino-cli (board "Arduino Uno" or "Arduino Nano"),
// and with the Makefile next to this folder. Needs no libraries beyond the Arduino core.
#include <avr/sleep.h>

#include "prop_buttons.h"
#include "prop_buzzer.h"
#include "prop_digits.h"
#include "prop_display.h"
#include "prop_link.h"
#include "prop_timer.h"

void setup() {
  link_begin();
  display_begin();
  digits_begin();
  timer_begin();
  buzzer_begin();
  buttons_begin();
  link_send_boot();
}

void loop() {
  uint32_t now_ms = millis();
  link_poll(now_ms);
  link_send_new_events(buttons_poll(now_ms, link_session()));
  display_tick(now_ms);
  timer_tick(now_ms);
  buzzer_tick(now_ms);
  // Idle until the next interrupt: the 1 ms timer tick or a received byte. Timers and
  // the UART keep running, so nothing is missed; the prop draws less current, and a
  // byte that came in just before this waits at most one tick.
  set_sleep_mode(SLEEP_MODE_IDLE);
  sleep_mode();
}
