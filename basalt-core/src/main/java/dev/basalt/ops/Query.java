package dev.basalt.ops;

import dev.basalt.cell.Bytes;
import dev.basalt.filter.Filter;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What Get and Scan share: the columns to read, versions, time ranges, filter, per-family limits.
 * Built in place like HBase's; the engine does not keep a reference once a read has started.
 */
public abstract class Query extends OperationWithAttributes {
  /** Family to requested qualifiers; a null set means the whole family. Empty map: all families. */
  protected final NavigableMap<byte[], NavigableSet<byte[]>> familyMap =
      new TreeMap<>(Bytes.COMPARATOR);

  protected TimeRange timeRange = TimeRange.allTime();
  protected final Map<byte[], TimeRange> familyTimeRanges = new TreeMap<>(Bytes.COMPARATOR);
  protected int maxVersions = 1;
  protected Filter filter;
  protected int storeLimit = -1;
  protected int storeOffset = 0;
  protected boolean cacheBlocks = true;
  protected IsolationLevel isolationLevel = IsolationLevel.READ_COMMITTED;

  /** Reads the whole family (replacing columns requested from it so far). */
  public abstract Query addFamily(byte[] family);

  /** Reads one column; as in HBase, this narrows a family that was added whole. */
  public abstract Query addColumn(byte[] family, byte[] qualifier);

  /** Reads {@code family} within [min, max) instead of the read's time range. */
  public abstract Query setColumnFamilyTimeRange(byte[] family, long min, long max);

  public abstract Query setIsolationLevel(IsolationLevel level);

  protected void addFamilyInternal(byte[] family) {
    familyMap.remove(Mutation.checkFamily(family));
    familyMap.put(family, null);
  }

  protected void addColumnInternal(byte[] family, byte[] qualifier) {
    NavigableSet<byte[]> set = familyMap.get(Mutation.checkFamily(family));
    if (set == null) {
      set = new TreeSet<>(Bytes.COMPARATOR);
      familyMap.put(family, set);
    }
    set.add(qualifier == null ? Bytes.EMPTY : qualifier);
  }

  protected void setTimeRangeInternal(long min, long max) {
    this.timeRange = TimeRange.between(min, max);
  }

  protected void readVersionsInternal(int versions) {
    if (versions < 1) {
      throw new IllegalArgumentException("versions must be at least 1, got " + versions);
    }
    this.maxVersions = versions;
  }

  public NavigableMap<byte[], NavigableSet<byte[]>> getFamilyMap() {
    return Collections.unmodifiableNavigableMap(familyMap);
  }

  public boolean hasFamilies() {
    return !familyMap.isEmpty();
  }

  public TimeRange getTimeRange() {
    return timeRange;
  }

  /** The time range for one family: its own if set, else the query's. */
  public TimeRange getTimeRange(byte[] family) {
    TimeRange tr = familyTimeRanges.get(family);
    return tr != null ? tr : timeRange;
  }

  public Map<byte[], TimeRange> getColumnFamilyTimeRange() {
    return Collections.unmodifiableMap(familyTimeRanges);
  }

  public int getMaxVersions() {
    return maxVersions;
  }

  public Filter getFilter() {
    return filter;
  }

  /** Most cells returned per family per row, or -1 for no limit. */
  public int getMaxResultsPerColumnFamily() {
    return storeLimit;
  }

  /** Cells skipped per family per row before any is returned. */
  public int getRowOffsetPerColumnFamily() {
    return storeOffset;
  }

  public boolean getCacheBlocks() {
    return cacheBlocks;
  }

  public IsolationLevel getIsolationLevel() {
    return isolationLevel;
  }

  protected void setStoreLimitInternal(int limit) {
    this.storeLimit = limit;
  }

  protected void setStoreOffsetInternal(int offset) {
    if (offset < 0) {
      throw new IllegalArgumentException("row offset per column family cannot be negative");
    }
    this.storeOffset = offset;
  }

  protected void setFamilyTimeRangeInternal(byte[] family, long min, long max) {
    familyTimeRanges.put(Mutation.checkFamily(family), TimeRange.between(min, max));
  }
}
