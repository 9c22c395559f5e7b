// What the prop shows: see prop_display.h.
//
// Main display (the module's face), 16x2:
//   PILE G^   SOLVED      discard top; SOLVED once solved
//   1R@ 2B@ 3--  X: 2     hand slots 1-3 (-- empty); strikes, "X1/3" with a limit
// A card is its colour letter (R B G Y) and a glyph of its shape. The screen before the
// first display command reads "MITTENS PROP" / "WAITING FOR HOST"; while the host is
// lost, row 0 reads "** HOST LOST **"; after an explosion "*** EXPLODED ***" or
// "*** TIME OUT ***".
//
// Edge display (the bomb's side), 20x4:
//   SERIAL #  AB3CD4      the serial sticker
//   3B 2H  = |            batteries and holders (version 2: "3B 1xAA 1xD"), then one
//                         glyph per holder: a pair of AA cells or one D cell
//   *FRK oCAR             indicators: a lamp glyph (lit or unlit), then the label
//   [PS] [] [D2RA]        port plates, one letter per port (see port_letter)
#include "prop_display.h"

#include <Arduino.h>
#include <avr/pgmspace.h>
#include <string.h>

#include "prop_config.h"
#include "prop_lcd.h"

static const char COLOUR_LETTERS[4] = {'R', 'B', 'G', 'Y'};

static const uint8_t MAIN_COLUMNS = 16;
static const uint8_t MAIN_ROWS = 2;
static const uint8_t EDGE_COLUMNS = 20;
static const uint8_t EDGE_ROWS = 4;

// Main display glyphs 0-3: the four shapes, in shape index order.
static const uint8_t SHAPE_GLYPHS[4][8] = {
    {0x00, 0x0E, 0x1F, 0x1F, 0x1F, 0x0E, 0x00, 0x00},  // circle
    {0x00, 0x0A, 0x1F, 0x1F, 0x0E, 0x04, 0x00, 0x00},  // heart
    {0x00, 0x04, 0x04, 0x0E, 0x0E, 0x1F, 0x00, 0x00},  // triangle
    {0x00, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x00, 0x00},  // square
};

// Edge display glyphs 0-3: an AA holder (two slim cells), a D holder (one fat cell), a
// lit indicator lamp and an unlit one.
static const uint8_t GLYPH_AA_HOLDER = 0;
static const uint8_t GLYPH_D_HOLDER = 1;
static const uint8_t GLYPH_LAMP_LIT = 2;
static const uint8_t GLYPH_LAMP_UNLIT = 3;
static const uint8_t EDGE_GLYPHS[4][8] = {
    {0x09, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x00},  // AA: two cells with caps
    {0x04, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x00},  // D: one cell with a cap
    {0x00, 0x0E, 0x1F, 0x1F, 0x1F, 0x0E, 0x00, 0x00},  // lit lamp: a filled disc
    {0x00, 0x0E, 0x11, 0x11, 0x11, 0x0E, 0x00, 0x00},  // unlit lamp: a ring
};

static CharLcd main_lcd;
static CharLcd tag_lcd;
static DisplayState state;
static bool shown_game;  // a display command has come since start
static bool link_session;
static bool link_lost;
static bool strikes_known;  // a STRIKES has come since start
static bool flashing;
static uint32_t flash_start_ms;

// A frame being drawn for a display of `columns` x `rows`.
struct Frame {
  uint8_t columns;
  uint8_t cells[LCD_MAX_CELLS];
};

static void frame_clear(Frame &frame, uint8_t columns) {
  frame.columns = columns;
  memset(frame.cells, ' ', sizeof frame.cells);
}

// Writes `text` at row/column, clipped to the row.
static void frame_text(Frame &frame, uint8_t row, uint8_t column, const char *text) {
  for (; *text && column < frame.columns; text++, column++)
    frame.cells[row * frame.columns + column] = (uint8_t)*text;
}

// Writes a fixed text kept in flash (PSTR) at row/column, clipped to the row.
static void frame_label(Frame &frame, uint8_t row, uint8_t column, const char *text) {
  for (char c; (c = (char)pgm_read_byte(text)) != '\0' && column < frame.columns; text++, column++)
    frame.cells[row * frame.columns + column] = (uint8_t)c;
}

static void frame_put(Frame &frame, uint8_t row, uint8_t column, uint8_t code) {
  if (column < frame.columns) frame.cells[row * frame.columns + column] = code;
}

static void frame_card(Frame &frame, uint8_t row, uint8_t column, uint8_t card) {
  if (card == CARD_NONE) {
    frame_text(frame, row, column, "--");
  } else {
    frame_put(frame, row, column, (uint8_t)COLOUR_LETTERS[card >> 2]);
    frame_put(frame, row, (uint8_t)(column + 1), card & 0x3);  // shape glyph code
  }
}

