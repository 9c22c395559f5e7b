/*
 * prop_harness: runs the prop firmware under simavr for the firmware-in-the-loop tests.
 *
 * A TEST TOOL ONLY. It links simavr and libsimavrparts, which are GPL-3, so the built
 * binary is GPL-3 and is never shipped in the exploding-mittens wheel. This source file
 * is the project's own code.
 *
 * What it models of the reference build (docs/hardware.md; the pin map below must match
 * hardware/firmware/mittens_prop/prop_config.h):
 *   - an ATmega328P at 16 MHz running the firmware ELF, paced to wall-clock time so the
 *     firmware's millis() (debounce, heartbeat timeout) agrees with the host's clock, or
 *     (-e) on emulated time: simulated time passes only while a "wait" runs, and the
 *     host's clock is the test's count of those waits;
 *   - UART0 as a pseudo-terminal (simavr's uart_pty part); its path is printed;
 *   - the five buttons: simavr does not model pull-ups, so the harness drives every
 *     button pin high (released) and pulls one low on request, and declares those
 *     levels to simavr so that the firmware's writes to PORTC do not undo them;
 *   - the two HD44780 displays (the 16x2 main display and the 20x4 edge display) that
 *     share RS/D4-D7 and have their own E line, using simavr's hd44780 part, so a test
 *     can read what they show (Debian's simavr 1.6 stores glyph memory over the memory of
 *     rows 1 and 3, so the firmware clears each display after defining its glyphs, and
 *     glyphs cannot be read back);
 *   - the timer display, a TM1637 4-digit 7-segment module on two open-drain lines
 *     (CLK, DIO) with pull-ups: the harness decodes the frames the firmware sends and
 *     keeps the segments the chip would show;
 *   - the buzzer pin: the harness times its level changes and cuts them into tones
 *     (runs of changes less than 10 ms apart), each with its start, length and pitch;
 *   - the LED outputs, read from the port registers;
 *   - the reply time: from each LF the host's bytes bring to the MCU to the end of the
 *     next line the prop sends that is not an event (BTN, BOOT), in simulated time;
 *   - faults on the line to the host: dropped event lines and garbled lines.
 *
 * Usage: prop_harness [-v] [-e] [-l LINK] [-s SPEED] firmware.elf
 *   -v       let simavr's own chatter through to stderr (it is discarded otherwise)
 *   -e       emulated time: the MCU stands still between commands and runs, unpaced,
 *            only while a "wait" is pending (-s is then ignored)
 *   -l LINK  also make LINK a symlink to the pty (the pty path is printed either way)
 *   -s SPEED simulated time per wall-clock time, 1 by default; 0 runs unpaced
 *
 * It prints "pty PATH" and then "ready" on stdout, then reads commands on stdin, one per
 * line, and answers each with one line ("err ..." for a bad command):
 *   press B [MS]   hold button B low for MS milliseconds (default 80) then release it
 *   bounce B       a press whose contacts chatter for 3 ms on the way down and up
 *   down B / up B  hold button B low / release it
 *                  (B: deck, discard, slot1, slot2, slot3 or 0-4)
 *   lcd            "lcd main=HEX tag=HEX": each display's characters, row by row (main:
 *                  2x16, tag: 4x20), as hex bytes (custom glyphs are bytes 0-7)
 *   digits         "digits on=0|1 seg=HEX": whether the timer display is switched on,
 *                  and its four digits' segments (bit 0 segment a ... bit 6 g; bit 7 of
 *                  the second digit is the colon)
 *   tones          "tones START:MS:HZ ...": the tones the buzzer made since the last
 *                  "tones" (start in simulated ms since start, length in ms, pitch in
 *                  Hz), oldest first, at most 64; "tones" alone when there were none. A
 *                  tone still sounding is reported once it has ended.
 *   leds           "leds NAME=0|1 ..." for every LED output
 *   replies        "replies count=N worst=US": how many replies were timed since the last
 *                  "replies", and the longest reply time among them in microseconds
 *   time           "time US": simulated microseconds since start
 *   wait MS        answers "ok" once MS milliseconds of simulated time have passed;
 *                  later commands wait their turn
 *   drop [N]       drop the next N (default 1) BTN lines the prop sends: lost events
 *   garble [N]     garble the next N lines the prop sends (first byte changed, so the
 *                  checksum fails)
 *   reset          reset the MCU (what opening the port does to a real Uno)
 *   quit           exit (so does end of input)
 * Every answer is written only after the simulation has reached the point where the
 * command was read, so "press" answers at the press, not at the release.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "avr_extint.h"
#include "avr_ioport.h"
#include "avr_uart.h"
#include "hd44780.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_time.h"
#include "uart_pty.h"

#define MCU_NAME "atmega328p"
#define MCU_FREQUENCY 16000000UL

/* One AVR pin: port letter and bit. */
typedef struct pin_t {
	char port;
	uint8_t bit;
} pin_t;

