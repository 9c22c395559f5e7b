// The prop's side of the protocol: see prop_link.h.
//
// A command is checked in the documented order, answering the first failure: the tag
// (ERR - ARGS), the first token (UNKNOWN: not a command of the version in use), the
// token count and each value (ARGS), the session (NOSESSION), and for HELLO the version
// (VERSION). Display commands change the display before the reply goes out.
#include "prop_link.h"

#include <Arduino.h>
#include <avr/pgmspace.h>
#include <string.h>

#include "prop_buttons.h"
#include "prop_buzzer.h"
#include "prop_config.h"
#include "prop_display.h"
#include "prop_line.h"
#include "prop_timer.h"

// The longest commands, HAND and IND, have 5 tokens; one more slot tells "too many" apart.
#define MAX_TOKENS 6

static LineReader reader;
static uint16_t session;  // 0: no HELLO has succeeded since start
static uint8_t version;   // the version of the session; 0 without one
static bool heard_host;   // a good line has come since start
static uint32_t last_good_ms;
static bool sound_played;     // a SOUND has been played in this session
static uint16_t sound_seq;    // ... and this was its number

// The version in use: the session's, or before any session the newest the prop speaks.
static uint8_t version_in_use() { return version != 0 ? version : PROP_PROTOCOL_VERSION; }

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

// BTN in the form of the version in use: version 2 adds the session of the press.
static void send_button_event(uint16_t seq, uint8_t button, uint16_t pressed_in) {
  Reply reply;
  reply_start(reply, "BTN");
  reply_number(reply, seq);
  reply_word(reply, button_name(button));
  if (version_in_use() >= 2) reply_number(reply, pressed_in);
  line_send(reply.text);
}

// --- reading values ----------------------------------------------------------------------

// A decimal without sign or leading zeros, within low..high (high at most 9999999).
static bool parse_long(const char *token, uint32_t low, uint32_t high, uint32_t &value) {
  uint8_t length = (uint8_t)strlen(token);
  if (length == 0 || length > 7 || (token[0] == '0' && length > 1)) return false;
  uint32_t n = 0;
  for (uint8_t i = 0; i < length; i++) {
    if (token[i] < '0' || token[i] > '9') return false;
    n = n * 10 + (uint32_t)(token[i] - '0');
  }
  if (n < low || n > high) return false;
  value = n;
  return true;
}

static bool parse_number(const char *token, uint16_t low, uint16_t high, uint16_t &value) {
  uint32_t n;
  if (!parse_long(token, low, high, n)) return false;
  value = (uint16_t)n;
  return true;
}

// A count 0-99, or "-" (unknown) when `dash` is allowed: then `value` is 0xFF.
static bool parse_count(const char *token, bool dash, uint8_t &value) {
  uint16_t n;
  if (dash && strcmp(token, "-") == 0) {
    value = 0xFF;
    return true;
  }
  if (!parse_number(token, 0, 99, n)) return false;
  value = (uint8_t)n;
  return true;
}