// Right-aligned decimal 0-99 in two cells.
static void frame_number2(Frame &frame, uint8_t row, uint8_t column, uint8_t value) {
  frame_put(frame, row, column, value >= 10 ? (uint8_t)('0' + value / 10) : ' ');
  frame_put(frame, row, (uint8_t)(column + 1), (uint8_t)('0' + value % 10));
}

static void draw_main(Frame &frame) {
  frame_clear(frame, MAIN_COLUMNS);
  if (!shown_game) {
    frame_label(frame, 0, 2, PSTR("MITTENS PROP"));
    frame_label(frame, 1, 0, PSTR("WAITING FOR HOST"));
    return;
  }
  if (link_lost) {
    frame_label(frame, 0, 0, PSTR("** HOST LOST **"));
  } else if (state.game == GAME_EXPLODED) {
    frame_label(frame, 0, 0, PSTR("*** EXPLODED ***"));
  } else if (state.game == GAME_TIMEOUT) {
    frame_label(frame, 0, 0, PSTR("*** TIME OUT ***"));
  } else {
    frame_label(frame, 0, 0, PSTR("PILE"));
    frame_card(frame, 0, 5, state.top);
    if (state.solved || state.game == GAME_SOLVED) frame_label(frame, 0, 10, PSTR("SOLVED"));
  }
  for (uint8_t slot = 0; slot < 3; slot++) {
    uint8_t column = (uint8_t)(slot * 4);
    frame_put(frame, 1, column, (uint8_t)('1' + slot));
    frame_card(frame, 1, (uint8_t)(column + 1), state.hand[slot]);
  }
  if (state.strike_limit != 0 && state.strike_limit < 10 && state.strikes < 10) {
    // Strikes out of the limit: "X1/3".
    frame_put(frame, 1, 12, 'X');
    frame_put(frame, 1, 13, (uint8_t)('0' + state.strikes));
    frame_put(frame, 1, 14, '/');
    frame_put(frame, 1, 15, (uint8_t)('0' + state.strike_limit));
  } else {
    frame_label(frame, 1, 12, PSTR("X:"));
    frame_number2(frame, 1, 14, state.strikes);
  }
}

// Appends a decimal 0-99 to `text` at `n`; returns the new length.
static uint8_t append_number(char *text, uint8_t n, uint8_t value) {
  if (value >= 10) text[n++] = (char)('0' + value / 10);
  text[n++] = (char)('0' + value % 10);
  return n;
}

static uint8_t append_label(char *text, uint8_t n, const char *label) {
  while (*label) text[n++] = *label++;
  return n;
}

// Row 1: "3B 2H" and the holder glyphs (AA holders first); in version 2, once HOLDERS
// has come, "3B 1xAA 1xD" instead. When more holders than fit, the last place is "+".
static void draw_batteries(Frame &frame) {
  bool holders_known = state.aa_holders != BATTERY_HOLDERS_UNKNOWN;
  if (!state.batteries_known && !holders_known) {
    frame_label(frame, 1, 0, PSTR("BATTERIES --"));
    return;
  }
  char text[16];  // "99B 99xAA 99xD"
  uint8_t n = 0;
  if (state.batteries_known) {
    n = append_number(text, n, state.batteries);
    text[n++] = 'B';
  }
  uint8_t aa = 0, holders = 0;
  bool pictures = false;
  if (holders_known) {
    if (n > 0) text[n++] = ' ';
    n = append_number(text, n, state.aa_holders);
    n = append_label(text, n, "xAA ");
    n = append_number(text, n, state.d_holders);
    n = append_label(text, n, "xD");
    aa = state.aa_holders;
    holders = (uint8_t)(state.aa_holders + state.d_holders);
    pictures = true;
  } else if (state.holders != BATTERY_HOLDERS_UNKNOWN) {
    text[n++] = ' ';
    n = append_number(text, n, state.holders);
    text[n++] = 'H';
    holders = state.holders;
    // Holder pictures only when the counts fit together: h <= n <= 2h.
    pictures = state.batteries >= holders && state.batteries <= 2 * holders;
    aa = (uint8_t)(state.batteries - holders);
  }
  text[n] = '\0';
  frame_text(frame, 1, 0, text);
  if (!pictures) return;
  uint8_t column = (uint8_t)(n + 2);
  for (uint8_t i = 0; i < holders; i++) {
    if (column >= EDGE_COLUMNS) break;
    if (column >= EDGE_COLUMNS - 1 && i + 1 < holders) {
      frame_put(frame, 1, column, '+');  // more holders than fit
      break;
    }
    frame_put(frame, 1, column, i < aa ? GLYPH_AA_HOLDER : GLYPH_D_HOLDER);
    column = (uint8_t)(column + 2);
  }
}

