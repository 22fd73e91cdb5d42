package dev.basalt.ops;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;

/**
 * Writes cells to one row. Cells added without a timestamp take the Put's timestamp, which defaults
 * to "the server's clock at commit".
 */
public class Put extends Mutation {

  public Put(byte[] row) {
    super(row, dev.basalt.cell.KeyValue.LATEST_TIMESTAMP);
  }

  /** A Put whose cells default to timestamp {@code ts}. */
  public Put(byte[] row, long ts) {
    super(row, ts);
  }

  public Put addColumn(byte[] family, byte[] qualifier, byte[] value) {
    return addColumn(family, qualifier, ts, value);
  }

  public Put addColumn(byte[] family, byte[] qualifier, long timestamp, byte[] value) {
    addCell(
        checkFamily(family),
        newCell(family, qualifier, timestamp, CellType.PUT, value == null ? new byte[0] : value));
    return this;
  }

  /**
   * Adds a prepared cell of this row.
   *
   * @throws IllegalArgumentException when the cell belongs to another row or is not a put
   */
  public Put add(Cell cell) {
    if (cell.getTypeByte() != CellType.PUT.code()) {
      throw new IllegalArgumentException("a Put can only carry Put cells, not " + cell.getType());
    }
    addChecked(cell);
    return this;
  }

  /** True when the Put has a cell for the column. */
  public boolean has(byte[] family, byte[] qualifier) {
    return !get(family, qualifier).isEmpty();
  }

  @Override
  public Put setDurability(Durability d) {
    super.setDurability(d);
    return this;
  }

  @Override
  public Put setTTL(long ttl) {
    super.setTTL(ttl);
    return this;
  }
}
