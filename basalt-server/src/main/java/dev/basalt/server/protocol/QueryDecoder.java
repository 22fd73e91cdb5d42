package dev.basalt.server.protocol;

import dev.basalt.ops.Get;
import dev.basalt.ops.IsolationLevel;
import dev.basalt.ops.Query;
import dev.basalt.ops.Scan;
import dev.basalt.util.BasaltIOException;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * Turns HBase's {@code Get} and {@code Scan} messages (Client.proto) into basalt-core's operations:
 * columns, time ranges (whole read and per family), versions, filters, per-family limit and offset,
 * existence-only gets, scan bounds with their inclusive flags, reversed, batch, limits, result
 * size, the mvcc read point of a reopened scanner, and the attributes HBase's server reads ({@code
 * _isolationlevel_}, {@code _raw_}). A {@code Get} is a point read; consistency TIMELINE is served
 * as STRONG (Basalt has no read replicas; results are never stale).
 *
 * <p>Bad requests (the removed closest-row-before get, negative versions, limits the operations
 * reject) become {@code DoNotRetryIOException}s naming the field. Stateless.
 */
public final class QueryDecoder {
  static final String ISOLATION_LEVEL = "_isolationlevel_";
  static final String RAW = "_raw_";

  private QueryDecoder() {}

  public static Get toGet(ClientProtos.Get p) throws BasaltIOException {
    if (p.getClosestRowBefore()) {
      throw BasaltIOException.doNotRetry(
          "Get.closest_row_before is no longer supported (HBase removed it); use a reversed scan");
    }
    try {
      Get g = new Get(p.getRow().toByteArray());
      columns(g, p.getColumnList());
      if (p.hasTimeRange()) {
        HBaseProtos.TimeRange tr = p.getTimeRange();
        g.setTimeRange(from(tr), to(tr));
      }
      familyTimeRanges(g, p.getCfTimeRangeList());
      g.readVersions(p.getMaxVersions());
      if (p.hasFilter()) {
        g.setFilter(FilterDecoder.decode(p.getFilter()));
      }
      if (p.hasStoreLimit()) {
        g.setMaxResultsPerColumnFamily(p.getStoreLimit());
      }
      if (p.hasStoreOffset()) {
        g.setRowOffsetPerColumnFamily(p.getStoreOffset());
      }
      g.setCacheBlocks(p.getCacheBlocks());
      g.setCheckExistenceOnly(p.getExistenceOnly());
      for (HBaseProtos.NameBytesPair a : p.getAttributeList()) {
        byte[] value = a.getValue().toByteArray();
        if (a.getName().equals(ISOLATION_LEVEL)) {
          g.setIsolationLevel(isolation(value));
        }
        g.setAttribute(a.getName(), value);
      }
      return g;
    } catch (IllegalArgumentException e) {
      throw BasaltIOException.doNotRetry("bad Get: " + e.getMessage());
    }
  }

  public static Scan toScan(ClientProtos.Scan p) throws BasaltIOException {
    try {
      Scan s = new Scan();
      if (p.hasStartRow()) {
        s.withStartRow(p.getStartRow().toByteArray(), p.getIncludeStartRow());
      }
      if (p.hasStopRow()) {
        s.withStopRow(p.getStopRow().toByteArray(), p.getIncludeStopRow());
      }
      s.setReversed(p.getReversed());
      columns(s, p.getColumnList());
      if (p.hasTimeRange()) {
        HBaseProtos.TimeRange tr = p.getTimeRange();
        s.setTimeRange(from(tr), to(tr));
      }
      familyTimeRanges(s, p.getCfTimeRangeList());
      s.readVersions(p.getMaxVersions());
      if (p.hasFilter()) {
        s.setFilter(FilterDecoder.decode(p.getFilter()));
      }
      if (p.hasBatchSize()) {
        s.setBatch(p.getBatchSize());
      }
      if (p.hasMaxResultSize()) {
        s.setMaxResultSize(p.getMaxResultSize());
      }
      if (p.hasStoreLimit()) {
        s.setMaxResultsPerColumnFamily(p.getStoreLimit());
      }
      if (p.hasStoreOffset()) {
        s.setRowOffsetPerColumnFamily(p.getStoreOffset());
      }
      if (p.hasCaching()) {
        s.setCaching(p.getCaching());
      }
      s.setAllowPartialResults(p.getAllowPartialResults());
      s.setCacheBlocks(p.getCacheBlocks());
      if (p.hasMvccReadPoint() && p.getMvccReadPoint() > 0) {
        s.setMvccReadPoint(p.getMvccReadPoint());
      }
      for (HBaseProtos.NameBytesPair a : p.getAttributeList()) {
        byte[] value = a.getValue().toByteArray();
        if (a.getName().equals(ISOLATION_LEVEL)) {
          s.setIsolationLevel(isolation(value));
        } else if (a.getName().equals(RAW)) {
          s.setRaw(value.length > 0 && value[0] != 0);
        }
        s.setAttribute(a.getName(), value);
      }
      return s;
    } catch (IllegalArgumentException e) {
      throw BasaltIOException.doNotRetry("bad Scan: " + e.getMessage());
    }
  }

  private static void columns(Query q, List<ClientProtos.Column> columns) {
    for (ClientProtos.Column c : columns) {
      byte[] family = c.getFamily().toByteArray();
      if (c.getQualifierCount() == 0) {
        q.addFamily(family);
      }
      for (ByteString qualifier : c.getQualifierList()) {
        q.addColumn(family, qualifier.toByteArray());
      }
    }
  }

  private static void familyTimeRanges(Query q, List<HBaseProtos.ColumnFamilyTimeRange> ranges) {
    for (HBaseProtos.ColumnFamilyTimeRange cf : ranges) {
      q.setColumnFamilyTimeRange(
          cf.getColumnFamily().toByteArray(), from(cf.getTimeRange()), to(cf.getTimeRange()));
    }
  }

  /** HBase encodes the isolation level as one byte: 0 read committed, 1 read uncommitted. */
  private static IsolationLevel isolation(byte[] v) {
    if (v.length == 1 && v[0] == 1) {
      return IsolationLevel.READ_UNCOMMITTED;
    }
    if (v.length == 1 && v[0] == 0) {
      return IsolationLevel.READ_COMMITTED;
    }
    throw new IllegalArgumentException(
        "attribute " + ISOLATION_LEVEL + " must be one byte, 0 or 1, not " + v.length + " bytes");
  }

  static long from(HBaseProtos.TimeRange tr) {
    return tr.hasFrom() ? tr.getFrom() : 0L;
  }

  static long to(HBaseProtos.TimeRange tr) {
    return tr.hasTo() ? tr.getTo() : Long.MAX_VALUE;
  }
}