// "+N" at `column` of row `row`: N more widgets than the row shows.
static void frame_more(Frame &frame, uint8_t row, uint8_t column, uint8_t more) {
  char text[4] = {'+', '\0', '\0', '\0'};
  append_number(text, 1, more);
  frame_text(frame, row, column, text);
}

// Row 2: each indicator as its lamp and label, "*FRK oCAR" (5 columns each); one the
// host has not described yet is " ???". When they do not all fit, the last place says
// how many more there are: "+2".
// A widget list's row when it has nothing to show: `unknown` (PSTR) before the host
// gave the count, `none` (PSTR) when the count is 0. Returns whether it drew either.
static bool frame_no_list(Frame &frame, uint8_t row, uint8_t count, const char *unknown,
                          const char *none) {
  if (count != 0xFF && count != 0) return false;
  frame_label(frame, row, 0, count == 0 ? none : unknown);
  return true;
}

static void draw_indicators(Frame &frame) {
  uint8_t count = state.indicator_count;
  if (frame_no_list(frame, 2, count, PSTR("INDICATORS --"), PSTR("NO INDICATORS"))) return;
  uint8_t shown = count <= PROP_MAX_INDICATORS ? count : (uint8_t)(PROP_MAX_INDICATORS - 1);
  for (uint8_t i = 0; i < shown; i++) {
    const Indicator &indicator = state.indicators[i];
    uint8_t column = (uint8_t)(i * 5);
    if (indicator.label[0] == '\0') {
      frame_label(frame, 2, (uint8_t)(column + 1), PSTR("???"));
      continue;
    }
    frame_put(frame, 2, column, indicator.lit ? GLYPH_LAMP_LIT : GLYPH_LAMP_UNLIT);
    for (uint8_t k = 0; k < 3; k++)
      frame_put(frame, 2, (uint8_t)(column + 1 + k), (uint8_t)indicator.label[k]);
  }
  if (shown < count) frame_more(frame, 2, (uint8_t)(shown * 5), (uint8_t)(count - shown));
}

// The letter that stands for a port on the edge display (docs/hardware.md), by PortKind:
// D DVI-D, P parallel, 2 PS/2, R RJ-45, S serial, A stereo RCA (audio).
static uint8_t port_letter(uint8_t port) {
  static const char LETTERS[PORT_KINDS + 1] = "DP2RSA";
  return port < PORT_KINDS ? (uint8_t)LETTERS[port] : '?';
}

// Row 3: each port plate as its ports' letters in brackets, "[PS] [] [D2RA]"; one the
// host has not described yet is "[?]". When they do not all fit, the rest is counted at
// the end: "+2".
static void draw_plates(Frame &frame) {
  uint8_t count = state.plate_count;
  if (frame_no_list(frame, 3, count, PSTR("PORTS --"), PSTR("NO PORT PLATES"))) return;
  uint8_t column = 0;
  for (uint8_t i = 0; i < count; i++) {
    const Plate *plate = i < PROP_MAX_PLATES ? &state.plates[i] : NULL;
    uint8_t ports = plate == NULL ? 0 : plate->count == 0xFF ? 1 : plate->count;
    // Room for this plate and its brackets, and for " +N" after it unless it is the last.
    uint8_t need = (uint8_t)(ports + 2 + (i + 1 < count ? 4 : 0));
    if (plate == NULL || column + need > EDGE_COLUMNS) {
      frame_more(frame, 3, column, (uint8_t)(count - i));
      return;
    }
    frame_put(frame, 3, column++, '[');
    if (plate->count == 0xFF) {
      frame_put(frame, 3, column++, '?');
    } else {
      for (uint8_t k = 0; k < plate->count; k++)
        frame_put(frame, 3, column++, port_letter(plate->ports[k]));
    }
    frame_put(frame, 3, column++, ']');
    column++;
  }
}

static void draw_tag(Frame &frame) {
  frame_clear(frame, EDGE_COLUMNS);
  frame_label(frame, 0, 0, PSTR("SERIAL #"));
  frame_text(frame, 0, 10, state.serial);
  draw_batteries(frame);
  draw_indicators(frame);
  draw_plates(frame);
}

static bool exploded() { return state.game == GAME_EXPLODED || state.game == GAME_TIMEOUT; }

