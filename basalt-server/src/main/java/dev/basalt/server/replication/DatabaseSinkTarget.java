package dev.basalt.server.replication;

import dev.basalt.db.Database;
import dev.basalt.db.TableNotFoundException;
import dev.basalt.ops.Mutation;
import dev.basalt.region.OperationStatus;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.util.List;

/** A standalone server's sink target: the embedded database's tables. */
public final class DatabaseSinkTarget implements SinkTarget {
  private final Database db;

  public DatabaseSinkTarget(Database db) {
    this.db = db;
  }

  @Override
  public void apply(TableName table, List<Mutation> mutations) throws IOException {
    List<OperationStatus> statuses = db.getTable(table).batch(mutations);
    for (OperationStatus s : statuses) {
      if (!s.isSuccess()) {
        throw s.getException();
      }
    }
  }

  /** A table's descriptor, or null when it does not exist. */
  public static TableDescriptor descriptorOrNull(Database db, TableName name) {
    try {
      return db.getTable(name).getDescriptor();
    } catch (TableNotFoundException e) {
      return null;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