// The index of `token` in `words` (a list of `count` strings), or -1.
static int8_t parse_word(const char *token, const char *const *words, uint8_t count) {
  for (uint8_t i = 0; i < count; i++)
    if (strcmp(token, words[i]) == 0) return (int8_t)i;
  return -1;
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

// Exactly three letters A-Z.
static bool parse_label(const char *token) {
  if (strlen(token) != 3) return false;
  for (uint8_t i = 0; i < 3; i++)
    if (token[i] < 'A' || token[i] > 'Z') return false;
  return true;
}

// A port plate: "EMPTY", or 1-8 port codes joined by "," (a code may repeat). Fills
// `plate` with the ports in the order given.
static bool parse_ports(char *token, Plate &plate) {
  // In PortKind order.
  static const char *const CODES[PORT_KINDS] = {"DVI", "PAR", "PS2", "RJ45", "SER", "RCA"};
  plate.count = 0;
  if (strcmp(token, "EMPTY") == 0) return true;
  for (;;) {
    char *comma = strchr(token, ',');
    if (comma != NULL) *comma = '\0';
    int8_t code = parse_word(token, CODES, PORT_KINDS);
    if (comma != NULL) *comma = ',';  // the token may be checked again before it runs
    if (code < 0 || plate.count == PROP_MAX_PLATE_PORTS) return false;
    plate.ports[plate.count++] = (uint8_t)code;
    if (comma == NULL) return true;
    token = comma + 1;
  }
}

// --- commands ---------------------------------------------------------------------------

// One command's handler: checks the values (false: ERR ARGS) and, when `run`, does it and
// replies. Checking and running are separate steps so that ARGS is answered before
// NOSESSION, as the protocol orders them.
typedef bool (*Handler)(char **tokens, bool run);

static bool do_hello(char **tokens, bool run) {
  uint16_t asked, new_session;
  if (!parse_number(tokens[2], 1, 65535, asked) ||
      !parse_number(tokens[3], 1, 65535, new_session))
    return false;
  if (!run) return true;
  Reply reply;
  if (asked < PROP_PROTOCOL_MIN_VERSION || asked > PROP_PROTOCOL_VERSION) {
    reply_start(reply, "ERR");
    reply_word(reply, tokens[1]);
    reply_word(reply, "VERSION");
    reply_number(reply, PROP_PROTOCOL_VERSION);
    line_send(reply.text);
    return true;
  }
  uint16_t prior = session;
  session = new_session;
  version = (uint8_t)asked;
  sound_played = false;
  reply_start(reply, "HI");
  reply_word(reply, tokens[1]);
  reply_number(reply, version);
  reply_number(reply, events_newest());
  reply_word(reply, PROP_FIRMWARE_NAME);
  if (version >= 2) reply_number(reply, prior);
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
  uint8_t count, holders;
  if (!parse_count(tokens[2], false, count) || !parse_count(tokens[3], true, holders))
    return false;
  if (!run) return true;
  display_set_batteries(count, holders);  // 0xFF is BATTERY_HOLDERS_UNKNOWN
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

// A command whose one value is a count 0-99, shown by `show`.
static bool set_count(char **tokens, bool run, void (*show)(uint8_t count)) {
  uint8_t count;
  if (!parse_count(tokens[2], false, count)) return false;
  if (!run) return true;
  show(count);
  send_ok(tokens[1]);
  return true;
}

static bool do_strikes(char **tokens, bool run) {
  return set_count(tokens, run, display_set_strikes);
}

static bool do_solved(char **tokens, bool run) {
  uint16_t flag;
  if (!parse_number(tokens[2], 0, 1, flag)) return false;
  if (!run) return true;
  display_set_solved(flag == 1);
  send_ok(tokens[1]);
  return true;
}

static bool do_holders(char **tokens, bool run) {
  uint8_t aa, d;
  if (!parse_count(tokens[2], true, aa) || !parse_count(tokens[3], true, d)) return false;
  if ((aa == 0xFF) != (d == 0xFF)) return false;  // both known or both "-"
  if (!run) return true;
  display_set_holders(aa, d);
  send_ok(tokens[1]);
  return true;
}

static bool do_indicator_count(char **tokens, bool run) {
  return set_count(tokens, run, display_set_indicator_count);
}

static bool do_indicator(char **tokens, bool run) {
  uint16_t index, lit;
  if (!parse_number(tokens[2], 1, 99, index) || !parse_label(tokens[3]) ||
      !parse_number(tokens[4], 0, 1, lit))
    return false;
  if (!run) return true;
  display_set_indicator((uint8_t)index, tokens[3], lit == 1);
  send_ok(tokens[1]);
  return true;
}

static bool do_plate_count(char **tokens, bool run) {
  return set_count(tokens, run, display_set_plate_count);
}

static bool do_plate(char **tokens, bool run) {
  uint16_t index;
  Plate plate;
  if (!parse_number(tokens[2], 1, 99, index) || !parse_ports(tokens[3], plate)) return false;
  if (!run) return true;
  display_set_plate((uint8_t)index, plate);
  send_ok(tokens[1]);
  return true;
}

static bool do_limit(char **tokens, bool run) {
  return set_count(tokens, run, display_set_strike_limit);
}

static bool do_timer(char **tokens, bool run) {
  uint32_t ms = 0;
  uint16_t rate;
  bool none = strcmp(tokens[2], "-") == 0;
  if (!none && !parse_long(tokens[2], 0, PROP_MAX_TIMER_MS, ms)) return false;
  if (!parse_number(tokens[3], 0, 9999, rate) || (none && rate != 0)) return false;
  if (!run) return true;
  if (none) {
    timer_clear();
  } else {
    timer_set(ms, rate, millis());
  }
  send_ok(tokens[1]);
  return true;
}

static const char *const GAME_STATES[] = {"PLAYING", "SOLVED", "EXPLODED", "TIMEOUT"};

static bool do_game(char **tokens, bool run) {
  int8_t state = parse_word(tokens[2], GAME_STATES, 4);
  if (state < 0) return false;
  if (!run) return true;
  display_set_game((uint8_t)state);  // GameState has the same order
  timer_set_ticking(state == GAME_PLAYING);
  send_ok(tokens[1]);
  return true;
}

static bool do_sound(char **tokens, bool run) {
  static const char *const CUES[] = {"STRIKE", "SOLVE", "BOOM"};
  static const Cue SOUNDS[] = {CUE_STRIKE, CUE_SOLVE, CUE_EXPLOSION};
  uint16_t seq;
  if (!parse_number(tokens[2], 0, 65535, seq)) return false;
  int8_t cue = parse_word(tokens[3], CUES, 3);
  if (cue < 0) return false;
  if (!run) return true;
  // A repeated attempt of the same SOUND has the same number: play it once.
  if (!sound_played || seq != sound_seq) buzzer_play(SOUNDS[cue]);
  sound_played = true;
  sound_seq = seq;
  send_ok(tokens[1]);
  return true;
}

// The command table lives in flash (PROGMEM), which leaves its 236 bytes of RAM to the
// stack; read an entry with memcpy_P.
struct CommandSpec {
  char word[8];
  uint8_t tokens;  // including the command word and the tag
  bool needs_session;
  uint8_t since;   // the first protocol version that has it
  Handler handler;
};

static const CommandSpec COMMANDS[] PROGMEM = {
    {"HELLO", 4, false, 1, do_hello},
    {"PING", 2, false, 1, do_ping},
    {"RESEND", 3, true, 1, do_resend},
    {"ACK", 3, true, 1, do_ack},
    {"SERIAL", 3, true, 1, do_serial},
    {"BATT", 4, true, 1, do_batteries},
    {"TOP", 3, true, 1, do_top},
    {"HAND", 5, true, 1, do_hand},
    {"STRIKES", 3, true, 1, do_strikes},
    {"SOLVED", 3, true, 1, do_solved},
    {"HOLDERS", 4, true, 2, do_holders},
    {"INDS", 3, true, 2, do_indicator_count},
    {"IND", 5, true, 2, do_indicator},
    {"PLATES", 3, true, 2, do_plate_count},
    {"PLATE", 4, true, 2, do_plate},
    {"LIMIT", 3, true, 2, do_limit},
    {"TIMER", 4, true, 2, do_timer},
    {"GAME", 3, true, 2, do_game},
    {"SOUND", 4, true, 2, do_sound},
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
  CommandSpec spec;
  bool known = false;
  for (uint8_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0] && !known; i++) {
    memcpy_P(&spec, &COMMANDS[i], sizeof spec);
    known = strcmp(tokens[0], spec.word) == 0;
  }
  if (!known || spec.since > version_in_use()) {
    send_error(tokens[1], "UNKNOWN");
  } else if (count != spec.tokens || !spec.handler(tokens, false)) {
    send_error(tokens[1], "ARGS");
  } else if (spec.needs_session && session == 0) {
    send_error(tokens[1], "NOSESSION");
  } else {
    spec.handler(tokens, true);
  }
}

// --- the link ---------------------------------------------------------------------------

void link_begin() {
  line_reader_init(reader);
  session = 0;
  version = 0;
  heard_host = false;
  last_good_ms = 0;
  sound_played = false;
  Serial.begin(PROP_BAUD);
}

void link_send_boot() {
  // A lone LF first ends whatever noise the reset left on the line.
  Serial.write('\n');
  Reply reply;
  reply_start(reply, "BOOT");
  reply_number(reply, PROP_PROTOCOL_VERSION);
  line_send(reply.text);
}

uint16_t link_session() { return session; }

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
