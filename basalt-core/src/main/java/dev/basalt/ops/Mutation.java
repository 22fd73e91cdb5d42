package dev.basalt.ops;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A change to one row: the cells to write, grouped by family. Mutations are built like HBase's
 * (fluent, changed in place until submitted); the engine copies what it keeps, so an operation can
 * be reused once the call that took it returns. Not thread-safe while being built.
 */
public abstract class Mutation extends OperationWithAttributes implements Row {
  /** No nonce (HBase's HConstants.NO_NONCE). */
  public static final long NO_NONCE = 0;

  protected final byte[] row;
  protected long ts = KeyValue.LATEST_TIMESTAMP;
  protected Durability durability = Durability.USE_DEFAULT;
  protected final NavigableMap<byte[], List<Cell>> familyMap = new TreeMap<>(Bytes.COMPARATOR);
  private long nonceGroup;
  private long nonce = NO_NONCE;
  private long ttl = KeyValue.NO_TTL;
  private List<UUID> clusterIds = List.of();

  protected Mutation(byte[] row, long ts) {
    this.row = checkRow(row);
    this.ts = checkTimestamp(ts);
  }

  /**
   * Checks a row key as every operation does.
   *
   * @throws IllegalArgumentException for a null, empty or over-long row
   */
  public static byte[] checkRow(byte[] row) {
    if (row == null) {
      throw new IllegalArgumentException("row key is null");
    }
    if (row.length == 0) {
      throw new IllegalArgumentException("row key is empty");
    }
    if (row.length > KeyValue.MAX_ROW_LENGTH) {
      throw new IllegalArgumentException(
          "row key is "
              + row.length
              + " bytes, longer than the limit of "
              + KeyValue.MAX_ROW_LENGTH);
    }
    return row;
  }

  static long checkTimestamp(long ts) {
    if (ts < 0) {
      throw new IllegalArgumentException("timestamp cannot be negative: " + ts);
    }
    return ts;
  }

  static byte[] checkFamily(byte[] family) {
    if (family == null) {
      throw new IllegalArgumentException("column family is null");
    }
    return family;
  }

  @Override
  public byte[] getRow() {
    return row;
  }

  /** The timestamp used for cells added without one. */
  public long getTimestamp() {
    return ts;
  }

  public Durability getDurability() {
    return durability;
  }

  public Mutation setDurability(Durability d) {
    this.durability = d;
    return this;
  }

  /**
   * Tags the mutation with the client's nonce (HBase's client gives one to every increment and
   * append, and sends it again when it retries): the region logs it with the edit, so that a server
   * that replays the log after a crash still knows the operation was applied.
   */
  public Mutation setNonce(long nonceGroup, long nonce) {
    this.nonceGroup = nonceGroup;
    this.nonce = nonce;
    return this;
  }

  public long getNonceGroup() {
    return nonceGroup;
  }

  /** The client's nonce, or {@link #NO_NONCE}. */
  public long getNonce() {
    return nonce;
  }

  /**
   * Gives every cell this mutation writes a time to live of {@code ttl} milliseconds from its
   * timestamp (HBase's {@code Mutation.setTTL}, which the stock client sends as attribute {@code
   * _ttl}): the cell expires once {@code timestamp + ttl} is before now, and is then treated as if
   * it had never been written. It can only shorten the family's TTL. {@link KeyValue#NO_TTL} (the
   * default) sets none. Puts, increments and appends only; see docs/SEMANTICS.md.
   */
  public Mutation setTTL(long ttl) {
    this.ttl = ttl;
    return this;
  }

  /**
   * The per-cell TTL in milliseconds given to this mutation's cells, or {@link KeyValue#NO_TTL}.
   */
  public long getTTL() {
    return ttl;
  }

  /**
   * Records the clusters this edit has already passed through, origin first (HBase's {@code
   * Mutation.setClusterIds}, sent as attribute {@code _cs.id}). A replication sink sets them; the
   * edit's log entry keeps them, and replication never ships it to a cluster in the list, which is
   * what keeps master-master pairs and rings from looping.
   */
  public Mutation setClusterIds(List<UUID> clusterIds) {
    this.clusterIds = List.copyOf(clusterIds);
    return this;
  }

  /** The clusters this edit has passed through, origin first; empty for a client's own write. */
  public List<UUID> getClusterIds() {
    return clusterIds;
  }

  /** Cells by family, families in byte order; cells in the order they were added. */
  public NavigableMap<byte[], List<Cell>> getFamilyCellMap() {
    return Collections.unmodifiableNavigableMap(familyMap);
  }

  public boolean isEmpty() {
    return familyMap.isEmpty();
  }

  public int size() {
    int n = 0;
    for (List<Cell> cells : familyMap.values()) {
      n += cells.size();
    }
    return n;
  }

  /** The cells of one column, in the order they were added. */
  public List<Cell> get(byte[] family, byte[] qualifier) {
    List<Cell> out = new ArrayList<>();
    List<Cell> cells = familyMap.get(family);
    if (cells != null) {
      for (Cell c : cells) {
        if (CellUtil.matchingQualifier(c, qualifier)) {
          out.add(c);
        }
      }
    }
    return out;
  }

  protected void addCell(byte[] family, Cell cell) {
    familyMap.computeIfAbsent(family, f -> new ArrayList<>()).add(cell);
  }

  protected KeyValue newCell(
      byte[] family, byte[] qualifier, long timestamp, CellType type, byte[] value) {
    checkFamily(family);
    checkTimestamp(timestamp);
    return KeyValue.of(
        row, family, qualifier == null ? Bytes.EMPTY : qualifier, timestamp, type, value);
  }

  /** Adds a cell built elsewhere; it must belong to this row. */
  protected void addChecked(Cell cell) {
    if (!CellUtil.matchingRow(cell, row)) {
      throw new IllegalArgumentException(
          "cell row "
              + Bytes.toStringBinary(CellUtil.cloneRow(cell))
              + " does not match the mutation's row "
              + Bytes.toStringBinary(row));
    }
    checkTimestamp(cell.getTimestamp());
    addCell(CellUtil.cloneFamily(cell), KeyValue.copyOf(cell));
  }

  @Override
  public String toString() {
    StringBuilder sb =
        new StringBuilder(getClass().getSimpleName())
            .append("{row=")
            .append(Bytes.toStringBinary(row));
    for (Map.Entry<byte[], List<Cell>> e : familyMap.entrySet()) {
      sb.append(", ").append(e.getValue());
    }
    return sb.append('}').toString();
  }
}