/* Reference-build pin map (Arduino pin numbers in the comments). */
static const char *const BUTTON_NAMES[] = {"deck", "discard", "slot1", "slot2", "slot3"};
static const pin_t BUTTON_PINS[] = {
	{'C', 0}, /* A0 deck */
	{'C', 1}, /* A1 discard pile */
	{'C', 2}, /* A2 hand slot 1 */
	{'C', 3}, /* A3 hand slot 2 */
	{'C', 4}, /* A4 hand slot 3 */
};
#define BUTTON_COUNT 5

static const pin_t LCD_RS = {'B', 0};      /* D8 */
static const pin_t LCD_E_MAIN = {'B', 1};  /* D9 */
static const pin_t LCD_E_TAG = {'B', 2};   /* D10 */
static const pin_t LCD_DATA[4] = {{'D', 4}, {'D', 5}, {'D', 6}, {'D', 7}}; /* D4-D7 */

static const pin_t DIGITS_CLK = {'D', 2}; /* D2 */
static const pin_t DIGITS_DIO = {'C', 5}; /* A5 */
static const pin_t BUZZER = {'D', 3};     /* D3 */

static const char *const LED_NAMES[] = {"strike", "solved", "link"};
static const pin_t LED_PINS[] = {
	{'B', 3}, /* D11 status LED, red: strike */
	{'B', 4}, /* D12 status LED, green: solved */
	{'B', 5}, /* D13 on-board LED: host link up */
};
#define LED_COUNT 3

static avr_t *avr;

/* simavr's sleep callback: pacing is the main loop's job. */
static void no_sleep(avr_t *a, avr_cycle_count_t how_long)
{
	(void)a;
	(void)how_long;
}
static avr_cycle_count_t slice, next_slice; /* stdin and pacing run once per slice */
static int emulated;                        /* -e: time passes only during a "wait" */
static int waiting;                         /* a "wait" command is pending */
static avr_cycle_count_t wait_until;        /* ... until this cycle */
static avr_cycle_count_t pace_cycle;        /* cycle count at pace_start */
static uint64_t pace_start;                 /* wall clock (us) at pace_cycle */
static uart_pty_t uart;
static hd44780_t lcd_main, lcd_tag;
static FILE *out; /* our answers; stdout itself carries simavr's chatter */
static int button_low[BUTTON_COUNT];

/* Simulated microseconds since start (or since the last reset's restart of pacing). */
static uint64_t sim_us(void)
{
	return avr->cycle / (avr->frequency / 1000000UL);
}

static void fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("prop_harness: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static avr_irq_t *pin_irq(pin_t p)
{
	avr_irq_t *irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(p.port), p.bit);
	if (!irq)
		fail("no IRQ for pin P%c%u", p.port, p.bit);
	return irq;
}

static int pin_output_level(pin_t p)
{
	avr_ioport_state_t state;
	if (avr_ioctl(avr, AVR_IOCTL_IOPORT_GETSTATE(p.port), &state) != 0)
		return 0;
	return (state.port >> p.bit) & 1;
}

/*
 * Every write to PORTC or DDRC (the pull-ups, and the timer display's DIO on PC5, which
 * the firmware toggles all the time) makes simavr raise the IRQ of each input pin again:
 * with the pin's "external" level when the harness has declared one, else from the
 * port latch, which would read a held button as released. So the harness declares the
 * level of every button pin (low while held) and of DIO (the module's pull-up).
 */
