package dev.basalt.cell;

/**
 * A {@link KeyValue} with a per-cell time to live: the rare cell a mutation with {@code setTTL}
 * wrote. A subclass rather than a field of every KeyValue, so that the cells without one (nearly
 * all) stay as small as they were. Immutable.
 */
final class TtlKeyValue extends KeyValue {
  private final long ttl;

  TtlKeyValue(byte[] bytes, int offset, int length, long seqId, long ttl) {
    super(bytes, offset, length, seqId);
    this.ttl = ttl;
  }

  @Override
  public long getTtl() {
    return ttl;
  }

  @Override
  public String toString() {
    return super.toString() + "/ttl=" + ttl;
  }
}
