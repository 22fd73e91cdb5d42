package dev.basalt.ops;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
import dev.basalt.filter.Filter;
import java.util.Map;
import java.util.NavigableSet;

/**
 * Reads a range of rows. Rows {@code [startRow, stopRow)} by default; an empty bound is unbounded.
 * For a reversed scan the start row is the upper bound (inclusive by default) and rows come in
 * descending order, each row's cells still in ascending order.
 *
 * <p>{@code batch} limits the cells per {@link Result} (a wide row then arrives in several partial
 * results); {@code limit} is the most rows returned. A raw scan returns delete markers and every
 * stored version up to {@code maxVersions}, ignoring the family's version limit.
 */
public class Scan extends Query {
  private byte[] startRow = Bytes.EMPTY;
  private boolean includeStartRow = true;
  private byte[] stopRow = Bytes.EMPTY;
  private boolean includeStopRow = false;
  private byte[] rowPrefix;
  private boolean reversed;
  private boolean raw;
  private int batch = -1;
  private int limit = -1;
  private int caching = -1;
  private long maxResultSize = -1;
  private boolean allowPartialResults;
  private long mvccReadPoint = -1;
  private boolean getScan;

  public Scan() {}

  /** The single-row scan that answers a Get. */
  public Scan(Get get) {
    this.startRow = get.getRow();
    this.stopRow = get.getRow();
    this.includeStopRow = true;
    this.getScan = true;
    this.filter = get.getFilter();
    this.maxVersions = get.getMaxVersions();
    this.timeRange = get.getTimeRange();
    this.familyTimeRanges.putAll(get.getColumnFamilyTimeRange());
    this.storeLimit = get.getMaxResultsPerColumnFamily();
    this.storeOffset = get.getRowOffsetPerColumnFamily();
    this.cacheBlocks = get.getCacheBlocks();
    this.isolationLevel = get.getIsolationLevel();
    for (Map.Entry<byte[], NavigableSet<byte[]>> e : get.getFamilyMap().entrySet()) {
      familyMap.put(
          e.getKey(), e.getValue() == null ? null : new java.util.TreeSet<>(e.getValue()));
    }
    for (Map.Entry<String, byte[]> a : get.getAttributesMap().entrySet()) {
      setAttribute(a.getKey(), a.getValue());
    }
  }

  /**
   * A copy of {@code other} (HBase's copy constructor): its own row bounds, columns, time ranges
   * and settings, sharing the filter object (filters keep state across the rows of one scan).
   */
  public Scan(Scan other) {
    this.startRow = other.startRow;
    this.includeStartRow = other.includeStartRow;
    this.stopRow = other.stopRow;
    this.includeStopRow = other.includeStopRow;
    this.rowPrefix = other.rowPrefix;
    this.reversed = other.reversed;
    this.raw = other.raw;
    this.batch = other.batch;
    this.limit = other.limit;
    this.caching = other.caching;
    this.maxResultSize = other.maxResultSize;
    this.allowPartialResults = other.allowPartialResults;
    this.mvccReadPoint = other.mvccReadPoint;
    this.getScan = other.getScan;
    this.filter = other.filter;
    this.maxVersions = other.maxVersions;
    this.timeRange = other.timeRange;
    this.familyTimeRanges.putAll(other.familyTimeRanges);
    this.storeLimit = other.storeLimit;
    this.storeOffset = other.storeOffset;
    this.cacheBlocks = other.cacheBlocks;
    this.isolationLevel = other.isolationLevel;
    for (Map.Entry<byte[], NavigableSet<byte[]>> e : other.familyMap.entrySet()) {
      familyMap.put(
          e.getKey(), e.getValue() == null ? null : new java.util.TreeSet<>(e.getValue()));
    }
    for (Map.Entry<String, byte[]> a : other.getAttributesMap().entrySet()) {
      setAttribute(a.getKey(), a.getValue());
    }
  }

  private static byte[] checkBound(byte[] row, String which) {
    if (row == null) {
      return Bytes.EMPTY;
    }
    if (row.length > KeyValue.MAX_ROW_LENGTH) {
      throw new IllegalArgumentException(
          which + " is " + row.length + " bytes; a row key is at most " + KeyValue.MAX_ROW_LENGTH);
    }
    return row;
  }

  public Scan withStartRow(byte[] row) {
    return withStartRow(row, true);
  }

  public Scan withStartRow(byte[] row, boolean inclusive) {
    this.startRow = checkBound(row, "start row");
    this.includeStartRow = inclusive;
    this.rowPrefix = null;
    return this;
  }

  public Scan withStopRow(byte[] row) {
    return withStopRow(row, false);
  }

  public Scan withStopRow(byte[] row, boolean inclusive) {
    this.stopRow = checkBound(row, "stop row");
    this.includeStopRow = inclusive;
    this.rowPrefix = null;
    return this;
  }