static void declare_port_c_levels(void)
{
	uint8_t mask = 1u << DIGITS_DIO.bit, value = 1u << DIGITS_DIO.bit;
	for (int b = 0; b < BUTTON_COUNT; b++) {
		mask |= 1u << BUTTON_PINS[b].bit;
		if (!button_low[b])
			value |= 1u << BUTTON_PINS[b].bit;
	}
	avr_ioport_external_t external = {.name = 'C', .mask = mask, .value = value};
	avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL('C'), &external);
}

static void drive_button(int b, int low)
{
	button_low[b] = low;
	declare_port_c_levels();
	avr_raise_irq(pin_irq(BUTTON_PINS[b]), low ? 0 : 1);
}

/*
 * Faults on the prop-to-host direction. The UART's output goes through tx_hook, which
 * holds each line until its LF, then passes it on to the pty, drops it, or garbles it.
 */
static avr_irq_t *tx_filter;
static int drop_btn_lines;  /* BTN lines still to drop */
static int garble_lines;    /* lines of any kind still to garble */
static uint8_t tx_line[128];
static size_t tx_len;

static void tx_forward(void)
{
	if (emulated) {
		/* Straight to the pty, so the host has the line as soon as simulated time
		 * stops (uart_pty's thread may be scheduled late). */
		size_t sent = 0;
		while (sent < tx_len) {
			ssize_t n = write(uart.pty.s, tx_line + sent, tx_len - sent);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break; /* no host has the pty open: the line is lost, as on a wire */
			sent += (size_t)n;
		}
		tx_len = 0;
		return;
	}
	for (size_t i = 0; i < tx_len; i++)
		avr_raise_irq(uart.irq + IRQ_UART_PTY_BYTE_IN, tx_line[i]);
	tx_len = 0;
}

/* Reply times, in simulated microseconds. */
static uint64_t rx_lf_us;    /* when the last LF from the host reached the MCU */
static int awaiting_reply;   /* ... and no reply has ended since */
static uint64_t worst_reply_us;
static unsigned replies_timed;

static void rx_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	(void)param;
	if (value == '\n') {
		rx_lf_us = sim_us();
		awaiting_reply = 1;
	}
}

/* A line the prop sent has ended: time it if it is a reply. */
static void time_reply(void)
{
	int event = tx_len < 2 || (tx_len >= 4 && memcmp(tx_line, "BTN ", 4) == 0) ||
		    (tx_len >= 5 && memcmp(tx_line, "BOOT ", 5) == 0);
	if (!awaiting_reply || event)
		return;
	uint64_t took = sim_us() - rx_lf_us;
	if (took > worst_reply_us)
		worst_reply_us = took;
	replies_timed++;
	awaiting_reply = 0;
}

static void tx_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	(void)param;
	tx_line[tx_len++] = (uint8_t)value;
	if (value != '\n') {
		if (tx_len == sizeof(tx_line))
			tx_forward(); /* no line of ours is this long; pass it on as it is */
		return;
	}
	time_reply();
	if (drop_btn_lines > 0 && tx_len >= 4 && memcmp(tx_line, "BTN ", 4) == 0) {
		drop_btn_lines--;
		tx_len = 0;
		return;
	}
	if (garble_lines > 0 && tx_len > 1) {
		garble_lines--;
		tx_line[0] ^= 0x01; /* still printable; the checksum no longer matches */
	}
	tx_forward();
}

static void connect_uart(void)
{
	uart_pty_init(avr, &uart);
	uart_pty_connect(&uart, '0');
	avr_irq_t *src = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT);
	if (!src)
		fail("no UART0 output IRQ");
	static const char *names[] = {"8<harness.tx"};
	tx_filter = avr_alloc_irq(&avr->irq_pool, 0, 1, names);
	avr_unconnect_irq(src, uart.irq + IRQ_UART_PTY_BYTE_IN);
	avr_connect_irq(src, tx_filter);
	avr_irq_register_notify(tx_filter, tx_hook, NULL);
	avr_irq_t *rx = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
	if (!rx)
		fail("no UART0 input IRQ");
	avr_irq_register_notify(rx, rx_hook, NULL);
}

