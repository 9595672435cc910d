/**
 * What one part of a deck (a slide, layout, master, theme, a SmartArt's drawing) may hold before it
 * is read: its XML tree is built whole, and a tree of a million elements is a quarter of a gigabyte,
 * past an isolate's 128 MB. A real slide is well under a megabyte; one with a 100 × 100 table is
 * about 100,000 elements.
 */
export const PART_BUDGET = { bytes: 16 * 1_048_576, elements: 300_000 };
