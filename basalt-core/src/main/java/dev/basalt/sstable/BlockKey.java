package dev.basalt.sstable;

/**
 * Names a data block in the {@link BlockCache}: the file (its description plus length and creation
 * time, so that a path reused for another file cannot hit the old file's blocks) and the block's
 * offset.
 */
record BlockKey(String file, long offset) {}
