package dev.basalt.region;

/**
 * A read point of one region held open ({@link Region#pinReadPoint}): until it is closed,
 * compactions keep every cell a reader at that point can see. It also holds the time it was taken,
 * which a scanner opened at the pin uses to judge TTLs, so that a table scan reaching this region
 * later sees its cells as they were when the scan started. Thread-safe; closing twice is harmless.
 */
public final class ReadPointPin implements AutoCloseable {
  private final long readPoint;
  private final long pinnedAtMillis;
  private final Runnable release;
  private boolean closed;

  ReadPointPin(long readPoint, long pinnedAtMillis, Runnable release) {
    this.readPoint = readPoint;
    this.pinnedAtMillis = pinnedAtMillis;
    this.release = release;
  }

  public long readPoint() {
    return readPoint;
  }

  /** The wall-clock time the pin was taken. */
  public long pinnedAtMillis() {
    return pinnedAtMillis;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      release.run();
    }
  }
}