/*
 * The TM1637 timer display. Its lines are open-drain with pull-ups on the module: a line
 * is low only while its pin is an output driving low. The harness keeps each port's
 * PORT and DDR values from simavr's register IRQs and decodes the bus from the lines.
 */
static uint8_t port_value[2], ddr_value[2]; /* index 0: port C, 1: port D */
static int clk_level = 1, dio_level = 1;
static int tm_in_frame, tm_bits, tm_byte, tm_bytes; /* the frame being received */
static int tm_first;                                /* the frame's first byte */
static int tm_address;                              /* where the next data byte goes */
static uint8_t tm_segments[4];
static int tm_on;

static int port_index(char port) { return port == 'C' ? 0 : 1; }

static int line_level(pin_t p)
{
	int i = port_index(p.port);
	if (ddr_value[i] & (1u << p.bit))
		return (port_value[i] >> p.bit) & 1;
	return 1; /* released: the module's pull-up */
}

static void tm_byte_done(int value)
{
	if (tm_bytes == 0) {
		tm_first = value;
		if ((value & 0xC0) == 0xC0)
			tm_address = value & 0x03;
		else if ((value & 0xF0) == 0x80)
			tm_on = (value & 0x08) != 0;
	} else if ((tm_first & 0xC0) == 0xC0) {
		tm_segments[tm_address] = (uint8_t)value;
		tm_address = (tm_address + 1) & 0x03;
	}
	tm_bytes++;
}

static void tm_lines_changed(void)
{
	int clk = line_level(DIGITS_CLK), dio = line_level(DIGITS_DIO);
	if (clk && clk_level && dio != dio_level) {
		/* DIO changing while CLK is high: start (falling) or stop (rising). */
		tm_in_frame = !dio;
		tm_bits = tm_byte = tm_bytes = 0;
	} else if (clk && !clk_level && tm_in_frame) {
		/* CLK rising: the chip reads a data bit; every ninth clock is its ack. */
		int position = tm_bits % 9;
		if (position < 8) {
			tm_byte |= dio << position;
			if (position == 7) {
				tm_byte_done(tm_byte);
				tm_byte = 0;
			}
		}
		tm_bits++;
	}
	clk_level = clk;
	dio_level = dio;
}

static void port_register_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	port_value[(intptr_t)param] = (uint8_t)value;
	tm_lines_changed();
}

static void ddr_register_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	ddr_value[(intptr_t)param] = (uint8_t)value;
	tm_lines_changed();
}

static void tm_reset(void)
{
	memset(port_value, 0, sizeof(port_value));
	memset(ddr_value, 0, sizeof(ddr_value));
	clk_level = dio_level = 1;
	tm_in_frame = 0;
	/* The module keeps what it showed until the firmware sends again. */
}

static void connect_digits(void)
{
	static const char ports[2] = {'C', 'D'};
	for (intptr_t i = 0; i < 2; i++) {
		avr_irq_t *base = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(ports[i]), 0);
		if (!base)
			fail("no IRQs for port %c", ports[i]);
		avr_irq_register_notify(base + IOPORT_IRQ_REG_PORT, port_register_hook, (void *)i);
		avr_irq_register_notify(base + IOPORT_IRQ_DIRECTION_ALL, ddr_register_hook, (void *)i);
	}
}

/* The buzzer: level changes cut into tones. */
#define MAX_TONES 64
#define TONE_GAP_US 10000u
typedef struct tone_t {
	uint64_t first_us, last_us;
	uint32_t changes;
} tone_t;
static tone_t tones[MAX_TONES];
static int tone_count;   /* finished tones not yet reported */
static tone_t sounding;  /* the tone in progress, when sounding.changes > 0 */
static int buzzer_level;

static void tone_finish(void)
{
	/* A single change is the pin settling, not a tone. */
	if (sounding.changes > 1 && tone_count < MAX_TONES)
		tones[tone_count++] = sounding;
	sounding.changes = 0;
}

