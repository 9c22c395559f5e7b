// The prop's side of the protocol: see prop_link.h.
//
// A command is checked in the documented order, answering the first failure: the tag
// (ERR - ARGS), the first token (UNKNOWN), the token count and each value (ARGS), the
// session (NOSESSION), and for HELLO the version (VERSION). Display commands change the
// display before the reply goes out.
#include "prop_link.h"

#include <Arduino.h>
#include <string.h>

#include "prop_buttons.h"
#include "prop_config.h"
#include "prop_display.h"
#include "prop_line.h"

// The longest command, HAND, has 5 tokens; one more slot tells "too many" apart.
#define MAX_TOKENS 6

static LineReader reader;
static uint16_t session;  // 0: no HELLO has succeeded since start
static bool heard_host;   // a good line has come since start
static uint32_t last_good_ms;

// --- building a reply ------------------------------------------------------------------

struct Reply {
  char text[PROP_MAX_BODY + 1];
  uint8_t length;
};

static void reply_start(Reply &reply, const char *word) {
  reply.length = 0;
  reply.text[0] = '\0';
  for (; *word && reply.length < PROP_MAX_BODY; word++) reply.text[reply.length++] = *word;
  reply.text[reply.length] = '\0';
}

static void reply_word(Reply &reply, const char *word) {
  if (reply.length < PROP_MAX_BODY) reply.text[reply.length++] = ' ';
  for (; *word && reply.length < PROP_MAX_BODY; word++) reply.text[reply.length++] = *word;
  reply.text[reply.length] = '\0';
}

static void reply_number(Reply &reply, uint16_t value) {
  char digits[6];
  uint8_t n = sizeof digits - 1;
  digits[n] = '\0';
  do {
    digits[--n] = (char)('0' + value % 10);
    value /= 10;
  } while (value != 0);
  reply_word(reply, digits + n);
}

static void send_simple(const char *word, const char *tag, const char *code) {
  Reply reply;
  reply_start(reply, word);
  reply_word(reply, tag);
  if (code != NULL) reply_word(reply, code);
  line_send(reply.text);
}

static void send_ok(const char *tag) { send_simple("OK", tag, NULL); }
static void send_error(const char *tag, const char *code) { send_simple("ERR", tag, code); }

static void send_button_event(uint16_t seq, uint8_t button) {
  Reply reply;
  reply_start(reply, "BTN");
  reply_number(reply, seq);
  reply_word(reply, button_name(button));
  line_send(reply.text);
}

// --- reading values ----------------------------------------------------------------------

// A decimal without sign or leading zeros, within low..high.
static bool parse_number(const char *token, uint16_t low, uint16_t high, uint16_t &value) {
  uint8_t length = (uint8_t)strlen(token);
  if (length == 0 || length > 5 || (token[0] == '0' && length > 1)) return false;
  uint32_t n = 0;
  for (uint8_t i = 0; i < length; i++) {
    if (token[i] < '0' || token[i] > '9') return false;
    n = n * 10 + (uint32_t)(token[i] - '0');
  }
  if (n < low || n > high) return false;
  value = (uint16_t)n;
  return true;
}

// A card code (colour letter then shape letter), or "--" for none.
static bool parse_card(const char *token, uint8_t &card) {
  static const char COLOURS[] = "RBGY";
  static const char SHAPES[] = "CHTS";
  if (strcmp(token, "--") == 0) {
    card = CARD_NONE;
    return true;
  }
  if (strlen(token) != 2) return false;
  const char *colour = strchr(COLOURS, token[0]);
  const char *shape = strchr(SHAPES, token[1]);
  if (colour == NULL || shape == NULL) return false;
  card = (uint8_t)(((colour - COLOURS) << 2) | (shape - SHAPES));
  return true;
}

