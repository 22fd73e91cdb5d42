package dev.basalt.wal;

/**
 * A place in one server's log: a segment's number and the byte offset of the next frame to read in
 * it (0: the segment's start, before its header). Replication keeps one per queue.
 *
 * @param segment the segment's number (the {@code N} of {@code wal-N})
 * @param offset the byte offset in that segment
 */
public record WalPosition(long segment, long offset) implements Comparable<WalPosition> {
  public WalPosition {
    if (segment < 0 || offset < 0) {
      throw new IllegalArgumentException(
          "a WAL position is never negative: " + segment + "@" + offset);
    }
  }

  /** The start of segment {@code segment}. */
  public static WalPosition startOf(long segment) {
    return new WalPosition(segment, 0);
  }

  @Override
  public int compareTo(WalPosition o) {
    int c = Long.compare(segment, o.segment);
    return c != 0 ? c : Long.compare(offset, o.offset);
  }

  @Override
  public String toString() {
    return Wal.segmentName(segment) + "@" + offset;
  }
}
