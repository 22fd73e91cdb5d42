package dev.basalt.sstable;

import dev.basalt.cell.Cell;
import dev.basalt.schema.BloomType;
import dev.basalt.schema.Compression;

/**
 * What a finished store file holds, from its file info block and trailer: key range, time range,
 * sequence ids, counts and how it was written. Returned by {@link StoreFileWriter#finish} and
 * {@link StoreFileReader#info}. Immutable and thread-safe.
 */
public final class StoreFileInfo {
  private final FileInfoBlock fi;
  private final long fileSize;
  private final long dataBlockCount;
  private final int indexLevels;
  private final int formatVersion;

  StoreFileInfo(
      FileInfoBlock fi, long fileSize, long dataBlockCount, int indexLevels, int formatVersion) {
    this.fi = fi;
    this.fileSize = fileSize;
    this.dataBlockCount = dataBlockCount;
    this.indexLevels = indexLevels;
    this.formatVersion = formatVersion;
  }

  /** The first cell's key (empty value, with its sequence id); null when the file has no cells. */
  public Cell firstKey() {
    return fi.firstKey();
  }

  /** The last cell's key (empty value, with its sequence id); null when the file has no cells. */
  public Cell lastKey() {
    return fi.lastKey();
  }

  /** The smallest cell timestamp; {@code Long.MAX_VALUE} when the file has no cells. */
  public long minTimestamp() {
    return fi.minTimestamp();
  }

  /** The largest cell timestamp; {@code Long.MIN_VALUE} when the file has no cells. */
  public long maxTimestamp() {
    return fi.maxTimestamp();
  }

  /** The sequence id the writer's caller recorded: every edit up to it is in this file or older. */
  public long maxSequenceId() {
    return fi.maxSequenceId();
  }

  public long cellCount() {
    return fi.cellCount();
  }

  /** Delete markers of all four types. */
  public long deleteMarkerCount() {
    return fi.deleteMarkerCount();
  }

  /** DeleteFamily and DeleteFamilyVersion markers. */
  public long deleteFamilyMarkerCount() {
    return fi.deleteFamilyMarkerCount();
  }

  public boolean majorCompacted() {
    return fi.majorCompacted();
  }

  public BloomType bloomType() {
    return fi.bloomType();
  }

  /** The compression the data blocks were written with (a block that would not shrink is raw). */
  public Compression compression() {
    return fi.compression();
  }

  public int blockSize() {
    return fi.blockSize();
  }

  /** When the writer was created, ms since the epoch, by the writer's clock. */
  public long creationTime() {
    return fi.creationTime();
  }

  /** Names of the files this one replaced (a compaction's inputs); empty for a flush. */
  public java.util.List<String> compactedFrom() {
    return fi.compactedFrom();
  }

  public long fileSize() {
    return fileSize;
  }

  public long dataBlockCount() {
    return dataBlockCount;
  }

  /** Levels of the block index: 1 when the root points at data blocks. */
  public int indexLevels() {
    return indexLevels;
  }

  /** The format version the file was written with (docs/formats/storefile.md). */
  public int formatVersion() {
    return formatVersion;
  }

  FileInfoBlock block() {
    return fi;
  }

  @Override
  public String toString() {
    return "StoreFileInfo{cells="
        + cellCount()
        + ", deletes="
        + deleteMarkerCount()
        + ", seq<="
        + maxSequenceId()
        + ", ts=["
        + minTimestamp()
        + ", "
        + maxTimestamp()
        + "], first="
        + firstKey()
        + ", last="
        + lastKey()
        + ", blocks="
        + dataBlockCount
        + ", indexLevels="
        + indexLevels
        + ", size="
        + fileSize
        + ", "
        + compression()
        + ", bloom="
        + bloomType()
        + (majorCompacted() ? ", major" : "")
        + "}";
  }
}
