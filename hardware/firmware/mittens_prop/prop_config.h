// Pin map, sizes and timing of the reference prop (docs/hardware.md has the wiring table).
// The simavr test harness (tests/simavr/prop_harness.c) wires the same pins; change both
// together.
#ifndef PROP_CONFIG_H
#define PROP_CONFIG_H

#include <stdint.h>

// --- Pins (Arduino numbering; Uno and Nano are the same) ---------------------------------

// Buttons to GND, read with the internal pull-ups: LOW means pressed.
// Order is the button index used throughout the firmware: deck, pile, hand 1-3.
#define PROP_PIN_BUTTON_DECK A0
#define PROP_PIN_BUTTON_PILE A1
#define PROP_PIN_BUTTON_HAND1 A2
#define PROP_PIN_BUTTON_HAND2 A3
#define PROP_PIN_BUTTON_HAND3 A4

// Two HD44780 16x2 displays on one 4-bit bus: they share RS and D4-D7 and each has its
// own E (enable) line. R/W of both is tied to GND: the firmware only writes.
#define PROP_PIN_LCD_RS 8
#define PROP_PIN_LCD_E_MAIN 9  // the game display: discard top, hand, strikes, solve
#define PROP_PIN_LCD_E_TAG 10  // the 20x4 edge display: serial, batteries, indicators, ports
#define PROP_PIN_LCD_D4 4
#define PROP_PIN_LCD_D5 5
#define PROP_PIN_LCD_D6 6
#define PROP_PIN_LCD_D7 7

// The module's status light (a red and a green LED, or a common-cathode RGB LED).
#define PROP_PIN_LED_STRIKE 11  // red: flashes when the strike count rises
#define PROP_PIN_LED_SOLVED 12  // green: on while the module is solved
// The on-board LED: on while a host session is alive.
#define PROP_PIN_LED_LINK 13

// The bomb timer: a TM1637 4-digit 7-segment module (CLK and DIO, open-drain).
#define PROP_PIN_DIGITS_CLK 2
#define PROP_PIN_DIGITS_DIO A5

// A passive piezo buzzer, driven by tone() (timer 2); D3 is also a PWM pin.
#define PROP_PIN_BUZZER 3

// --- Protocol (docs/protocol.md, version 1) ---------------------------------------------

#define PROP_BAUD 115200UL
#define PROP_PROTOCOL_VERSION 2      // the highest version the firmware speaks
#define PROP_PROTOCOL_MIN_VERSION 1  // the lowest
#define PROP_FIRMWARE_NAME "mittens-fw-2"

// Longest line before its LF, and longest body (the line minus "*" and 4 hex digits).
#define PROP_MAX_LINE 63
#define PROP_MAX_BODY (PROP_MAX_LINE - 5)

// Events kept for RESEND; the protocol asks for at least 8. Sixteen BTN lines of at
// most 21 bytes take 30 ms at 115200 baud, inside the 50 ms reply deadline.
#define PROP_EVENT_STORE 16

// --- Timing (milliseconds) --------------------------------------------------------------

// A press counts after the button reads pressed this long, having read released this
// long before.
#define PROP_DEBOUNCE_MS 20
// No good line for this long: show that the host is lost.
#define PROP_HOST_LOST_MS 3000
// How long the red status light stays on after the strike count rises.
#define PROP_STRIKE_FLASH_MS 1000

#define PROP_BUTTON_COUNT 5

// Edge widgets the prop stores: as many as the edge display can show (indicators 1-4,
// port plates 1-7); it counts the rest ("+2"). A plate holds up to 8 ports.
#define PROP_MAX_INDICATORS 4
#define PROP_MAX_PLATES 7
#define PROP_MAX_PLATE_PORTS 8

// The bomb timer ticks once a second while it runs and the game is being played; set to
// false for a silent timer.
#define PROP_TICK true

// The longest time the bomb timer takes (99:59.999).
#define PROP_MAX_TIMER_MS 5999999UL

#endif
