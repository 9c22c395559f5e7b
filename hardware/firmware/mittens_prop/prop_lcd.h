// A write-only driver for HD44780 character displays (16x2 and 20x4) on a shared 4-bit bus.
//
// Several displays can share RS and D4-D7 as long as each has its own E line: a display
// only latches the bus when its E pulses. The driver keeps a copy of what each display
// shows and writes only the characters that changed, so redrawing is fast and does not
// flicker.
#ifndef PROP_LCD_H
#define PROP_LCD_H

#include <stdint.h>

// The largest display the driver handles: 20 columns by 4 rows.
#define LCD_MAX_COLUMNS 20
#define LCD_MAX_ROWS 4
#define LCD_MAX_CELLS (LCD_MAX_COLUMNS * LCD_MAX_ROWS)

struct CharLcd {
  uint8_t enable_pin;
  uint8_t columns;               // 16 or 20
  uint8_t rows;                  // 2 or 4
  uint8_t shown[LCD_MAX_CELLS];  // what the display holds now, row by row
};

// Sets up the shared bus pins; call once before lcd_begin.
void lcd_bus_init();

// Initialises one display of `columns` x `rows` (4-bit mode, display on, no cursor), stores
// `glyph_count` custom glyphs as character codes 0, 1, ... (each 8 rows of 5 pixels,
// bit 4 the leftmost) and blanks the display.
void lcd_begin(CharLcd &lcd, uint8_t enable_pin, uint8_t columns, uint8_t rows,
               const uint8_t (*glyphs)[8], uint8_t glyph_count);

// Makes the display show `frame` (columns * rows character codes, row by row).
void lcd_show(CharLcd &lcd, const uint8_t *frame);

#endif
