// TM1637 driver: see prop_digits.h. The chip reads DIO on CLK's rising edge, least
// significant bit first; a frame starts with DIO falling while CLK is high and ends with
// DIO rising while CLK is high (TM1637 datasheet, Titan Micro Electronics).
#include "prop_digits.h"

#include <Arduino.h>
#include <avr/pgmspace.h>
#include <string.h>

#include "prop_config.h"

static const uint8_t TM_WRITE_AUTO = 0x40;    // data command: write, address auto-increment
static const uint8_t TM_ADDRESS_0 = 0xC0;     // address command: start at digit 0
static const uint8_t TM_DISPLAY_ON_MAX = 0x8F;  // display control: on, brightness 7 of 7

static const uint8_t DIGIT_SEGMENTS[10] PROGMEM = {
    0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F,
};

static uint8_t shown[4];

uint8_t digits_segments(uint8_t digit) {
  return digit < 10 ? pgm_read_byte(&DIGIT_SEGMENTS[digit]) : DIGITS_BLANK;
}

// A bit time of 5 us keeps the bus far below the chip's limit (about 250 kHz).
static void line(uint8_t pin, bool high) {
  pinMode(pin, high ? INPUT : OUTPUT);  // released: pulled up by the module
  delayMicroseconds(5);
}

static void frame_start() {
  line(PROP_PIN_DIGITS_DIO, false);
}

static void frame_stop() {
  line(PROP_PIN_DIGITS_CLK, false);
  line(PROP_PIN_DIGITS_DIO, false);
  line(PROP_PIN_DIGITS_CLK, true);
  line(PROP_PIN_DIGITS_DIO, true);
}

static void frame_byte(uint8_t value) {
  for (uint8_t bit = 0; bit < 8; bit++) {
    line(PROP_PIN_DIGITS_CLK, false);
    line(PROP_PIN_DIGITS_DIO, (value >> bit) & 1);
    line(PROP_PIN_DIGITS_CLK, true);
  }
  // The ninth clock is the chip's acknowledge: release DIO and clock it out unread.
  line(PROP_PIN_DIGITS_CLK, false);
  line(PROP_PIN_DIGITS_DIO, true);
  line(PROP_PIN_DIGITS_CLK, true);
  line(PROP_PIN_DIGITS_CLK, false);
}

static void send_command(uint8_t command) {
  frame_start();
  frame_byte(command);
  frame_stop();
}

static void send_digits(const uint8_t segments[4]) {
  send_command(TM_WRITE_AUTO);
  frame_start();
  frame_byte(TM_ADDRESS_0);
  for (uint8_t i = 0; i < 4; i++) frame_byte(segments[i]);
  frame_stop();
  send_command(TM_DISPLAY_ON_MAX);
}

void digits_begin() {
  // Both pins read as inputs until driven; their output latch stays LOW, so making a
  // pin an output pulls its line low.
  digitalWrite(PROP_PIN_DIGITS_CLK, LOW);
  digitalWrite(PROP_PIN_DIGITS_DIO, LOW);
  line(PROP_PIN_DIGITS_CLK, true);
  line(PROP_PIN_DIGITS_DIO, true);
  memset(shown, DIGITS_BLANK, sizeof shown);
  send_digits(shown);
}

void digits_show(const uint8_t segments[4]) {
  if (memcmp(segments, shown, sizeof shown) == 0) return;
  memcpy(shown, segments, sizeof shown);
  send_digits(shown);
}
