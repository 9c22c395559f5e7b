// What the prop shows: see prop_display.h.
//
// Main display (the module's face), 16x2:
//   PILE G^   SOLVED      discard top; SOLVED once solved
//   1R@ 2B@ 3--  X: 2     hand slots 1-3 (-- empty); strike count
// A card is its colour letter (R B G Y) and a glyph of its shape. The screen before the
// first display command reads "MITTENS PROP" / "WAITING FOR HOST"; while the host is
// lost, row 0 reads "** HOST LOST **".
//
// Edge display (the bomb's side), 16x2:
//   SERIAL #  AB3CD4      the serial sticker
//   3B 2H  = |            batteries and holders, then one glyph per holder:
//                         a pair of AA cells or one D cell
#include "prop_display.h"

#include <Arduino.h>
#include <string.h>

#include "prop_config.h"
#include "prop_lcd.h"

static const char COLOUR_LETTERS[4] = {'R', 'B', 'G', 'Y'};

// Main display glyphs 0-3: the four shapes, in shape index order.
static const uint8_t SHAPE_GLYPHS[4][8] = {
    {0x00, 0x0E, 0x1F, 0x1F, 0x1F, 0x0E, 0x00, 0x00},  // circle
    {0x00, 0x0A, 0x1F, 0x1F, 0x0E, 0x04, 0x00, 0x00},  // heart
    {0x00, 0x04, 0x04, 0x0E, 0x0E, 0x1F, 0x00, 0x00},  // triangle
    {0x00, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x00, 0x00},  // square
};

// Edge display glyphs 0-1: an AA holder (two slim cells) and a D holder (one fat cell).
static const uint8_t GLYPH_AA_HOLDER = 0;
static const uint8_t GLYPH_D_HOLDER = 1;
static const uint8_t HOLDER_GLYPHS[2][8] = {
    {0x09, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x00},  // AA: two cells with caps
    {0x04, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x00},  // D: one cell with a cap
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

// A 16x2 frame being drawn.
struct Frame {
  uint8_t cells[LCD_CELLS];
};

static void frame_clear(Frame &frame) { memset(frame.cells, ' ', sizeof frame.cells); }

// Writes `text` at row/column, clipped to the row.
static void frame_text(Frame &frame, uint8_t row, uint8_t column, const char *text) {
  for (; *text && column < LCD_COLUMNS; text++, column++)
    frame.cells[row * LCD_COLUMNS + column] = (uint8_t)*text;
}

static void frame_put(Frame &frame, uint8_t row, uint8_t column, uint8_t code) {
  if (column < LCD_COLUMNS) frame.cells[row * LCD_COLUMNS + column] = code;
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
  frame_clear(frame);
  if (!shown_game) {
    frame_text(frame, 0, 2, "MITTENS PROP");
    frame_text(frame, 1, 0, "WAITING FOR HOST");
    return;
  }
  if (link_lost) {
    frame_text(frame, 0, 0, "** HOST LOST **");
  } else {
    frame_text(frame, 0, 0, "PILE");
    frame_card(frame, 0, 5, state.top);
    if (state.solved) frame_text(frame, 0, 10, "SOLVED");
  }
  for (uint8_t slot = 0; slot < 3; slot++) {
    uint8_t column = (uint8_t)(slot * 4);
    frame_put(frame, 1, column, (uint8_t)('1' + slot));
    frame_card(frame, 1, (uint8_t)(column + 1), state.hand[slot]);
  }
  frame_text(frame, 1, 12, "X:");
  frame_number2(frame, 1, 14, state.strikes);
}

static void draw_tag(Frame &frame) {
  frame_clear(frame);
  frame_text(frame, 0, 0, "SERIAL #");
  frame_text(frame, 0, 10, state.serial);
  if (!state.batteries_known) {
    frame_text(frame, 1, 0, "BATTERIES --");
    return;
  }
  char text[8];  // "99B 99H"
  uint8_t n = 0;
  if (state.batteries >= 10) text[n++] = (char)('0' + state.batteries / 10);
  text[n++] = (char)('0' + state.batteries % 10);
  text[n++] = 'B';
  uint8_t holders = state.holders;
  if (holders != BATTERY_HOLDERS_UNKNOWN) {
    text[n++] = ' ';
    if (holders >= 10) text[n++] = (char)('0' + holders / 10);
    text[n++] = (char)('0' + holders % 10);
    text[n++] = 'H';
  }
  text[n] = '\0';
  frame_text(frame, 1, 0, text);
  // Holder pictures only when the counts fit together: h <= n <= 2h.
  if (holders == BATTERY_HOLDERS_UNKNOWN || state.batteries < holders ||
      state.batteries > 2 * holders)
    return;
  uint8_t aa = (uint8_t)(state.batteries - holders);
  uint8_t column = (uint8_t)(n + 2);
  for (uint8_t i = 0; i < holders; i++) {
    if (column >= LCD_COLUMNS - 1 && i + 1 < holders) {
      frame_put(frame, 1, column, '+');  // more holders than fit
      break;
    }
    frame_put(frame, 1, column, i < aa ? GLYPH_AA_HOLDER : GLYPH_D_HOLDER);
    column = (uint8_t)(column + 2);
  }
}

static void redraw() {
  Frame frame;
  draw_main(frame);
  lcd_show(main_lcd, frame.cells);
  draw_tag(frame);
  lcd_show(tag_lcd, frame.cells);
  digitalWrite(PROP_PIN_LED_STRIKE, flashing ? HIGH : LOW);
  digitalWrite(PROP_PIN_LED_SOLVED, state.solved ? HIGH : LOW);
  digitalWrite(PROP_PIN_LED_LINK, link_session && !link_lost ? HIGH : LOW);
}

void display_begin() {
  strcpy(state.serial, "------");
  state.batteries = 0;
  state.holders = BATTERY_HOLDERS_UNKNOWN;
  state.batteries_known = false;
  state.top = CARD_NONE;
  for (uint8_t i = 0; i < 3; i++) state.hand[i] = CARD_NONE;
  state.strikes = 0;
  state.solved = false;
  shown_game = false;
  link_session = false;
  link_lost = false;
  strikes_known = false;
  flashing = false;

  pinMode(PROP_PIN_LED_STRIKE, OUTPUT);
  pinMode(PROP_PIN_LED_SOLVED, OUTPUT);
  pinMode(PROP_PIN_LED_LINK, OUTPUT);
  lcd_bus_init();
  lcd_begin(main_lcd, PROP_PIN_LCD_E_MAIN, SHAPE_GLYPHS, 4);
  lcd_begin(tag_lcd, PROP_PIN_LCD_E_TAG, HOLDER_GLYPHS, 2);
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
