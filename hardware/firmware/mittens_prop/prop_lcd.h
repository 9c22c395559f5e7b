// A write-only driver for HD44780 16x2 character displays on a shared 4-bit bus.
//
// Several displays can share RS and D4-D7 as long as each has its own E line: a display
// only latches the bus when its E pulses. The driver keeps a copy of what each display
// shows and writes only the characters that changed, so redrawing is fast and does not
// flicker.
#ifndef PROP_LCD_H
#define PROP_LCD_H

#include <stdint.h>

#define LCD_COLUMNS 16
#define LCD_ROWS 2
#define LCD_CELLS (LCD_COLUMNS * LCD_ROWS)

struct CharLcd {
  uint8_t enable_pin;
  uint8_t shown[LCD_CELLS];  // what the display holds now, row 0 then row 1
};

// Sets up the shared bus pins; call once before lcd_begin.
void lcd_bus_init();

// Initialises one display (4-bit mode, 2 lines, display on, no cursor), stores
// `glyph_count` custom glyphs as character codes 0, 1, ... (each 8 rows of 5 pixels,
// bit 4 the leftmost) and blanks the display.
void lcd_begin(CharLcd &lcd, uint8_t enable_pin, const uint8_t (*glyphs)[8],
               uint8_t glyph_count);

// Makes the display show `frame` (LCD_CELLS character codes, row 0 then row 1).
void lcd_show(CharLcd &lcd, const uint8_t frame[LCD_CELLS]);

#endif
