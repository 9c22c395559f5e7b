// Line framing of the prop protocol (docs/protocol.md, section 2): a bounded receiver that
// cuts the byte stream into checked line bodies and counts bad lines, and a sender that
// seals a body with its CRC-16/XMODEM and LF.
#ifndef PROP_LINE_H
#define PROP_LINE_H

#include <stdint.h>

#include "prop_config.h"

// What one received byte completed.
enum LineResult : uint8_t {
  LINE_NONE,  // no line ended (or an empty line, which is ignored)
  LINE_GOOD,  // a good line ended; its body is in LineReader::body
  LINE_BAD,   // a bad line ended and was counted
};

struct LineReader {
  char body[PROP_MAX_LINE + 1];  // the current line; after LINE_GOOD, its NUL-ended body
  uint8_t length;                // bytes of the current line held in body
  bool overlong;                 // the current line passed PROP_MAX_LINE bytes
  bool unprintable;              // the current line holds a byte outside 0x20-0x7E
  uint16_t bad_lines;            // bad lines since start, stopping at 65535
};

// Empties the reader and its bad-line count.
void line_reader_init(LineReader &reader);

// Takes one received byte.
LineResult line_reader_feed(LineReader &reader, uint8_t byte);

// CRC-16/XMODEM of `length` bytes (polynomial 0x1021, start 0), with avr-libc.
uint16_t line_crc(const char *data, uint8_t length);

// Sends `body` (printable ASCII without '*', at most PROP_MAX_BODY bytes) as one whole
// line: body, '*', four upper-case hex digits, LF.
void line_send(const char *body);

#endif
