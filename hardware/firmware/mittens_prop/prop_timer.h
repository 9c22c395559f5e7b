// The bomb timer on the 4-digit display (docs/protocol.md, section 6.1; the layout is
// in docs/hardware.md). The host owns the time: it sends the time left and how fast the
// timer runs (TIMER), and the prop counts down from there on its own clock until the
// next TIMER, stopping at 0, so the display moves smoothly between the host's messages.
//
//   one minute or more   MM:SS   (minutes and seconds)
//   under one minute     SS:CC   (seconds and hundredths; the colon is the only
//                                 separator the display has)
//   no timer             blank
//
// While the timer runs and ticking is on (the game is being played), each whole second
// the display passes plays the tick cue.
#ifndef PROP_TIMER_H
#define PROP_TIMER_H

#include <stdint.h>

// Blanks the timer display; no timer is shown until timer_set.
void timer_begin();

// Shows `left_ms` milliseconds left (at most 5999999), from now on counting down at
// `rate` thousandths of real time (1000: real time, 1250: a quarter faster, 0: stopped).
void timer_set(uint32_t left_ms, uint16_t rate, uint32_t now_ms);

// Whether each second passed plays the tick cue (PROP_TICK turns ticks off for good).
void timer_set_ticking(bool ticking);

// Forgets the timer and blanks the display ("TIMER - 0": the game has no timer).
void timer_clear();

// Counts down and redraws the display; call it from every loop.
void timer_tick(uint32_t now_ms);

#endif
