package dev.basalt.region.model;

import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;

/**
 * One committed cell of the model's history: a put or a delete marker, carrying the sequence id of
 * the mutation that wrote it, plus the position at which it was written. {@code order} grows with
 * every cell the model stores, so between two cells of one mutation (equal sequence id) the one
 * added later has the larger order; "later write" in the rules below always means larger {@code
 * (seq, order)}, which is the same as larger {@code order}.
 */
public record StoredCell(KeyValue cell, long seq, long order) {

  public long ts() {
    return cell.getTimestamp();
  }

  public CellType type() {
    return cell.getType();
  }

  /** The per-cell TTL in ms (HBase's TTL tag), {@link KeyValue#NO_TTL} for none. */
  public long ttl() {
    return cell.getTtl();
  }

  public boolean hasTtl() {
    return cell.getTtl() != KeyValue.NO_TTL;
  }

  public boolean isPut() {
    return cell.getType() == CellType.PUT;
  }

  public boolean isFamilyMarker() {
    return type() == CellType.DELETE_FAMILY || type() == CellType.DELETE_FAMILY_VERSION;
  }

  public boolean inFamily(byte[] family) {
    return CellUtil.matchingFamily(cell, family);
  }

  public boolean hasQualifier(byte[] qualifier) {
    return CellUtil.matchingQualifier(cell, qualifier);
  }

  public byte[] qualifier() {
    return CellUtil.cloneQualifier(cell);
  }

  @Override
  public String toString() {
    return cell + "/order=" + order;
  }
}