// Six characters A-Z 0-9, or "------" for none.
static bool parse_serial(const char *token) {
  if (strlen(token) != 6) return false;
  if (strcmp(token, "------") == 0) return true;
  for (uint8_t i = 0; i < 6; i++) {
    char c = token[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

// --- commands ---------------------------------------------------------------------------

// One command's handler: checks the values (false: ERR ARGS) and, when `run`, does it and
// replies. Checking and running are separate steps so that ARGS is answered before
// NOSESSION, as the protocol orders them.
typedef bool (*Handler)(char **tokens, bool run);

static bool do_hello(char **tokens, bool run) {
  uint16_t version, new_session;
  if (!parse_number(tokens[2], 1, 65535, version) ||
      !parse_number(tokens[3], 1, 65535, new_session))
    return false;
  if (!run) return true;
  if (version != PROP_PROTOCOL_VERSION) {
    Reply reply;
    reply_start(reply, "ERR");
    reply_word(reply, tokens[1]);
    reply_word(reply, "VERSION");
    reply_number(reply, PROP_PROTOCOL_VERSION);
    line_send(reply.text);
    return true;
  }
  session = new_session;
  Reply reply;
  reply_start(reply, "HI");
  reply_word(reply, tokens[1]);
  reply_number(reply, PROP_PROTOCOL_VERSION);
  reply_number(reply, events_newest());
  reply_word(reply, PROP_FIRMWARE_NAME);
  line_send(reply.text);
  return true;
}

static bool do_ping(char **tokens, bool run) {
  if (!run) return true;
  Reply reply;
  reply_start(reply, "PONG");
  reply_word(reply, tokens[1]);
  reply_number(reply, session);
  reply_number(reply, events_newest());
  reply_number(reply, reader.bad_lines);
  line_send(reply.text);
  return true;
}

static bool do_resend(char **tokens, bool run) {
  uint16_t from;
  if (!parse_number(tokens[2], 0, 65535, from)) return false;
  if (!run) return true;
  events_replay(from, send_button_event);
  send_ok(tokens[1]);
  return true;
}

static bool do_ack(char **tokens, bool run) {
  uint16_t seq;
  if (!parse_number(tokens[2], 0, 65535, seq)) return false;
  if (run) send_ok(tokens[1]);
  return true;
}

static bool do_serial(char **tokens, bool run) {
  if (!parse_serial(tokens[2])) return false;
  if (!run) return true;
  display_set_serial(tokens[2]);
  send_ok(tokens[1]);
  return true;
}

static bool do_batteries(char **tokens, bool run) {
  uint16_t count, holders;
  if (!parse_number(tokens[2], 0, 99, count)) return false;
  if (strcmp(tokens[3], "-") == 0) {
    holders = BATTERY_HOLDERS_UNKNOWN;
  } else if (!parse_number(tokens[3], 0, 99, holders)) {
    return false;
  }
  if (!run) return true;
  display_set_batteries((uint8_t)count, (uint8_t)holders);
  send_ok(tokens[1]);
  return true;
}

static bool do_top(char **tokens, bool run) {
  uint8_t card;
  if (!parse_card(tokens[2], card)) return false;
  if (!run) return true;
  display_set_top(card);
  send_ok(tokens[1]);
  return true;
}

static bool do_hand(char **tokens, bool run) {
  uint8_t cards[3];
  for (uint8_t i = 0; i < 3; i++)
    if (!parse_card(tokens[2 + i], cards[i])) return false;
  if (!run) return true;
  display_set_hand(cards);
  send_ok(tokens[1]);
  return true;
}

static bool do_strikes(char **tokens, bool run) {
  uint16_t count;
  if (!parse_number(tokens[2], 0, 99, count)) return false;
  if (!run) return true;
  display_set_strikes((uint8_t)count);
  send_ok(tokens[1]);
  return true;
}

static bool do_solved(char **tokens, bool run) {
  uint16_t flag;
  if (!parse_number(tokens[2], 0, 1, flag)) return false;
  if (!run) return true;
  display_set_solved(flag == 1);
  send_ok(tokens[1]);
  return true;
}

struct CommandSpec {
  const char *word;
  uint8_t tokens;  // including the command word and the tag
  bool needs_session;
  Handler handler;
};

static const CommandSpec COMMANDS[] = {
    {"HELLO", 4, false, do_hello},      {"PING", 2, false, do_ping},
    {"RESEND", 3, true, do_resend},     {"ACK", 3, true, do_ack},
    {"SERIAL", 3, true, do_serial},     {"BATT", 4, true, do_batteries},
    {"TOP", 3, true, do_top},           {"HAND", 5, true, do_hand},
    {"STRIKES", 3, true, do_strikes},   {"SOLVED", 3, true, do_solved},
};

static void handle_command(char *body) {
  // Split on single spaces in place. Two spaces in a row make an empty token, which no
  // value accepts, so a badly spaced command is refused rather than guessed at.
  char *tokens[MAX_TOKENS + 1];
  uint8_t count = 0;
  char *p = body;
  for (;;) {
    // A body of at most PROP_MAX_BODY bytes has fewer than 255 tokens.
    if (count <= MAX_TOKENS) tokens[count] = p;
    count++;
    char *space = strchr(p, ' ');
    if (space == NULL) break;
    *space = '\0';
    p = space + 1;
  }
  uint16_t tag;
  if (count < 2 || !parse_number(tokens[1], 0, 999, tag)) {
    send_error("-", "ARGS");
    return;
  }
  const CommandSpec *spec = NULL;
  for (uint8_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++) {
    if (strcmp(tokens[0], COMMANDS[i].word) == 0) {
      spec = &COMMANDS[i];
      break;
    }
  }
  if (spec == NULL) {
    send_error(tokens[1], "UNKNOWN");
  } else if (count != spec->tokens || !spec->handler(tokens, false)) {
    send_error(tokens[1], "ARGS");
  } else if (spec->needs_session && session == 0) {
    send_error(tokens[1], "NOSESSION");
  } else {
    spec->handler(tokens, true);
  }
}

// --- the link ---------------------------------------------------------------------------

void link_begin() {
  line_reader_init(reader);
  session = 0;
  heard_host = false;
  last_good_ms = 0;
  Serial.begin(PROP_BAUD);
}

void link_send_boot() {
  Reply reply;
  reply_start(reply, "BOOT");
  reply_number(reply, PROP_PROTOCOL_VERSION);
  line_send(reply.text);
}

void link_poll(uint32_t now_ms) {
  // Read all that is waiting in one go; a reply goes out before the next line is read.
  int available = Serial.available();
  while (available-- > 0) {
    int byte = Serial.read();
    if (byte < 0) break;
    if (line_reader_feed(reader, (uint8_t)byte) == LINE_GOOD) {
      heard_host = true;
      last_good_ms = now_ms;
      handle_command(reader.body);
    }
  }
  bool lost = heard_host && now_ms - last_good_ms >= PROP_HOST_LOST_MS;
  display_set_link(session != 0, lost);
}

void link_send_new_events(uint8_t count) {
  if (count == 0) return;
  events_replay((uint16_t)(events_newest() - count + 1), send_button_event);
}
