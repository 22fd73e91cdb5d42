package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Append;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Mutation;
import dev.basalt.ops.Put;
import dev.basalt.ops.Query;
import dev.basalt.ops.Row;
import dev.basalt.ops.RowMutations;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.util.BasaltIOException;
import java.util.List;
import java.util.Map;

/**
 * The checks an operation must pass before it takes any lock or changes anything: the row belongs
 * to the region, the families exist, cells fit, the mutation is not empty. Thread-safe.
 */
final class MutationValidator {
  private final RegionInfo region;
  private final TableDescriptor table;
  private final long maxCellSize;

  MutationValidator(RegionInfo region, TableDescriptor table, long maxCellSize) {
    this.region = region;
    this.table = table;
    this.maxCellSize = maxCellSize;
  }

  void check(Row op) throws BasaltIOException {
    check(op, true);
  }

  /**
   * @param families whether to check that the families exist; a check-and-mutate's action is
   *     checked for them only once its condition holds ({@link #checkFamilies}), because HBase
   *     answers a failed condition with "not applied" even when the action names a missing family
   */
  private void check(Row op, boolean families) throws BasaltIOException {
    checkRow(op.getRow(), op.getClass().getSimpleName());
    if (table.isReadOnly()) {
      throw new InvalidMutationException("table " + table.getTableName() + " is read-only");
    }
    if (op instanceof Mutation) {
      checkMutation((Mutation) op, families);
    } else if (op instanceof RowMutations) {
      List<Mutation> ms = ((RowMutations) op).getMutations();
      if (ms.isEmpty()) {
        throw new InvalidMutationException(
            "RowMutations for row " + Bytes.toStringBinary(op.getRow()) + " holds no mutation");
      }
      for (Mutation m : ms) {
        checkMutation(m, families);
      }
    } else if (op instanceof CheckAndMutate) {
      CheckAndMutate cam = (CheckAndMutate) op;
      if (!cam.hasFilter()) {
        checkFamily(cam.getFamily());
      }
      check(cam.getAction(), false);
    } else {
      throw new InvalidMutationException(
          "unsupported operation " + op.getClass().getName() + " in a mutation batch");
    }
  }

  /** Checks that every family a Put, Delete, Increment, Append or RowMutations names exists. */
  void checkFamilies(Row action) throws NoSuchColumnFamilyException {
    List<Mutation> ms =
        action instanceof RowMutations rm ? rm.getMutations() : List.of((Mutation) action);
    for (Mutation m : ms) {
      for (byte[] family : m.getFamilyCellMap().keySet()) {
        checkFamily(family);
      }
    }
  }

  void checkRow(byte[] row, String what) throws WrongRegionException {
    if (!region.containsRow(row)) {
      throw new WrongRegionException(
          what
              + " for row "
              + Bytes.toStringBinary(row)
              + " is outside region "
              + region.getRegionNameAsString()
              + " [startKey='"
              + Bytes.toStringBinary(region.getStartKey())
              + "', endKey='"
              + Bytes.toStringBinary(region.getEndKey())
              + "')");
    }
  }

  void checkFamily(byte[] family) throws NoSuchColumnFamilyException {
    if (!table.hasColumnFamily(family)) {
      throw new NoSuchColumnFamilyException(
          "column family "
              + Bytes.toStringBinary(family)
              + " does not exist in table "
              + table.getTableName()
              + " (region "
              + region.getEncodedName()
              + "); the table has "
              + familyList());
    }
  }

  private String familyList() {
    StringBuilder sb = new StringBuilder();
    for (byte[] f : table.getColumnFamilyNames()) {
      sb.append(sb.length() == 0 ? "" : ", ").append(Bytes.toStringBinary(f));
    }
    return sb.toString();
  }

  void checkQuery(Query q) throws NoSuchColumnFamilyException {
    for (byte[] f : q.getFamilyMap().keySet()) {
      checkFamily(f);
    }
    for (byte[] f : q.getColumnFamilyTimeRange().keySet()) {
      checkFamily(f);
    }
  }

  private void checkMutation(Mutation m, boolean families) throws BasaltIOException {
    String kind = m.getClass().getSimpleName();
    if (m.isEmpty() && (m instanceof Put || m instanceof Increment || m instanceof Append)) {
      throw new InvalidMutationException(
          kind + " for row " + Bytes.toStringBinary(m.getRow()) + " has no columns");
    }
    for (Map.Entry<byte[], List<Cell>> e : m.getFamilyCellMap().entrySet()) {
      if (families) {
        checkFamily(e.getKey());
      }
      if (maxCellSize > 0) {
        for (Cell c : e.getValue()) {
          long size = ((KeyValue) c).getLength();
          if (size > maxCellSize) {
            throw new InvalidMutationException(
                kind
                    + " for row "
                    + Bytes.toStringBinary(m.getRow())
                    + " has a cell of "
                    + size
                    + " bytes, over the limit of "
                    + maxCellSize
                    + " (hbase.server.keyvalue.maxsize)");
          }
        }
      }
    }
  }
}