static void buzzer_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	(void)param;
	if ((int)value == buzzer_level)
		return;
	buzzer_level = (int)value;
	uint64_t now = sim_us();
	if (sounding.changes > 0 && now - sounding.last_us > TONE_GAP_US)
		tone_finish();
	if (sounding.changes == 0)
		sounding.first_us = now;
	sounding.last_us = now;
	sounding.changes++;
}

static void print_tones(void)
{
	if (sounding.changes > 0 && sim_us() - sounding.last_us > TONE_GAP_US)
		tone_finish();
	fputs("tones", out);
	for (int i = 0; i < tone_count; i++) {
		uint64_t length = tones[i].last_us - tones[i].first_us;
		/* Two changes make one period. */
		unsigned hz = length ? (unsigned)((tones[i].changes - 1) * 500000ULL / length) : 0;
		fprintf(out, " %llu:%llu:%u", (unsigned long long)(tones[i].first_us / 1000),
			(unsigned long long)((length + 500) / 1000), hz);
	}
	fputc('\n', out);
	tone_count = 0;
}

/* A scheduled level change on a button pin: the release of a press, or bounce steps. */
typedef struct button_step_t {
	avr_cycle_count_t when;
	int button;
	int low;
} button_step_t;

#define MAX_STEPS 64
static button_step_t steps[MAX_STEPS];
static int step_count;

static int schedule(int button, int low, uint32_t after_us)
{
	if (step_count >= MAX_STEPS)
		return -1;
	steps[step_count].when = avr->cycle + avr_usec_to_cycles(avr, after_us);
	steps[step_count].button = button;
	steps[step_count].low = low;
	step_count++;
	return 0;
}

static void run_due_steps(void)
{
	int i = 0;
	while (i < step_count) {
		if (steps[i].when <= avr->cycle) {
			drive_button(steps[i].button, steps[i].low);
			steps[i] = steps[--step_count];
		} else {
			i++;
		}
	}
}

static int button_by_name(const char *name)
{
	for (int b = 0; b < BUTTON_COUNT; b++)
		if (strcmp(name, BUTTON_NAMES[b]) == 0)
			return b;
	if (name[0] >= '0' && name[0] < '0' + BUTTON_COUNT && name[1] == '\0')
		return name[0] - '0';
	return -1;
}

static void print_hex(const uint8_t *bytes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%02x", bytes[i]);
}

/* vram holds rows 0-3 at 0x00, 0x40, 0x14 and 0x54 (rows 2 and 3 of a 20x4 display
 * continue rows 0 and 1). */
static void print_display(const char *name, const hd44780_t *lcd)
{
	static const uint8_t row_address[4] = {0x00, 0x40, 0x14, 0x54};
	fprintf(out, " %s=", name);
	for (int row = 0; row < lcd->h; row++)
		print_hex(lcd->vram + row_address[row], (size_t)lcd->w);
}

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* A reset may rewind the cycle counter; time is measured from here on. */
static void restart_pacing(void)
{
	pace_cycle = avr->cycle;
	pace_start = now_us();
	next_slice = avr->cycle + slice;
}

/*
 * Emulated time: before simulated time moves on, let uart_pty's thread hand over what
 * the host has sent (bytes still in the pty, or read but not yet in the input FIFO), so
 * that in simulated time they arrive at once however late the thread is scheduled (the
 * prop's lines go to the pty directly, see tx_forward). Nothing is in flight while no
 * host has the pty open, and the host's bytes wait while the input FIFO is full (the
 * MCU needs time to read it); it gives up after 0.2 s of wall-clock time.
 */
static void settle_pty(void)
{
	uart_pty_port_t *port = &uart.pty;
	uint64_t give_up = now_us() + 200000u;
	while (now_us() < give_up) {
		struct pollfd pfd = {.fd = port->s, .events = POLLIN};
		int ready = poll(&pfd, 1, 0) > 0;
		if (ready && (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)))
			return;
		int from_host = ready && (pfd.revents & POLLIN) &&
				port->buffer_done >= port->buffer_len;
		/* The FIFO's cursors, as fifo_declare.h's isfull reads them. */
		volatile uart_pty_fifo_t *in = &port->in;
		int in_full = ((in->write + 1) & (uart_pty_fifo_fifo_size - 1)) == in->read;
		int unmoved = port->buffer_len <= sizeof(port->buffer) &&
			      port->buffer_done < port->buffer_len && !in_full;
		if (!from_host && !unmoved)
			return;
		usleep(50);
	}
}

