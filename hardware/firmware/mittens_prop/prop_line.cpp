// Line framing: see prop_line.h.
#include "prop_line.h"

#include <Arduino.h>
#include <string.h>
#include <util/crc16.h>

void line_reader_init(LineReader &reader) {
  reader.length = 0;
  reader.overlong = false;
  reader.unprintable = false;
  reader.bad_lines = 0;
  reader.body[0] = '\0';
}

static void count_bad(LineReader &reader) {
  if (reader.bad_lines != 0xFFFF) reader.bad_lines++;
}

static int8_t hex_digit(char c) {
  // Upper case only: the protocol writes checksums as 4HEXUPPER.
  if (c >= '0' && c <= '9') return (int8_t)(c - '0');
  if (c >= 'A' && c <= 'F') return (int8_t)(c - 'A' + 10);
  return -1;
}

// Checks the held line; on success cuts it down to its NUL-ended body.
static bool line_is_good(LineReader &reader) {
  char *line = reader.body;
  uint8_t length = reader.length;
  const char *star = (const char *)memchr(line, '*', length);
  if (star == NULL) return false;
  uint8_t body_length = (uint8_t)(star - line);
  if (body_length == 0 || length != body_length + 5) return false;
  // A second '*' would sit among the four checksum digits, which hex_digit refuses.
  uint16_t sent = 0;
  for (uint8_t i = body_length + 1; i < length; i++) {
    int8_t digit = hex_digit(line[i]);
    if (digit < 0) return false;
    sent = (uint16_t)((sent << 4) | (uint8_t)digit);
  }
  if (sent != line_crc(line, body_length)) return false;
  line[body_length] = '\0';
  return true;
}

LineResult line_reader_feed(LineReader &reader, uint8_t byte) {
  if (byte != '\n') {
    if (byte < 0x20 || byte > 0x7E) reader.unprintable = true;
    if (reader.length < PROP_MAX_LINE) {
      reader.body[reader.length++] = (char)byte;
    } else {
      // Drop the rest of an overlong line up to its LF; it counts once.
      reader.overlong = true;
    }
    return LINE_NONE;
  }
  LineResult result;
  if (reader.overlong || reader.unprintable) {
    result = LINE_BAD;
  } else if (reader.length == 0) {
    result = LINE_NONE;  // empty lines end partial lines and are not counted
  } else {
    result = line_is_good(reader) ? LINE_GOOD : LINE_BAD;
  }
  if (result == LINE_BAD) count_bad(reader);
  reader.length = 0;
  reader.overlong = false;
  reader.unprintable = false;
  return result;
}

uint16_t line_crc(const char *data, uint8_t length) {
  uint16_t crc = 0;
  for (uint8_t i = 0; i < length; i++) crc = _crc_xmodem_update(crc, (uint8_t)data[i]);
  return crc;
}

void line_send(const char *body) {
  static const char HEX_DIGITS[] = "0123456789ABCDEF";
  char line[PROP_MAX_LINE + 1];
  uint8_t length = (uint8_t)strnlen(body, PROP_MAX_BODY);
  memcpy(line, body, length);
  uint16_t crc = line_crc(line, length);
  line[length++] = '*';
  for (int8_t shift = 12; shift >= 0; shift -= 4) line[length++] = HEX_DIGITS[(crc >> shift) & 0xF];
  line[length++] = '\n';
  // One write call, so a line is never split by another one.
  Serial.write((const uint8_t *)line, length);
}
