package dev.basalt.server.protocol;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Append;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Durability;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Mutation;
import dev.basalt.ops.Put;
import dev.basalt.util.BasaltIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;

/**
 * Turns HBase's {@code MutationProto} into a basalt-core mutation. The cells come either inside the
 * message ({@code column_value}, what the sync client sends for single-row calls) or, when {@code
 * associated_cell_count} is set, from the request's cell block (batches): the caller hands over the
 * cell block's cells in order and this decoder takes exactly that many, so a batch stays aligned
 * even when one mutation is refused (see {@link #skipCells}).
 *
 * <p>Timestamps of {@code Long.MAX_VALUE} mean "the server's clock at commit", which the region
 * resolves. Increments carry 8-byte big-endian amounts. Attribute {@code _rr_} (one byte) turns off
 * returning results of increments and appends. Attribute {@code _ttl} (what {@code Mutation.setTTL}
 * sends: an 8-byte big-endian long, milliseconds) gives a Put's, Increment's or Append's cells a
 * per-cell TTL; on a Delete it is ignored, as HBase's server ignores it (the stock client refuses
 * {@code Delete.setTTL}). Nonces are not used yet: a retried increment whose first attempt
 * succeeded applies twice.
 *
 * <p>Errors are {@code DoNotRetryIOException}s naming the problem. Stateless.
 */
public final class MutationDecoder {
  static final String RETURN_RESULTS = "_rr_";
  static final String CELL_TTL = "_ttl";

  /** HBase's {@code Mutation.CONSUMED_CLUSTER_IDS}: the clusters an edit has passed through. */
  public static final String CLUSTER_IDS = "_cs.id";

  private MutationDecoder() {}

  /**
   * @param cellBlock the request cell block's cells not yet taken, in order (may be empty when the
   *     request has no cell block)
   */
  public static Mutation toMutation(MutationProto p, Iterator<Cell> cellBlock)
      throws BasaltIOException {
    if (!p.hasRow() || p.getRow().isEmpty()) {
      throw BasaltIOException.doNotRetry("a " + p.getMutateType() + " without a row");
    }
    byte[] row = p.getRow().toByteArray();
    long ts = p.hasTimestamp() ? p.getTimestamp() : KeyValue.LATEST_TIMESTAMP;
    try {
      Mutation m =
          switch (p.getMutateType()) {
            case PUT -> new Put(row, ts);
            case DELETE -> new Delete(row, ts);
            case INCREMENT -> new Increment(row);
            case APPEND -> new Append(row);
          };
      for (MutationProto.ColumnValue cv : p.getColumnValueList()) {
        byte[] family = cv.getFamily().toByteArray();
        for (MutationProto.ColumnValue.QualifierValue qv : cv.getQualifierValueList()) {
          addQualifierValue(m, family, qv, ts);
        }
      }
      int count = p.getAssociatedCellCount();
      for (int i = 0; i < count; i++) {
        if (!cellBlock.hasNext()) {
          throw BasaltIOException.doNotRetry(
              "the mutation of row "
                  + Bytes.toStringBinary(row)
                  + " announces "
                  + count
                  + " cells but the cell block ends after "
                  + i);
        }
        addCell(m, cellBlock.next());
      }
      if (p.hasDurability()) {
        m.setDurability(durability(p.getDurability()));
      }
      if (p.hasTimeRange()) {
        HBaseProtos.TimeRange tr = p.getTimeRange();
        if (m instanceof Increment inc) {
          inc.setTimeRange(QueryDecoder.from(tr), QueryDecoder.to(tr));
        } else if (m instanceof Append app) {
          app.setTimeRange(QueryDecoder.from(tr), QueryDecoder.to(tr));
        }
      }
      for (HBaseProtos.NameBytesPair a : p.getAttributeList()) {
        applyAttribute(m, a);
      }
      return m;
    } catch (IllegalArgumentException e) {
      throw BasaltIOException.doNotRetry("bad " + p.getMutateType() + ": " + e.getMessage());
    }
  }

  /** Takes a refused mutation's cells out of the cell block, keeping later mutations aligned. */
  public static void skipCells(MutationProto p, Iterator<Cell> cellBlock) {
    for (int i = 0; i < p.getAssociatedCellCount() && cellBlock.hasNext(); i++) {
      cellBlock.next();
    }
  }

  private static void applyAttribute(Mutation m, HBaseProtos.NameBytesPair a) {
    byte[] v = a.getValue().toByteArray();
    switch (a.getName()) {
      case RETURN_RESULTS -> {
        boolean rr = v.length == 0 || v[0] != 0;
        if (m instanceof Increment inc) {
          inc.setReturnResults(rr);
        } else if (m instanceof Append app) {
          app.setReturnResults(rr);
        }
      }
      case CELL_TTL -> {
        if (v.length != Long.BYTES) {
          throw new IllegalArgumentException(
              "attribute "
                  + CELL_TTL
                  + " (the per-cell TTL) must be an 8-byte long, got "
                  + v.length
                  + " bytes");
        }
        if (!(m instanceof Delete)) {
          m.setTTL(Bytes.toLong(v));
        }
      }
      case CLUSTER_IDS -> m.setClusterIds(clusterIds(v));
      default -> m.setAttribute(a.getName(), v);
    }
  }