static int command(char *line)
{
	char *words[3] = {0};
	int n = 0;
	for (char *tok = strtok(line, " \t\r"); tok && n < 3; tok = strtok(NULL, " \t\r"))
		words[n++] = tok;
	if (n == 0)
		return 1;
	const char *verb = words[0];
	if (strcmp(verb, "quit") == 0)
		return 0;
	if (strcmp(verb, "lcd") == 0) {
		fputs("lcd", out);
		print_display("main", &lcd_main);
		print_display("tag", &lcd_tag);
		fputc('\n', out);
	} else if (strcmp(verb, "digits") == 0) {
		fprintf(out, "digits on=%d seg=", tm_on);
		print_hex(tm_segments, 4);
		fputc('\n', out);
	} else if (strcmp(verb, "tones") == 0) {
		print_tones();
	} else if (strcmp(verb, "replies") == 0) {
		fprintf(out, "replies count=%u worst=%llu\n", replies_timed,
			(unsigned long long)worst_reply_us);
		replies_timed = 0;
		worst_reply_us = 0;
	} else if (strcmp(verb, "leds") == 0) {
		fputs("leds", out);
		for (int i = 0; i < LED_COUNT; i++)
			fprintf(out, " %s=%d", LED_NAMES[i], pin_output_level(LED_PINS[i]));
		fputc('\n', out);
	} else if (strcmp(verb, "time") == 0) {
		fprintf(out, "time %llu\n", (unsigned long long)sim_us());
	} else if (strcmp(verb, "wait") == 0) {
		char *end = NULL;
		long ms = words[1] ? strtol(words[1], &end, 10) : -1;
		if (!end || *end || ms < 0 || ms > 600000) {
			fputs("err wait needs 0-600000 ms\n", out);
		} else {
			if (emulated)
				settle_pty();
			waiting = 1;
			wait_until = avr->cycle + avr_usec_to_cycles(avr, 1000) * (avr_cycle_count_t)ms;
		}
	} else if (strcmp(verb, "drop") == 0 || strcmp(verb, "garble") == 0) {
		char *end = NULL;
		long n = words[1] ? strtol(words[1], &end, 10) : 1;
		if (words[1] && (*end || n < 0 || n > 1000)) {
			fprintf(out, "err %s needs a count 0-1000\n", verb);
		} else {
			*(verb[0] == 'd' ? &drop_btn_lines : &garble_lines) = (int)n;
			fputs("ok\n", out);
		}
	} else if (strcmp(verb, "reset") == 0) {
		step_count = 0;
		tx_forward(); /* a line cut short by the reset went out as far as it got */
		avr_reset(avr);
		tm_reset();
		restart_pacing();
		/* The reset cleared the PIN registers but not the IRQ values, and simavr only
		 * passes changes on: go low then high to bring released buttons back. */
		for (int b = 0; b < BUTTON_COUNT; b++) {
			drive_button(b, 1);
			drive_button(b, 0);
		}
		fputs("ok\n", out);
	} else if (strcmp(verb, "press") == 0 || strcmp(verb, "bounce") == 0 ||
		   strcmp(verb, "down") == 0 || strcmp(verb, "up") == 0) {
		int b = words[1] ? button_by_name(words[1]) : -1;
		if (b < 0) {
			fprintf(out, "err %s needs a button: deck, discard, slot1-3 or 0-4\n", verb);
		} else if (strcmp(verb, "down") == 0 || strcmp(verb, "up") == 0) {
			drive_button(b, verb[0] == 'd');
			fputs("ok\n", out);
		} else {
			long hold_ms = 80;
			if (words[2]) {
				char *end;
				hold_ms = strtol(words[2], &end, 10);
				if (*end || hold_ms < 1 || hold_ms > 60000) {
					fprintf(out, "err press time %s is not 1-60000 ms\n", words[2]);
					return 1;
				}
			}
			int bad = 0;
			drive_button(b, 1);
			if (verb[0] == 'b') {
				/* Chatter: 0.5 ms steps for 3 ms on the way down, again on the way up. */
				for (int k = 1; k <= 6; k++)
					bad |= schedule(b, k % 2 == 0, 500u * k);
				uint32_t up = 3000u + (uint32_t)hold_ms * 1000u;
				for (int k = 0; k <= 6; k++)
					bad |= schedule(b, k % 2 == 1 && k < 6, up + 500u * k);
			} else {
				bad |= schedule(b, 0, (uint32_t)hold_ms * 1000u);
			}
			fputs(bad ? "err too many scheduled presses\n" : "ok\n", out);
		}
	} else {
		fprintf(out, "err unknown command %s\n", verb);
	}
	return 1;
}

