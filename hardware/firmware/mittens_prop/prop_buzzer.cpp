// Buzzer cues: see prop_buzzer.h.
#include "prop_buzzer.h"

#include <Arduino.h>
#include <avr/pgmspace.h>

#include "prop_config.h"

struct Note {
  uint16_t hz;  // 0: a rest
  uint16_t ms;
};

// Each cue ends with a note of 0 ms.
static const Note TICK_NOTES[] PROGMEM = {{2000, 15}, {0, 0}};
static const Note STRIKE_NOTES[] PROGMEM = {{220, 150}, {0, 80}, {220, 350}, {0, 0}};
static const Note SOLVE_NOTES[] PROGMEM = {{1047, 120}, {1319, 120}, {1568, 300}, {0, 0}};
static const Note EXPLOSION_NOTES[] PROGMEM = {
    {440, 120}, {370, 120}, {311, 120}, {262, 120}, {220, 150}, {185, 150},
    {156, 180}, {131, 180}, {110, 220}, {92, 260},  {78, 300},  {0, 0},
};
static const Note *const CUES[] = {TICK_NOTES, STRIKE_NOTES, SOLVE_NOTES, EXPLOSION_NOTES};

static const Note *playing;  // the note sounding now, or NULL
static Cue playing_cue;
static uint32_t note_start_ms;
static uint16_t note_ms;

static void start_note(uint32_t now_ms) {
  uint16_t hz = pgm_read_word(&playing->hz);
  note_ms = pgm_read_word(&playing->ms);
  note_start_ms = now_ms;
  if (note_ms == 0) {
    buzzer_stop();
  } else if (hz == 0) {
    noTone(PROP_PIN_BUZZER);
  } else {
    tone(PROP_PIN_BUZZER, hz);
  }
}

void buzzer_begin() {
  pinMode(PROP_PIN_BUZZER, OUTPUT);
  digitalWrite(PROP_PIN_BUZZER, LOW);
  playing = NULL;
}

void buzzer_play(Cue cue) {
  if (playing != NULL && (cue == CUE_TICK || playing_cue == CUE_EXPLOSION)) return;
  playing = CUES[cue];
  playing_cue = cue;
  start_note(millis());
}

void buzzer_stop() {
  noTone(PROP_PIN_BUZZER);
  digitalWrite(PROP_PIN_BUZZER, LOW);
  playing = NULL;
}

void buzzer_tick(uint32_t now_ms) {
  // Signed: the note may have started after `now_ms` was read.
  if (playing == NULL || (int32_t)(now_ms - note_start_ms) < (int32_t)note_ms) return;
  playing++;
  start_note(now_ms);
}
