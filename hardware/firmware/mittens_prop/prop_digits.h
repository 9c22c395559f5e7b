// A write-only driver for a 4-digit 7-segment display module with a TM1637 chip and a
// colon between digits 2 and 3 (the common "clock" module), on two pins: CLK and DIO.
//
// The chip's two-wire bus is open-drain with pull-ups on the module: the driver pulls a
// line low by making its pin an output at LOW, and lets it go high by making the pin an
// input. It never reads the chip's acknowledge bit. The driver keeps a copy of what the
// display shows and sends only changes.
#ifndef PROP_DIGITS_H
#define PROP_DIGITS_H

#include <stdint.h>

// Segment bits of one digit: a (top) is bit 0 through g (middle) bit 6; bit 7 of digit
// 2 (index 1) is the colon.
#define DIGITS_COLON 0x80
#define DIGITS_BLANK 0x00

// The segments of a decimal digit 0-9.
uint8_t digits_segments(uint8_t digit);

// Sets up the pins and blanks the display at full brightness.
void digits_begin();

// Shows four digits' segments, left to right (a colon is bit 7 of index 1).
void digits_show(const uint8_t segments[4]);

#endif
