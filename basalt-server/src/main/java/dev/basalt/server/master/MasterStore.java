package dev.basalt.server.master;

import dev.basalt.cell.Bytes;
import dev.basalt.db.Database;
import dev.basalt.db.DatabaseSettings;
import dev.basalt.db.Table;
import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.Storage;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Durability;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the active master must not forget across a restart or a failover, kept in an embedded
 * database under {@code <root>/MasterData} (the engine's own log, flushes and crash recovery; its
 * directory lock lets one master at a time open it). Two kinds of rows in one table, {@code
 * basalt:master}, family {@code m}:
 *
 * <pre>
 * row                      column   value
 * r/&lt;encoded region&gt;     a        the region's assignment record (RegionAssignment.encode)
 * s/&lt;name&gt;               v        a setting or list: balancer, decommissioned
 * h/&lt;operation id&gt;       v        a split or merge in progress: its plan (Base64 of the command)
 * c/&lt;server name&gt;        v        a dead region server's recovery in progress: its next step
 * </pre>
 *
 * Every write is logged with SYNC_WAL before the master acts on it (sends the command it decided),
 * so after a crash the new master finds every transition it may have started. Thread-safe.
 */
final class MasterStore implements Closeable {
  static final String DIR = "MasterData";
  private static final TableName TABLE = TableName.valueOf("basalt", "master");
  private static final byte[] FAMILY = Bytes.toBytes("m");
  private static final byte[] RECORD = Bytes.toBytes("a");
  private static final byte[] VALUE = Bytes.toBytes("v");
  private static final String REGION_PREFIX = "r/";
  private static final String SETTING_PREFIX = "s/";
  private static final String PLAN_PREFIX = "h/";
  private static final String CRASH_PREFIX = "c/";

  private final Database db;
  private final Table table;

  private MasterStore(Database db) throws IOException {
    this.db = db;
    this.table = db.getTable(TABLE);
  }

  /** Opens (creating if needed) the store under the local directory {@code root}. */
  static MasterStore open(Path root) throws IOException {
    return open(new LocalStorage(root));
  }

  /**
   * Opens (creating if needed) the store under the root's {@code MasterData}. On HDFS its database
   * takes the log over from the previous master (lease recovery of its files, {@link
   * Database#open(Storage, Config, Clock)}): a previous master that is only paused cannot log
   * another transition when it resumes.
   */
  static MasterStore open(Storage root) throws IOException {
    // A small store: little cache, and no row cache.
    Config config =
        Config.builder()
            .set(DatabaseSettings.BLOCK_CACHE_FRACTION.key(), "0.01")
            .set(DatabaseSettings.ROW_CACHE_FRACTION.key(), "0")
            .set(DatabaseSettings.GLOBAL_MEMSTORE_FRACTION.key(), "0.05")
            .build();
    Database db = Database.open(root.at(DIR), config, Clock.system());
    try {
      if (!db.listNamespaces().contains(TABLE.getNamespaceAsString())) {
        db.createNamespace(NamespaceDescriptor.create(TABLE.getNamespaceAsString()).build());
      }
      if (!db.tableExists(TABLE)) {
        db.createTable(
            TableDescriptorBuilder.newBuilder(TABLE)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
                .build());
      }
      return new MasterStore(db);
    } catch (IOException | RuntimeException e) {
      db.close();
      throw e;
    }
  }

  /** Every region's assignment record, by encoded name. */
  Map<String, String> regions() throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : scan(REGION_PREFIX, RECORD).entrySet()) {
      out.put(e.getKey().substring(REGION_PREFIX.length()), e.getValue());
    }
    return out;
  }

  /** Writes the records of these regions (encoded name to record) durably, in one batch. */
  void putRegions(Map<String, String> records) throws IOException {
    if (records.isEmpty()) {
      return;
    }
    List<Put> puts = new ArrayList<>(records.size());
    for (Map.Entry<String, String> e : records.entrySet()) {
      puts.add(put(REGION_PREFIX + e.getKey(), RECORD, e.getValue()));
    }
    table.put(puts);
  }

  /** Forgets regions that no longer exist. */
  void deleteRegions(List<String> encodedNames) throws IOException {
    if (encodedNames.isEmpty()) {
      return;
    }
    List<Delete> deletes = new ArrayList<>(encodedNames.size());
    for (String name : encodedNames) {
      Delete d = new Delete(Bytes.toBytes(REGION_PREFIX + name));
      d.setDurability(Durability.SYNC_WAL);
      deletes.add(d);
    }
    table.delete(deletes);
  }

  /** The split and merge plans in progress, by operation id (their command, Base64). */
  Map<Long, String> plans() throws IOException {
    Map<Long, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : scan(PLAN_PREFIX, VALUE).entrySet()) {
      out.put(Long.parseLong(e.getKey().substring(PLAN_PREFIX.length())), e.getValue());
    }
    return out;
  }

  void putPlan(long op, String plan) throws IOException {
    table.put(put(PLAN_PREFIX + op, VALUE, plan));
  }

  void deletePlan(long op) throws IOException {
    deleteRow(PLAN_PREFIX + op);
  }

  /** The dead servers' recoveries in progress: server name to the step to run next. */
  Map<String, String> recoveries() throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : scan(CRASH_PREFIX, VALUE).entrySet()) {
      out.put(e.getKey().substring(CRASH_PREFIX.length()), e.getValue());
    }
    return out;
  }

  void putRecovery(String server, String step) throws IOException {
    table.put(put(CRASH_PREFIX + server, VALUE, step));
  }

  void deleteRecovery(String server) throws IOException {
    deleteRow(CRASH_PREFIX + server);
  }

  private void deleteRow(String row) throws IOException {
    Delete d = new Delete(Bytes.toBytes(row));
    d.setDurability(Durability.SYNC_WAL);
    table.delete(d);
  }

  /** A stored setting, or null. */
  String setting(String name) throws IOException {
    Result r = table.get(new dev.basalt.ops.Get(Bytes.toBytes(SETTING_PREFIX + name)));
    byte[] v = r.getValue(FAMILY, VALUE);
    return v == null ? null : Bytes.toString(v);
  }

  void putSetting(String name, String value) throws IOException {
    table.put(put(SETTING_PREFIX + name, VALUE, value));
  }

  private static Put put(String row, byte[] qualifier, String value) {
    Put p = new Put(Bytes.toBytes(row)).addColumn(FAMILY, qualifier, Bytes.toBytes(value));
    p.setDurability(Durability.SYNC_WAL);
    return p;
  }

  private Map<String, String> scan(String prefix, byte[] qualifier) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    Scan scan =
        new Scan()
            .withStartRow(Bytes.toBytes(prefix))
            .withStopRow(Bytes.toBytes(prefix.substring(0, prefix.length() - 1) + "0"));
    try (dev.basalt.db.ResultScanner rs = table.getScanner(scan)) {
      for (Result r = rs.next(); r != null; r = rs.next()) {
        byte[] v = r.getValue(FAMILY, qualifier);
        if (v != null) {
          out.put(Bytes.toString(r.getRow()), Bytes.toString(v));
        }
      }
    }
    return out;
  }

  @Override
  public void close() throws IOException {
    db.close();
  }
}
