package dev.basalt.ops;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import java.util.List;

/**
 * Deletes from one row by writing delete markers. With no family added it deletes the whole row (a
 * family delete on every family). The five shapes are HBase's:
 *
 * <ul>
 *   <li>{@link #addFamily(byte[], long)}: every column of the family with timestamp &lt;= ts;
 *   <li>{@link #addFamilyVersion}: every column of the family with timestamp exactly ts;
 *   <li>{@link #addColumns(byte[], byte[], long)}: every version of the column &lt;= ts;
 *   <li>{@link #addColumn(byte[], byte[], long)}: the version of the column at exactly ts;
 *   <li>{@link #addColumn(byte[], byte[])}: the column's latest version, resolved at commit.
 * </ul>
 */
public class Delete extends Mutation {

  /** Deletes the whole row as of the server's clock at commit (unless families are added). */
  public Delete(byte[] row) {
    super(row, KeyValue.LATEST_TIMESTAMP);
  }

  /** Deletes everything in the row with timestamp &lt;= {@code ts}, unless families are added. */
  public Delete(byte[] row, long ts) {
    super(row, ts);
  }

  public Delete addFamily(byte[] family) {
    return addFamily(family, ts);
  }

  /**
   * Deletes all columns of the family with timestamp &lt;= {@code timestamp}. As in HBase, this
   * replaces the markers added for this family so far.
   */
  public Delete addFamily(byte[] family, long timestamp) {
    KeyValue kv = newCell(family, null, timestamp, CellType.DELETE_FAMILY, new byte[0]);
    List<Cell> list = familyMap.get(family);
    if (list != null) {
      list.clear();
    }
    addCell(family, kv);
    return this;
  }

  public Delete addFamilyVersion(byte[] family, long timestamp) {
    addCell(
        checkFamily(family),
        newCell(family, null, timestamp, CellType.DELETE_FAMILY_VERSION, new byte[0]));
    return this;
  }

  public Delete addColumns(byte[] family, byte[] qualifier) {
    return addColumns(family, qualifier, ts);
  }

  public Delete addColumns(byte[] family, byte[] qualifier, long timestamp) {
    addCell(
        checkFamily(family),
        newCell(family, qualifier, timestamp, CellType.DELETE_COLUMN, new byte[0]));
    return this;
  }

  /** Deletes the latest version of the column (or the version at the Delete's timestamp). */
  public Delete addColumn(byte[] family, byte[] qualifier) {
    return addColumn(family, qualifier, ts);
  }

  public Delete addColumn(byte[] family, byte[] qualifier, long timestamp) {
    addCell(
        checkFamily(family), newCell(family, qualifier, timestamp, CellType.DELETE, new byte[0]));
    return this;
  }

  /**
   * Adds a prepared delete marker of this row.
   *
   * @throws IllegalArgumentException when the cell belongs to another row or is not a marker
   */
  public Delete add(Cell cell) {
    if (!cell.isDelete()) {
      throw new IllegalArgumentException(
          "a Delete can only carry delete markers, not " + cell.getType());
    }
    addChecked(cell);
    return this;
  }

  @Override
  public Delete setDurability(Durability d) {
    super.setDurability(d);
    return this;
  }

  /**
   * Not supported, as in HBase: a delete marker has no time to live.
   *
   * @throws UnsupportedOperationException always
   */
  @Override
  public Delete setTTL(long ttl) {
    throw new UnsupportedOperationException("Setting TTLs on Deletes is not supported");
  }
}
