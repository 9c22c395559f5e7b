// The bomb timer: see prop_timer.h.
#include "prop_timer.h"

#include "prop_buzzer.h"
#include "prop_config.h"
#include "prop_digits.h"

static bool known;            // a timer was set
static bool ticking;
static uint16_t rate;         // thousandths of real time; 0: stopped
static uint32_t base_left_ms; // the time left at base_ms
static uint32_t base_ms;      // millis() when base_left_ms was right
static uint32_t last_second;  // the whole second shown last, for the tick

void timer_clear() {
  static const uint8_t BLANK[4] = {DIGITS_BLANK, DIGITS_BLANK, DIGITS_BLANK, DIGITS_BLANK};
  known = false;
  digits_show(BLANK);
}

void timer_begin() {
  ticking = PROP_TICK;
  timer_clear();
}

// Real milliseconds since the base; 0 when `now_ms` was read before the base was set
// (a loop reads the clock before it handles the TIMER that sets the base).
static uint32_t since_base(uint32_t now_ms) {
  int32_t elapsed = (int32_t)(now_ms - base_ms);
  return elapsed > 0 ? (uint32_t)elapsed : 0;
}

// Moves the base forward by whole real seconds, so the count never drifts: a real second
// at `rate` thousandths is exactly `rate` game milliseconds.
static void fold(uint32_t now_ms) {
  while (since_base(now_ms) >= 1000) {
    base_ms += 1000;
    base_left_ms = base_left_ms > rate ? base_left_ms - rate : 0;
  }
}

// The time left now, in milliseconds (0 without a timer).
static uint32_t timer_left_ms(uint32_t now_ms) {
  if (!known) return 0;
  fold(now_ms);
  // Under a real second: at most 999 * 9999, no overflow.
  uint32_t spent = since_base(now_ms) * rate / 1000;
  return base_left_ms > spent ? base_left_ms - spent : 0;
}

void timer_set(uint32_t left_ms, uint16_t new_rate, uint32_t now_ms) {
  known = true;
  rate = new_rate;
  base_left_ms = left_ms;
  base_ms = now_ms;
  last_second = left_ms / 1000;
  timer_tick(now_ms);
}

void timer_set_ticking(bool on) { ticking = PROP_TICK && on; }


void timer_tick(uint32_t now_ms) {
  if (!known) return;
  uint32_t left = timer_left_ms(now_ms);
  uint32_t second = left / 1000;
  if (rate != 0 && ticking && second != last_second) buzzer_play(CUE_TICK);
  last_second = second;
  uint8_t pairs[2];
  if (left >= 60000UL) {
    uint32_t minutes = left / 60000UL;
    pairs[0] = minutes > 99 ? 99 : (uint8_t)minutes;
    pairs[1] = minutes > 99 ? 59 : (uint8_t)(second % 60);
  } else {
    pairs[0] = (uint8_t)second;
    pairs[1] = (uint8_t)(left % 1000 / 10);
  }
  uint8_t segments[4] = {
      digits_segments(pairs[0] / 10), digits_segments(pairs[0] % 10),
      digits_segments(pairs[1] / 10), digits_segments(pairs[1] % 10),
  };
  segments[1] |= DIGITS_COLON;
  digits_show(segments);
}