  /** {@code _cs.id}: a 4-byte count, then per cluster its UUID's two halves (HBase's layout). */
  static List<UUID> clusterIds(byte[] v) {
    if (v.length < Integer.BYTES || (v.length - Integer.BYTES) % 16 != 0) {
      throw new IllegalArgumentException(
          "attribute " + CLUSTER_IDS + " (cluster ids) has a bad length of " + v.length + " bytes");
    }
    int n = Bytes.readInt(v, 0);
    if (n != (v.length - Integer.BYTES) / 16) {
      throw new IllegalArgumentException(
          "attribute "
              + CLUSTER_IDS
              + " announces "
              + n
              + " cluster ids in "
              + v.length
              + " bytes");
    }
    List<UUID> ids = new ArrayList<>(n);
    for (int i = 0, p = Integer.BYTES; i < n; i++, p += 16) {
      ids.add(new UUID(Bytes.readLong(v, p), Bytes.readLong(v, p + 8)));
    }
    return ids;
  }

  /** The {@code _cs.id} attribute value for {@code ids}. */
  public static byte[] clusterIdsAttribute(List<UUID> ids) {
    byte[] v = new byte[Integer.BYTES + 16 * ids.size()];
    int p = Bytes.putInt(v, 0, ids.size());
    for (UUID id : ids) {
      p = Bytes.putLong(v, p, id.getMostSignificantBits());
      p = Bytes.putLong(v, p, id.getLeastSignificantBits());
    }
    return v;
  }

  private static void addQualifierValue(
      Mutation m, byte[] family, MutationProto.ColumnValue.QualifierValue qv, long mutationTs) {
    byte[] q = qv.hasQualifier() ? qv.getQualifier().toByteArray() : Bytes.EMPTY;
    byte[] v = qv.hasValue() ? qv.getValue().toByteArray() : Bytes.EMPTY;
    long ts = qv.hasTimestamp() ? qv.getTimestamp() : mutationTs;
    if (m instanceof Put put) {
      put.addColumn(family, q, ts, v);
    } else if (m instanceof Delete d) {
      MutationProto.DeleteType type =
          qv.hasDeleteType() ? qv.getDeleteType() : MutationProto.DeleteType.DELETE_ONE_VERSION;
      switch (type) {
        case DELETE_ONE_VERSION -> {
          if (ts == KeyValue.LATEST_TIMESTAMP) {
            d.addColumn(family, q);
          } else {
            d.addColumn(family, q, ts);
          }
        }
        case DELETE_MULTIPLE_VERSIONS -> d.addColumns(family, q, ts);
        case DELETE_FAMILY -> d.addFamily(family, ts);
        case DELETE_FAMILY_VERSION -> d.addFamilyVersion(family, ts);
      }
    } else if (m instanceof Increment inc) {
      inc.addColumn(family, q, amount(v));
    } else {
      ((Append) m).addColumn(family, q, v);
    }
  }

  private static void addCell(Mutation m, Cell c) {
    if (!CellUtil.matchingRow(c, m.getRow())) {
      throw new IllegalArgumentException(
          "a cell of row "
              + Bytes.toStringBinary(CellUtil.cloneRow(c))
              + " in the mutation of row "
              + Bytes.toStringBinary(m.getRow()));
    }
    if (m instanceof Put put) {
      put.add(c);
    } else if (m instanceof Delete d) {
      d.add(c);
    } else if (m instanceof Increment inc) {
      inc.addColumn(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), amount(cloneValue(c)));
    } else {
      ((Append) m).addColumn(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), cloneValue(c));
    }
  }

  private static byte[] cloneValue(Cell c) {
    return CellUtil.cloneValue(c);
  }

  private static long amount(byte[] v) {
    if (v.length != Long.BYTES) {
      throw new IllegalArgumentException(
          "Field is not a long, it's " + v.length + " bytes wide (increments are 8-byte longs)");
    }
    return Bytes.toLong(v);
  }

  static Durability durability(ClientProtos.MutationProto.Durability d) {
    return switch (d) {
      case USE_DEFAULT -> Durability.USE_DEFAULT;
      case SKIP_WAL -> Durability.SKIP_WAL;
      case ASYNC_WAL -> Durability.ASYNC_WAL;
      case SYNC_WAL -> Durability.SYNC_WAL;
      case FSYNC_WAL -> Durability.FSYNC_WAL;
    };
  }
}