  /**
   * Reads only rows starting with {@code prefix}, in either direction (the bounds follow {@link
   * #setReversed}, whichever is called first). Replaces start and stop rows.
   */
  public Scan setRowPrefixFilter(byte[] prefix) {
    this.rowPrefix = prefix == null || prefix.length == 0 ? null : checkBound(prefix, "prefix");
    this.startRow = Bytes.EMPTY;
    this.stopRow = Bytes.EMPTY;
    this.includeStartRow = true;
    this.includeStopRow = false;
    return this;
  }

  public byte[] getStartRow() {
    if (rowPrefix == null) {
      return startRow;
    }
    return reversed ? Bytes.prefixEnd(rowPrefix) : rowPrefix;
  }

  public boolean includeStartRow() {
    return rowPrefix == null ? includeStartRow : !reversed;
  }

  public byte[] getStopRow() {
    if (rowPrefix == null) {
      return stopRow;
    }
    return reversed ? rowPrefix : Bytes.prefixEnd(rowPrefix);
  }

  public boolean includeStopRow() {
    return rowPrefix == null ? includeStopRow : reversed;
  }

  public Scan setReversed(boolean reversed) {
    this.reversed = reversed;
    return this;
  }

  public boolean isReversed() {
    return reversed;
  }

  public Scan setRaw(boolean raw) {
    this.raw = raw;
    return this;
  }

  public boolean isRaw() {
    return raw;
  }

  @Override
  public Scan addFamily(byte[] family) {
    addFamilyInternal(family);
    return this;
  }

  @Override
  public Scan addColumn(byte[] family, byte[] qualifier) {
    addColumnInternal(family, qualifier);
    return this;
  }

  public Scan setTimeRange(long min, long max) {
    setTimeRangeInternal(min, max);
    return this;
  }

  public Scan setTimestamp(long ts) {
    this.timeRange = TimeRange.at(ts);
    return this;
  }

  @Override
  public Scan setColumnFamilyTimeRange(byte[] family, long min, long max) {
    setFamilyTimeRangeInternal(family, min, max);
    return this;
  }

  public Scan readVersions(int versions) {
    readVersionsInternal(versions);
    return this;
  }

  public Scan readAllVersions() {
    this.maxVersions = Integer.MAX_VALUE;
    return this;
  }

  public Scan setFilter(Filter filter) {
    this.filter = filter;
    return this;
  }

  /** Most cells per result; a row with more arrives in several partial results. */
  public Scan setBatch(int batch) {
    if (batch == 0 || batch < -1) {
      throw new IllegalArgumentException("batch must be positive (or -1 for none), got " + batch);
    }
    this.batch = batch;
    return this;
  }

  public int getBatch() {
    return batch;
  }

  /** Most rows returned, or -1 for no limit. */
  public Scan setLimit(int limit) {
    if (limit == 0 || limit < -1) {
      throw new IllegalArgumentException("limit must be positive (or -1 for none), got " + limit);
    }
    this.limit = limit;
    return this;
  }

  public int getLimit() {
    return limit;
  }

  /** Rows fetched per round trip by remote clients; kept for the wire, no effect in-process. */
  public Scan setCaching(int caching) {
    this.caching = caching;
    return this;
  }

  public int getCaching() {
    return caching;
  }

  public Scan setMaxResultSize(long maxResultSize) {
    this.maxResultSize = maxResultSize;
    return this;
  }

  public long getMaxResultSize() {
    return maxResultSize;
  }

  public Scan setAllowPartialResults(boolean allow) {
    this.allowPartialResults = allow;
    return this;
  }

  public boolean getAllowPartialResults() {
    return allowPartialResults;
  }

  public Scan setMaxResultsPerColumnFamily(int limit) {
    setStoreLimitInternal(limit);
    return this;
  }

  public Scan setRowOffsetPerColumnFamily(int offset) {
    setStoreOffsetInternal(offset);
    return this;
  }

  public Scan setCacheBlocks(boolean cacheBlocks) {
    this.cacheBlocks = cacheBlocks;
    return this;
  }

  @Override
  public Scan setIsolationLevel(IsolationLevel level) {
    this.isolationLevel = level;
    return this;
  }

  /** Reads as of this MVCC read point instead of the current one (scans resumed by clients). */
  public Scan setMvccReadPoint(long readPoint) {
    this.mvccReadPoint = readPoint;
    return this;
  }

  public long getMvccReadPoint() {
    return mvccReadPoint;
  }

  /** True for the scan built from a Get. */
  public boolean isGetScan() {
    return getScan;
  }

  @Override
  public String toString() {
    return "Scan{start="
        + Bytes.toStringBinary(getStartRow())
        + (includeStartRow() ? "" : "(excl)")
        + ", stop="
        + Bytes.toStringBinary(getStopRow())
        + (includeStopRow() ? "(incl)" : "")
        + (reversed ? ", reversed" : "")
        + (raw ? ", raw" : "")
        + ", versions="
        + maxVersions
        + ", timeRange="
        + timeRange
        + "}";
  }
}
