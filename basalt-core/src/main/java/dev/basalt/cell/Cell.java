package dev.basalt.cell;

/**
 * One versioned value (or delete marker) of a column: the unit everything in Basalt stores, sorts,
 * logs and ships. The accessor names are HBase's, so code written against HBase's {@code Cell}
 * reads the same.
 *
 * <p>Components are exposed as (array, offset, length) triples so that hot paths compare and copy
 * without allocating. Callers must not modify the arrays. Implementations are immutable and safe to
 * share between threads.
 *
 * <p>The sequence id is the region-local commit number of the mutation that wrote the cell (0 for
 * cells that have not been committed yet). It is not part of the cell's bytes: it travels beside
 * them.
 */
public interface Cell {

  byte[] getRowArray();

  int getRowOffset();

  short getRowLength();

  byte[] getFamilyArray();

  int getFamilyOffset();

  byte getFamilyLength();

  byte[] getQualifierArray();

  int getQualifierOffset();

  int getQualifierLength();

  long getTimestamp();

  /** The raw type code; see {@link CellType}. */
  byte getTypeByte();

  long getSequenceId();

  byte[] getValueArray();

  int getValueOffset();

  int getValueLength();

  /**
   * The per-cell time to live in milliseconds (HBase's TTL tag), or {@link KeyValue#NO_TTL}. Like
   * the sequence id, it travels beside the cell's bytes.
   */
  default long getTtl() {
    return KeyValue.NO_TTL;
  }

  /** The type as an enum. */
  default CellType getType() {
    return CellType.fromCode(getTypeByte());
  }

  /** True when this cell is a delete marker of any kind. */
  default boolean isDelete() {
    return CellType.isDelete(getTypeByte());
  }
}
