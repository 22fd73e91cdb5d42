package dev.basalt.sstable;

/**
 * Names a data block in the {@link BlockCache}: the file (its description plus length and creation
 * time, so that a path reused for another file cannot hit the old file's blocks) and the block's
 * offset. Every lookup of a block builds one, so equality is written out: the record's generated
 * methods went through method handles that showed in profiles of cached gets.
 */
record BlockKey(String file, long offset) {
  @Override
  public boolean equals(Object o) {
    return o instanceof BlockKey k && k.offset == offset && k.file.equals(file);
  }

  @Override
  public int hashCode() {
    return 31 * file.hashCode() + Long.hashCode(offset);
  }
}
