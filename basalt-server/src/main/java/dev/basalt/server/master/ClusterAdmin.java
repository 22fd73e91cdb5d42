package dev.basalt.server.master;

import dev.basalt.db.TableNotFoundException;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the master's RPCs act on: the catalog and the regions of a standalone database ({@link
 * StandaloneAdmin}) or of a cluster (the cluster master's catalog and region servers). Errors are
 * the engine's, carrying HBase's exception classes ({@link dev.basalt.db.TableNotFoundException},
 * ...). A table change checks and records the change inside the call (its errors are thrown there)
 * and returns a future that completes when the change is done: a created or enabled table's regions
 * are open, a disabled one's closed (a standalone database's futures are complete on return).
 */
public interface ClusterAdmin {
  // ---- namespaces ---------------------------------------------------------------------------

  void createNamespace(NamespaceDescriptor ns) throws IOException;

  void modifyNamespace(NamespaceDescriptor ns) throws IOException;

  void deleteNamespace(String name) throws IOException;

  NamespaceDescriptor getNamespaceDescriptor(String name) throws IOException;

  List<NamespaceDescriptor> listNamespaceDescriptors();

  List<String> listNamespaces();

  // ---- tables: reads ------------------------------------------------------------------------

  boolean tableExists(TableName name);

  List<TableDescriptor> listTables();

  List<TableDescriptor> listTablesByNamespace(String namespace) throws IOException;

  TableDescriptor getDescriptor(TableName name) throws TableNotFoundException;

  boolean isTableEnabled(TableName name) throws TableNotFoundException;

  boolean isTableDisabled(TableName name) throws TableNotFoundException;

  /** The table's regions, by start key (enabled or not). */
  List<RegionInfo> getRegions(TableName name) throws TableNotFoundException;

  // ---- tables: changes ----------------------------------------------------------------------

  /**
   * @param splitKeys null or empty for one region
   */
  CompletableFuture<Void> createTable(TableDescriptor desc, byte[][] splitKeys) throws IOException;

  CompletableFuture<Void> deleteTable(TableName name) throws IOException;

  CompletableFuture<Void> truncateTable(TableName name, boolean preserveSplits) throws IOException;

  CompletableFuture<Void> enableTable(TableName name) throws IOException;

  CompletableFuture<Void> disableTable(TableName name) throws IOException;

  CompletableFuture<Void> modifyTable(TableDescriptor desc) throws IOException;

  CompletableFuture<Void> addColumnFamily(TableName name, ColumnFamilyDescriptor family)
      throws IOException;

  CompletableFuture<Void> deleteColumnFamily(TableName name, byte[] family) throws IOException;

  CompletableFuture<Void> modifyColumnFamily(TableName name, ColumnFamilyDescriptor family)
      throws IOException;

  /** Writes every memstore of the table's regions to store files. */
  void flush(TableName name) throws IOException;

  /** Splits the region at its own split point. */
  List<RegionInfo> splitRegion(byte[] regionName) throws IOException;

  /** Splits the table's region holding {@code splitRow} at that row. */
  List<RegionInfo> split(TableName name, byte[] splitRow) throws IOException;

  RegionInfo mergeRegions(byte[] regionA, byte[] regionB) throws IOException;
}
