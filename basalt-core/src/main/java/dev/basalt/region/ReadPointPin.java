package dev.basalt.region;

/**
 * One region as it was at a moment, held for a reader that opens later ({@link
 * Region#pinReadPoint}): its read point, the clock reading, and every store's memstores and files
 * (referenced, so compactions can replace them without archiving them; memstores lose nothing to
 * flushes). A scanner opened at the pin reads exactly those sources at that read point and judges
 * TTLs at that clock reading, so it returns what a scanner opened at that moment would have.
 * Thread-safe; closing twice is harmless.
 */
public final class ReadPointPin implements AutoCloseable {
  private final long readPoint;
  private final long now;
  private final java.util.Map<Store, Store.View> views;
  private final Region region;
  private boolean closed;

  ReadPointPin(Region region, long readPoint, long now, java.util.Map<Store, Store.View> views) {
    this.region = region;
    this.readPoint = readPoint;
    this.now = now;
    this.views = views;
  }

  /** What {@code store} held when the pin was taken (its files referenced until the pin closes). */
  Store.View view(Store store) {
    return views.get(store);
  }

  /** The region pinned (an instance: a region reopened under the same name is another). */
  Region region() {
    return region;
  }

  public long readPoint() {
    return readPoint;
  }

  /** The clock reading when the pin was taken. */
  public long now() {
    return now;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      views.forEach(Store::unpin);
    }
  }
}
