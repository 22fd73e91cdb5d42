package dev.basalt.region;

/**
 * A read point of one region held open ({@link Region#pinReadPoint}): until it is closed,
 * compactions keep every cell a reader at that point can see. Thread-safe; closing twice is
 * harmless.
 */
public final class ReadPointPin implements AutoCloseable {
  private final long readPoint;
  private final Runnable release;
  private boolean closed;

  ReadPointPin(long readPoint, Runnable release) {
    this.readPoint = readPoint;
    this.release = release;
  }

  public long readPoint() {
    return readPoint;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      release.run();
    }
  }
}
