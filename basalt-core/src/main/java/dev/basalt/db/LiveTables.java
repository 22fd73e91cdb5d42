package dev.basalt.db;

import dev.basalt.region.Region;
import dev.basalt.region.RegionClosedException;
import dev.basalt.schema.TableName;
import dev.basalt.util.Clock;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tables the database serves, by name, each an immutable {@link LiveTable} replaced whole by
 * table changes. An operation that finds its region closed (a table change is replacing it) waits
 * here for the replacement and routes again. Thread-safe.
 */
final class LiveTables {
  private final ConcurrentHashMap<TableName, LiveTable> tables = new ConcurrentHashMap<>();
  private final Object changed = new Object();
  private final Clock clock;
  private final long transitionWaitMillis;

  LiveTables(Clock clock, long transitionWaitMillis) {
    this.clock = clock;
    this.transitionWaitMillis = transitionWaitMillis;
  }

  /** The table, or null. */
  LiveTable get(TableName name) {
    return tables.get(name);
  }

  /**
   * @throws TableNotFoundException when there is no such table
   */
  LiveTable require(TableName name) throws TableNotFoundException {
    LiveTable t = tables.get(name);
    if (t == null) {
      throw new TableNotFoundException(name.getNameAsString());
    }
    return t;
  }

  /**
   * @throws TableNotFoundException when there is no such table
   * @throws TableNotEnabledException when it is disabled
   */
  LiveTable requireEnabled(TableName name) throws IOException {
    return require(name).requireEnabled();
  }

  void publish(LiveTable t) {
    tables.put(t.name(), t);
    signal();
  }

  void remove(TableName name) {
    tables.remove(name);
    signal();
  }

  private void signal() {
    synchronized (changed) {
      changed.notifyAll();
    }
  }

  /** The names of the tables, in no particular order. */
  List<TableName> names() {
    List<TableName> out = new ArrayList<>();
    for (LiveTable t : all()) {
      out.add(t.name());
    }
    return out;
  }

  Collection<LiveTable> all() {
    return tables.values();
  }

  /** Every open region of every table. */
  List<Region> openRegions() {
    List<Region> out = new ArrayList<>();
    for (LiveTable t : tables.values()) {
      for (ServedRegion r : t.regions().all()) {
        out.add(r.region());
      }
    }
    return out;
  }

  /** A deadline for {@link #awaitChange}: now plus the transition wait. */
  long deadline() {
    return clock.nanoTime() + transitionWaitMillis * 1_000_000L;
  }

  /**
   * Called when an operation found region {@code r} of {@code seen} closed: returns once the table
   * was replaced (the caller routes again), or rethrows {@code closed} when the region is closed
   * for good (its edit log failed: it is not closed, only failed) or nothing changed by the
   * deadline.
   */
  void awaitChange(LiveTable seen, ServedRegion r, RegionClosedException closed, long deadline)
      throws IOException {
    if (!r.region().isClosed()) {
      throw closed;
    }
    synchronized (changed) {
      while (tables.get(seen.name()) == seen) {
        long left = deadline - clock.nanoTime();
        if (left <= 0) {
          throw closed;
        }
        try {
          changed.wait(Math.max(1, Math.min(left / 1_000_000L, 100)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted waiting for table " + seen.name());
        }
      }
    }
  }
}
