package dev.basalt.server.master;

import dev.basalt.db.Database;
import dev.basalt.db.TableNotFoundException;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The master's operations in standalone mode: each is the embedded database's own. */
public final class StandaloneAdmin implements ClusterAdmin {
  private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

  private final Database db;

  public StandaloneAdmin(Database db) {
    this.db = db;
  }

  @Override
  public void createNamespace(NamespaceDescriptor ns) throws IOException {
    db.createNamespace(ns);
  }

  @Override
  public void modifyNamespace(NamespaceDescriptor ns) throws IOException {
    db.modifyNamespace(ns);
  }

  @Override
  public void deleteNamespace(String name) throws IOException {
    db.deleteNamespace(name);
  }

  @Override
  public NamespaceDescriptor getNamespaceDescriptor(String name) throws IOException {
    return db.getNamespaceDescriptor(name);
  }

  @Override
  public List<NamespaceDescriptor> listNamespaceDescriptors() {
    return db.listNamespaceDescriptors();
  }

  @Override
  public List<String> listNamespaces() {
    return db.listNamespaces();
  }

  @Override
  public boolean tableExists(TableName name) {
    return db.tableExists(name);
  }

  @Override
  public List<TableDescriptor> listTables() {
    return db.listTables();
  }

  @Override
  public List<TableDescriptor> listTablesByNamespace(String namespace) throws IOException {
    return db.listTablesByNamespace(namespace);
  }

  @Override
  public TableDescriptor getDescriptor(TableName name) throws TableNotFoundException {
    return db.getDescriptor(name);
  }

  @Override
  public boolean isTableEnabled(TableName name) throws TableNotFoundException {
    return db.isTableEnabled(name);
  }

  @Override
  public boolean isTableDisabled(TableName name) throws TableNotFoundException {
    return db.isTableDisabled(name);
  }

  @Override
  public List<RegionInfo> getRegions(TableName name) throws TableNotFoundException {
    return db.getRegions(name);
  }

  @Override
  public CompletableFuture<Void> createTable(TableDescriptor desc, byte[][] splitKeys)
      throws IOException {
    db.createTable(desc, splitKeys);
    return DONE;
  }

  @Override
  public CompletableFuture<Void> deleteTable(TableName name) throws IOException {
    db.deleteTable(name);
    return DONE;
  }

  @Override
  public CompletableFuture<Void> truncateTable(TableName name, boolean preserveSplits)
      throws IOException {
    db.truncateTable(name, preserveSplits);
    return DONE;
  }

  @Override
  public CompletableFuture<Void> enableTable(TableName name) throws IOException {
    db.enableTable(name);
    return DONE;
  }

  @Override
  public CompletableFuture<Void> disableTable(TableName name) throws IOException {
    db.disableTable(name);
    return DONE;
  }

  @Override
  public CompletableFuture<Void> modifyTable(TableDescriptor desc) throws IOException {
    db.modifyTable(desc);
    return DONE;
  }

  @Override
  public CompletableFuture<Void> addColumnFamily(TableName name, ColumnFamilyDescriptor family)
      throws IOException {
    db.addColumnFamily(name, family);
    return DONE;
  }

  @Override
  public CompletableFuture<Void> deleteColumnFamily(TableName name, byte[] family)
      throws IOException {
    db.deleteColumnFamily(name, family);
    return DONE;
  }

  @Override
  public CompletableFuture<Void> modifyColumnFamily(TableName name, ColumnFamilyDescriptor family)
      throws IOException {
    db.modifyColumnFamily(name, family);
    return DONE;
  }

  @Override
  public void flush(TableName name) throws IOException {
    db.flush(name);
  }

  @Override
  public List<RegionInfo> splitRegion(byte[] regionName) throws IOException {
    return db.splitRegion(regionName);
  }

  @Override
  public List<RegionInfo> split(TableName name, byte[] splitRow) throws IOException {
    return db.split(name, splitRow);
  }

  @Override
  public RegionInfo mergeRegions(byte[] regionA, byte[] regionB) throws IOException {
    return db.mergeRegions(regionA, regionB);
  }
}
