package dev.basalt.server.replication;

import dev.basalt.db.ClusterCatalog;
import dev.basalt.db.TableNotFoundException;
import dev.basalt.fs.Storage;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Table descriptors as a cluster's region server sees them for replication: read from the root's
 * storage ({@code .tabledesc}), kept for a few seconds (a source asks for every edit), so a change
 * of a family's replication scope applies within that time. Null for a table that does not exist.
 * Thread-safe.
 */
public final class StoredDescriptors implements Function<TableName, TableDescriptor> {
  private static final long TTL_MILLIS = 2_000;

  private record Cached(TableDescriptor descriptor, long readAt) {}

  private final Storage storage;
  private final ConcurrentHashMap<TableName, Cached> cache = new ConcurrentHashMap<>();

  public StoredDescriptors(Storage storage) {
    this.storage = storage;
  }

  @Override
  public TableDescriptor apply(TableName name) {
    long now = System.currentTimeMillis();
    Cached c = cache.get(name);
    if (c != null && now - c.readAt() < TTL_MILLIS) {
      return c.descriptor();
    }
    TableDescriptor d;
    try {
      d = ClusterCatalog.readDescriptor(storage, name);
    } catch (TableNotFoundException e) {
      d = null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    cache.put(name, new Cached(d, now));
    return d;
  }
}
