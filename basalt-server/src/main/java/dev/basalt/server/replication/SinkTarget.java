package dev.basalt.server.replication;

import dev.basalt.ops.Mutation;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.util.List;

/**
 * Where a replication sink applies what it received: the cluster's normal write path. Returns only
 * once every mutation is durable (its WAL sync done), or throws; the source then ships the whole
 * batch again.
 */
public interface SinkTarget {
  /**
   * Applies the mutations (each carrying its original cells and cluster ids).
   *
   * @throws dev.basalt.db.TableNotFoundException when the table does not exist here
   */
  void apply(TableName table, List<Mutation> mutations) throws IOException;
}