static char inbuf[256];
static size_t inlen;

/* Runs the buffered commands, stopping early while a "wait" is pending so that answers
 * stay in order. Returns 0 when it is time to quit. */
static int run_commands(void)
{
	char *nl;
	while (!waiting && (nl = memchr(inbuf, '\n', inlen)) != NULL) {
		*nl = '\0';
		size_t used = (size_t)(nl - inbuf) + 1;
		int keep = command(inbuf);
		inlen -= used;
		memmove(inbuf, inbuf + used, inlen);
		if (!keep)
			return 0;
	}
	fflush(out);
	return 1;
}

/* Emulated time: sleeps until stdin has a command and runs it; returns 0 when it is
 * time to quit. */
static int await_command(void);

/* Reads whatever stdin holds without blocking; returns 0 when it is time to quit. */
static int poll_stdin(void)
{
	if (waiting)
		return 1;
	if (inlen == sizeof(inbuf) - 1) {
		fputs("err command too long\n", out);
		inlen = 0;
	}
	struct pollfd pfd = {.fd = 0, .events = POLLIN};
	if (poll(&pfd, 1, 0) <= 0)
		return 1;
	ssize_t r = read(0, inbuf + inlen, sizeof(inbuf) - 1 - inlen);
	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
		return 0; /* end of input: the test has gone */
	if (r > 0)
		inlen += (size_t)r;
	return run_commands();
}

static int await_command(void)
{
	struct pollfd pfd = {.fd = 0, .events = POLLIN};
	if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
		return 0;
	return poll_stdin();
}

static void connect_lcd(hd44780_t *lcd, pin_t enable, int columns, int rows)
{
	hd44780_init(avr, lcd, columns, rows);
	avr_connect_irq(pin_irq(LCD_RS), lcd->irq + IRQ_HD44780_RS);
	avr_connect_irq(pin_irq(enable), lcd->irq + IRQ_HD44780_E);
	for (int i = 0; i < 4; i++)
		avr_connect_irq(pin_irq(LCD_DATA[i]), lcd->irq + IRQ_HD44780_D4 + i);
}

