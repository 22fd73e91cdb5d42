package dev.basalt.ops;

import dev.basalt.cell.Bytes;
import dev.basalt.filter.Filter;

/** Reads one row. By default: every family, the newest version of each column, all time. */
public class Get extends Query implements Row {
  private final byte[] row;
  private boolean checkExistenceOnly;

  public Get(byte[] row) {
    this.row = Mutation.checkRow(row);
  }

  @Override
  public byte[] getRow() {
    return row;
  }

  @Override
  public Get addFamily(byte[] family) {
    addFamilyInternal(family);
    return this;
  }

  @Override
  public Get addColumn(byte[] family, byte[] qualifier) {
    addColumnInternal(family, qualifier);
    return this;
  }

  public Get setTimeRange(long min, long max) {
    setTimeRangeInternal(min, max);
    return this;
  }

  public Get setTimestamp(long ts) {
    this.timeRange = TimeRange.at(ts);
    return this;
  }

  @Override
  public Get setColumnFamilyTimeRange(byte[] family, long min, long max) {
    setFamilyTimeRangeInternal(family, min, max);
    return this;
  }

  public Get readVersions(int versions) {
    readVersionsInternal(versions);
    return this;
  }

  public Get readAllVersions() {
    this.maxVersions = Integer.MAX_VALUE;
    return this;
  }

  public Get setFilter(Filter filter) {
    this.filter = filter;
    return this;
  }

  public Get setMaxResultsPerColumnFamily(int limit) {
    setStoreLimitInternal(limit);
    return this;
  }

  public Get setRowOffsetPerColumnFamily(int offset) {
    setStoreOffsetInternal(offset);
    return this;
  }

  public Get setCacheBlocks(boolean cacheBlocks) {
    this.cacheBlocks = cacheBlocks;
    return this;
  }

  @Override
  public Get setIsolationLevel(IsolationLevel level) {
    this.isolationLevel = level;
    return this;
  }

  /** Only report whether the row has any matching cell ({@link Result#getExists()}). */
  public Get setCheckExistenceOnly(boolean only) {
    this.checkExistenceOnly = only;
    return this;
  }

  public boolean isCheckExistenceOnly() {
    return checkExistenceOnly;
  }

  @Override
  public String toString() {
    return "Get{row=" + Bytes.toStringBinary(row) + ", families=" + familyMap.size() + "}";
  }
}