static void redraw() {
  Frame frame;
  draw_main(frame);
  lcd_show(main_lcd, frame.cells);
  draw_tag(frame);
  lcd_show(tag_lcd, frame.cells);
  // After an explosion the red light stays on.
  digitalWrite(PROP_PIN_LED_STRIKE, flashing || exploded() ? HIGH : LOW);
  digitalWrite(PROP_PIN_LED_SOLVED,
               (state.solved || state.game == GAME_SOLVED) && !exploded() ? HIGH : LOW);
  digitalWrite(PROP_PIN_LED_LINK, link_session && !link_lost ? HIGH : LOW);
}

void display_begin() {
  strcpy(state.serial, "------");
  state.batteries = 0;
  state.holders = BATTERY_HOLDERS_UNKNOWN;
  state.batteries_known = false;
  state.aa_holders = BATTERY_HOLDERS_UNKNOWN;
  state.d_holders = BATTERY_HOLDERS_UNKNOWN;
  memset(state.indicators, 0, sizeof state.indicators);
  state.indicator_count = 0xFF;
  for (uint8_t i = 0; i < PROP_MAX_PLATES; i++) state.plates[i].count = 0xFF;
  state.plate_count = 0xFF;
  state.top = CARD_NONE;
  for (uint8_t i = 0; i < 3; i++) state.hand[i] = CARD_NONE;
  state.strikes = 0;
  state.strike_limit = 0;
  state.solved = false;
  state.game = GAME_PLAYING;
  shown_game = false;
  link_session = false;
  link_lost = false;
  strikes_known = false;
  flashing = false;

  pinMode(PROP_PIN_LED_STRIKE, OUTPUT);
  pinMode(PROP_PIN_LED_SOLVED, OUTPUT);
  pinMode(PROP_PIN_LED_LINK, OUTPUT);
  lcd_bus_init();
  lcd_begin(main_lcd, PROP_PIN_LCD_E_MAIN, MAIN_COLUMNS, MAIN_ROWS, SHAPE_GLYPHS, 4);
  lcd_begin(tag_lcd, PROP_PIN_LCD_E_TAG, EDGE_COLUMNS, EDGE_ROWS, EDGE_GLYPHS, 4);
  redraw();
}

const DisplayState &display_state() { return state; }

// Every display command ends the "waiting for host" screen.
static void changed() {
  shown_game = true;
  redraw();
}

void display_set_serial(const char serial[6]) {
  memcpy(state.serial, serial, 6);
  state.serial[6] = '\0';
  changed();
}

void display_set_batteries(uint8_t count, uint8_t holders) {
  state.batteries = count;
  state.holders = holders;
  state.batteries_known = true;
  changed();
}

void display_set_holders(uint8_t aa, uint8_t d) {
  state.aa_holders = aa;
  state.d_holders = d;
  changed();
}

void display_set_indicator_count(uint8_t count) {
  state.indicator_count = count;
  changed();
}

void display_set_indicator(uint8_t index, const char label[3], bool lit) {
  // Indicators past the stored ones are only counted.
  if (index >= 1 && index <= PROP_MAX_INDICATORS) {
    Indicator &indicator = state.indicators[index - 1];
    memcpy(indicator.label, label, 3);
    indicator.lit = lit;
  }
  changed();
}

void display_set_plate_count(uint8_t count) {
  state.plate_count = count;
  changed();
}

void display_set_plate(uint8_t index, const Plate &plate) {
  if (index >= 1 && index <= PROP_MAX_PLATES) state.plates[index - 1] = plate;
  changed();
}

void display_set_top(uint8_t card) {
  state.top = card;
  changed();
}

void display_set_hand(const uint8_t cards[3]) {
  memcpy(state.hand, cards, 3);
  changed();
}

void display_set_strikes(uint8_t count) {
  // The first count after start is the state being restored, not a new strike.
  if (strikes_known && count > state.strikes) {
    flashing = true;
    flash_start_ms = millis();
  }
  state.strikes = count;
  strikes_known = true;
  changed();
}

void display_set_solved(bool solved) {
  state.solved = solved;
  changed();
}

void display_set_strike_limit(uint8_t limit) {
  state.strike_limit = limit;
  changed();
}

void display_set_game(uint8_t game) {
  state.game = game;
  changed();
}

void display_set_link(bool session, bool host_lost) {
  if (session == link_session && host_lost == link_lost) return;
  link_session = session;
  link_lost = host_lost;
  redraw();
}

void display_tick(uint32_t now_ms) {
  // Signed: the flash may have started after `now_ms` was read.
  if (flashing && (int32_t)(now_ms - flash_start_ms) >= (int32_t)PROP_STRIKE_FLASH_MS) {
    flashing = false;
    redraw();
  }
}