int main(int argc, char **argv)
{
	int verbose = 0;
	const char *link_path = NULL;
	double speed = 1.0;
	int opt;
	while ((opt = getopt(argc, argv, "vel:s:")) != -1) {
		switch (opt) {
		case 'v': verbose = 1; break;
		case 'e': emulated = 1; break;
		case 'l': link_path = optarg; break;
		case 's': speed = atof(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-v] [-e] [-l LINK] [-s SPEED] firmware.elf\n", argv[0]);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: %s [-v] [-e] [-l LINK] [-s SPEED] firmware.elf\n", argv[0]);
		return 2;
	}

	/* Answers go to the original stdout; simavr's printf chatter goes elsewhere. */
	int answer_fd = dup(1);
	out = answer_fd >= 0 ? fdopen(answer_fd, "w") : NULL;
	if (!out)
		fail("cannot duplicate stdout: %s", strerror(errno));
	int chatter = verbose ? dup(2) : open("/dev/null", O_WRONLY);
	if (chatter < 0 || dup2(chatter, 1) < 0)
		fail("cannot redirect simavr output: %s", strerror(errno));
	close(chatter);

	elf_firmware_t firmware;
	memset(&firmware, 0, sizeof(firmware));
	if (elf_read_firmware(argv[optind], &firmware) != 0)
		fail("cannot read firmware %s", argv[optind]);
	avr = avr_make_mcu_by_name(MCU_NAME);
	if (!avr)
		fail("simavr does not know %s", MCU_NAME);
	avr_init(avr);
	avr->frequency = MCU_FREQUENCY;
	/* While the firmware sleeps, simavr skips ahead to the next timer event and would
	 * sleep in real time itself; the loop below paces the run (at any -s speed). */
	avr->sleep = no_sleep;
	avr_load_firmware(avr, &firmware);

	/* D2 and D3 (the timer display's CLK, the buzzer) are INT0 and INT1. The firmware
	 * uses no external interrupts, but simavr emulates their default low-level trigger
	 * by polling a low pin every few cycles, which makes the whole simulation about five
	 * times slower. */
	avr_extint_set_strict_lvl_trig(avr, 0, 0);
	avr_extint_set_strict_lvl_trig(avr, 1, 0);

	connect_uart();
	if (uart.pty.slavename[0] == '\0')
		fail("no pty for UART0");
	if (link_path) {
		unlink(link_path);
		if (symlink(uart.pty.slavename, link_path) != 0)
			fail("cannot link %s: %s", link_path, strerror(errno));
	}

	connect_lcd(&lcd_main, LCD_E_MAIN, 16, 2);
	connect_lcd(&lcd_tag, LCD_E_TAG, 20, 4);
	connect_digits();
	avr_irq_register_notify(pin_irq(BUZZER), buzzer_hook, NULL);
	for (int b = 0; b < BUTTON_COUNT; b++)
		drive_button(b, 0);

	fprintf(out, "pty %s\nready\n", uart.pty.slavename);
	fflush(out);

	slice = avr_usec_to_cycles(avr, 1000);
	restart_pacing();
	for (;;) {
		if (emulated && !waiting) {
			/* Simulated time stands still until a "wait" lets it run. */
			if (!await_command())
				break;
			continue;
		}
		int state = avr_run(avr);
		if (state == cpu_Done || state == cpu_Crashed) {
			fprintf(stderr, "prop_harness: firmware %s\n",
				state == cpu_Done ? "stopped" : "crashed");
			break;
		}
		if (step_count)
			run_due_steps();
		if (avr->cycle < next_slice)
			continue;
		next_slice = avr->cycle + slice;
		if (waiting && avr->cycle >= wait_until) {
			waiting = 0;
			fputs("ok\n", out);
			if (!run_commands())
				break;
		}
		if (!poll_stdin())
			break;
		if (speed > 0 && !emulated) {
			/* Sleep off any lead over the wall clock, so firmware time is real time. */
			double paced_us = (double)(avr->cycle - pace_cycle) / ((double)avr->frequency / 1e6);
			double wall_us = (double)(now_us() - pace_start) * speed;
			if (paced_us > wall_us + 1000.0) {
				uint64_t lead = (uint64_t)((paced_us - wall_us) / speed);
				struct timespec ts = {.tv_sec = (time_t)(lead / 1000000u),
						      .tv_nsec = (long)(lead % 1000000u) * 1000L};
				nanosleep(&ts, NULL);
			}
		}
	}
	fflush(out);
	/* No uart_pty_stop(): it signals its thread with SIGINT, which ends the process
	 * with that signal; exiting closes the pty just the same. */
	char target[sizeof(uart.pty.slavename)];
	ssize_t n = readlink("/tmp/simavr-uart0", target, sizeof(target) - 1);
	if (n > 0) {
		/* uart_pty's own link, unless another simavr has taken it over since. */
		target[n] = '\0';
		if (strcmp(target, uart.pty.slavename) == 0)
			unlink("/tmp/simavr-uart0");
	}
	if (link_path)
		unlink(link_path);
	return 0;
}
