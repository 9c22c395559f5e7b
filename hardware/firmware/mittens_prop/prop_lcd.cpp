// HD44780 driver: see prop_lcd.h. Timings follow the HD44780U datasheet (Hitachi),
// with margin: 37 us per command or character, 1.52 ms for clear.
#include "prop_lcd.h"

#include <Arduino.h>
#include <string.h>

#include "prop_config.h"

static const uint8_t DATA_PINS[4] = {PROP_PIN_LCD_D4, PROP_PIN_LCD_D5, PROP_PIN_LCD_D6,
                                     PROP_PIN_LCD_D7};

// Instructions.
static const uint8_t LCD_CLEAR = 0x01;
static const uint8_t LCD_ENTRY_INCREMENT = 0x06;
static const uint8_t LCD_DISPLAY_ON = 0x0C;  // display on, cursor off, blink off
static const uint8_t LCD_FUNCTION_4BIT_2LINE = 0x28;
static const uint8_t LCD_SET_CGRAM = 0x40;
static const uint8_t LCD_SET_DDRAM = 0x80;
// Rows 0-3 start at these display memory addresses (rows 2 and 3 of a 20x4 display
// continue rows 0 and 1 in memory).
static const uint8_t LCD_ROW_ADDRESS[LCD_MAX_ROWS] = {0x00, 0x40, 0x14, 0x54};

static void put_nibble(uint8_t enable_pin, uint8_t nibble) {
  for (uint8_t i = 0; i < 4; i++) digitalWrite(DATA_PINS[i], (nibble >> i) & 1 ? HIGH : LOW);
  // The display latches the bus on E; the pulse must last 450 ns, digitalWrite takes
  // longer than that on its own.
  digitalWrite(enable_pin, HIGH);
  delayMicroseconds(1);
  digitalWrite(enable_pin, LOW);
}

static void put_byte(uint8_t enable_pin, uint8_t value, bool is_data) {
  digitalWrite(PROP_PIN_LCD_RS, is_data ? HIGH : LOW);
  put_nibble(enable_pin, value >> 4);
  put_nibble(enable_pin, value & 0x0F);
  delayMicroseconds(45);
}

void lcd_bus_init() {
  pinMode(PROP_PIN_LCD_RS, OUTPUT);
  digitalWrite(PROP_PIN_LCD_RS, LOW);
  for (uint8_t i = 0; i < 4; i++) {
    pinMode(DATA_PINS[i], OUTPUT);
    digitalWrite(DATA_PINS[i], LOW);
  }
}

static void define_glyph(uint8_t enable_pin, uint8_t index, const uint8_t rows[8]) {
  put_byte(enable_pin, (uint8_t)(LCD_SET_CGRAM | ((index & 0x7) << 3)), false);
  for (uint8_t i = 0; i < 8; i++) put_byte(enable_pin, rows[i] & 0x1F, true);
}

void lcd_begin(CharLcd &lcd, uint8_t enable_pin, uint8_t columns, uint8_t rows,
               const uint8_t (*glyphs)[8], uint8_t glyph_count) {
  lcd.enable_pin = enable_pin;
  lcd.columns = columns;
  lcd.rows = rows;
  pinMode(enable_pin, OUTPUT);
  digitalWrite(enable_pin, LOW);
  // The display needs 40 ms after power-up. It may also be in the middle of a byte from
  // before a reset of the board: three "8-bit" nibbles bring it to a known state from
  // any state, then one "4-bit" nibble switches the interface (datasheet figure 24).
  delay(50);
  digitalWrite(PROP_PIN_LCD_RS, LOW);
  put_nibble(enable_pin, 0x3);
  delay(5);
  put_nibble(enable_pin, 0x3);
  delay(5);
  put_nibble(enable_pin, 0x3);
  delayMicroseconds(150);
  put_nibble(enable_pin, 0x2);
  delayMicroseconds(150);
  put_byte(enable_pin, LCD_FUNCTION_4BIT_2LINE, false);
  put_byte(enable_pin, LCD_DISPLAY_ON, false);
  put_byte(enable_pin, LCD_ENTRY_INCREMENT, false);
  for (uint8_t i = 0; i < glyph_count && i < 8; i++) define_glyph(enable_pin, i, glyphs[i]);
  // Clear last: it also moves the address counter back into display memory. (simavr's
  // display model keeps glyphs in the memory of rows 1 and 3 and its clear does not reach
  // all of row 3, so the first lcd_show writes every cell: nothing is taken as shown.)
  put_byte(enable_pin, LCD_CLEAR, false);
  delay(2);
  memset(lcd.shown, 0xFF, sizeof lcd.shown);
}

void lcd_show(CharLcd &lcd, const uint8_t *frame) {
  uint8_t cells = (uint8_t)(lcd.columns * lcd.rows);
  int8_t cursor = -1;  // the cell the display's address counter points at, if known
  for (uint8_t cell = 0; cell < cells; cell++) {
    if (frame[cell] == lcd.shown[cell]) continue;
    uint8_t column = cell % lcd.columns;
    if (cursor != (int8_t)cell) {
      uint8_t row = cell / lcd.columns;
      put_byte(lcd.enable_pin, (uint8_t)(LCD_SET_DDRAM | (LCD_ROW_ADDRESS[row] + column)),
               false);
    }
    put_byte(lcd.enable_pin, frame[cell], true);
    lcd.shown[cell] = frame[cell];
    // The address counter runs on from the end of a row into memory of another row.
    cursor = (column == lcd.columns - 1) ? -1 : (int8_t)(cell + 1);
  }
}
