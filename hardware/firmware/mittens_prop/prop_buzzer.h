// Sound cues on a passive piezo buzzer, played with the Arduino core's tone() (timer 2)
// while the main loop runs on: a cue is a short list of notes, and buzzer_tick() moves
// from one note to the next.
//
// A cue that starts replaces the one playing, except that a tick never cuts another cue
// short and nothing cuts the explosion short.
#ifndef PROP_BUZZER_H
#define PROP_BUZZER_H

#include <stdint.h>

enum Cue : uint8_t {
  CUE_TICK = 0,       // one short click: the bomb timer's second
  CUE_STRIKE = 1,     // two low buzzes
  CUE_SOLVE = 2,      // three rising notes
  CUE_EXPLOSION = 3,  // a long falling rumble
};

// Sets up the buzzer pin, silent.
void buzzer_begin();

// Starts `cue` (see the rules above).
void buzzer_play(Cue cue);

// Silences the buzzer and forgets the cue playing.
void buzzer_stop();

// Moves on to the next note when it is time; call it from every loop.
void buzzer_tick(uint32_t now_ms);

#endif
