// Buttons and events: see prop_buttons.h.
#include "prop_buttons.h"

#include <Arduino.h>

static const uint8_t BUTTON_PINS[PROP_BUTTON_COUNT] = {
    PROP_PIN_BUTTON_DECK, PROP_PIN_BUTTON_PILE, PROP_PIN_BUTTON_HAND1,
    PROP_PIN_BUTTON_HAND2, PROP_PIN_BUTTON_HAND3,
};
static const char *const BUTTON_NAMES[PROP_BUTTON_COUNT] = {"DECK", "PILE", "HAND1", "HAND2",
                                                            "HAND3"};

struct Debouncer {
  bool pressed;         // the debounced state
  uint8_t changing_ms;  // how long the raw reading has differed from `pressed`
};

struct Event {
  uint16_t seq;
  uint16_t session;  // the session when the button was pressed (0: none)
  uint8_t button;
};

static Debouncer debouncers[PROP_BUTTON_COUNT];
static uint32_t last_sample_ms;
static Event events[PROP_EVENT_STORE];
static uint8_t event_count;  // events stored, up to PROP_EVENT_STORE
static uint8_t event_next;   // where the next event goes in the ring
static uint16_t newest_seq;

const char *button_name(uint8_t button) {
  return button < PROP_BUTTON_COUNT ? BUTTON_NAMES[button] : "?";
}

void buttons_begin() {
  for (uint8_t i = 0; i < PROP_BUTTON_COUNT; i++) pinMode(BUTTON_PINS[i], INPUT_PULLUP);
  // Watch the buttons for one debounce time before taking presses, so the first press
  // after start counts like any other: a button released throughout is ready, one that
  // was pressed at any moment (held at start) must be released first.
  bool released[PROP_BUTTON_COUNT];
  for (uint8_t i = 0; i < PROP_BUTTON_COUNT; i++) released[i] = true;
  uint32_t start = millis();
  while (millis() - start < PROP_DEBOUNCE_MS)
    for (uint8_t i = 0; i < PROP_BUTTON_COUNT; i++)
      if (digitalRead(BUTTON_PINS[i]) == LOW) released[i] = false;
  for (uint8_t i = 0; i < PROP_BUTTON_COUNT; i++) {
    debouncers[i].pressed = !released[i];
    debouncers[i].changing_ms = 0;
  }
  last_sample_ms = millis();
  event_count = 0;
  event_next = 0;
  newest_seq = 0;
}

static void store_event(uint8_t button, uint16_t session) {
  newest_seq = (uint16_t)(newest_seq + 1);
  events[event_next].seq = newest_seq;
  events[event_next].session = session;
  events[event_next].button = button;
  event_next = (uint8_t)((event_next + 1) % PROP_EVENT_STORE);
  if (event_count < PROP_EVENT_STORE) event_count++;
}

uint8_t buttons_poll(uint32_t now_ms, uint16_t session) {
  uint32_t elapsed = now_ms - last_sample_ms;
  if (elapsed == 0) return 0;
  last_sample_ms = now_ms;
  // A long gap between samples counts as that long a steady reading: only the timing of
  // changes matters, and there was no chance to see one.
  uint8_t step = elapsed > PROP_DEBOUNCE_MS ? PROP_DEBOUNCE_MS : (uint8_t)elapsed;
  uint8_t presses = 0;
  for (uint8_t i = 0; i < PROP_BUTTON_COUNT; i++) {
    Debouncer &d = debouncers[i];
    bool reading = digitalRead(BUTTON_PINS[i]) == LOW;
    if (reading == d.pressed) {
      d.changing_ms = 0;
      continue;
    }
    d.changing_ms = (uint8_t)(d.changing_ms + step);
    if (d.changing_ms < PROP_DEBOUNCE_MS) continue;
    d.pressed = reading;
    d.changing_ms = 0;
    if (reading) {
      store_event(i, session);
      presses++;
    }
  }
  return presses;
}

uint16_t events_newest() { return newest_seq; }

void events_replay(uint16_t from, void (*emit)(uint16_t seq, uint8_t button, uint16_t session)) {
  uint16_t span = (uint16_t)(newest_seq - from);
  // A `from` newer than the newest event (docs/protocol.md, section 5.4) asks for nothing.
  if (span >= 32768) return;
  uint8_t index = (uint8_t)((event_next + PROP_EVENT_STORE - event_count) % PROP_EVENT_STORE);
  for (uint8_t n = 0; n < event_count; n++) {
    const Event &e = events[index];
    if ((uint16_t)(e.seq - from) <= span) emit(e.seq, e.button, e.session);
    index = (uint8_t)((index + 1) % PROP_EVENT_STORE);
  }
}
