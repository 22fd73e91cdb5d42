package dev.basalt.server.master;

import dev.basalt.db.ClusterCatalog;
import dev.basalt.db.TableNotDisabledException;
import dev.basalt.db.TableNotEnabledException;
import dev.basalt.db.TableNotFoundException;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.master.RegionAssignment.State;
import dev.basalt.server.rpc.RpcClient;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.FlushRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.FlushRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MasterSwitchType;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's operations in cluster mode: the change is made in the catalog ({@link
 * ClusterCatalog}, one atomic step, where its precondition errors are thrown) and the assignment
 * manager then brings the regions there; the returned future completes when it did (a created or
 * enabled table's regions open, a disabled one's closed, a modified one's reopened). Flushes go to
 * the region servers holding the table's regions.
 *
 * <p>Splits and merges: the master plans them (a split row from the region server when none is
 * given) and the region server hands the regions over ({@link AssignmentManager#split}). Automatic
 * splits by size are not done in cluster mode yet. Thread-safe.
 */
final class ClusterMasterAdmin implements ClusterAdmin, RegionServerStatusHandlers.SplitRequests {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterMasterAdmin.class);
  private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(60);
  private static final long HAND_OVER_WAIT_SECONDS = 60;

  private final ClusterCatalog catalog;
  private final AssignmentManager assignment;
  private final RpcClient client;
  private final SplitMergeSwitches switches;

  ClusterMasterAdmin(
      ClusterCatalog catalog,
      AssignmentManager assignment,
      RpcClient client,
      SplitMergeSwitches switches) {
    this.catalog = catalog;
    this.assignment = assignment;
    this.client = client;
    this.switches = switches;
  }

  // ---- namespaces ---------------------------------------------------------------------------

  @Override
  public void createNamespace(NamespaceDescriptor ns) throws IOException {
    catalog.createNamespace(ns);
  }

  @Override
  public void modifyNamespace(NamespaceDescriptor ns) throws IOException {
    catalog.modifyNamespace(ns);
  }

  @Override
  public void deleteNamespace(String name) throws IOException {
    catalog.deleteNamespace(name);
  }

  @Override
  public NamespaceDescriptor getNamespaceDescriptor(String name) throws IOException {
    return catalog.getNamespaceDescriptor(name);
  }

  @Override
  public List<NamespaceDescriptor> listNamespaceDescriptors() {
    return catalog.listNamespaceDescriptors();
  }

  @Override
  public List<String> listNamespaces() {
    List<String> out = new ArrayList<>();
    for (NamespaceDescriptor d : catalog.listNamespaceDescriptors()) {
      out.add(d.getName());
    }
    return out;
  }

  // ---- tables: reads ------------------------------------------------------------------------

  @Override
  public boolean tableExists(TableName name) {
    return catalog.table(name) != null;
  }

  @Override
  public List<TableDescriptor> listTables() {
    List<TableDescriptor> out = new ArrayList<>();
    for (ClusterCatalog.TableEntry t : catalog.tables()) {
      out.add(t.descriptor());
    }
    return out;
  }

  @Override
  public List<TableDescriptor> listTablesByNamespace(String namespace) throws IOException {
    catalog.getNamespaceDescriptor(namespace); // NamespaceNotFoundException when missing
    List<TableDescriptor> out = new ArrayList<>();
    for (ClusterCatalog.TableEntry t : catalog.tables()) {
      if (t.name().getNamespaceAsString().equals(namespace)) {
        out.add(t.descriptor());
      }
    }
    return out;
  }

  @Override
  public TableDescriptor getDescriptor(TableName name) throws TableNotFoundException {
    return catalog.requireTable(name).descriptor();
  }

  @Override
  public boolean isTableEnabled(TableName name) throws TableNotFoundException {
    return catalog.requireTable(name).enabled();
  }

  @Override
  public boolean isTableDisabled(TableName name) throws TableNotFoundException {
    return !catalog.requireTable(name).enabled();
  }

  @Override
  public List<RegionInfo> getRegions(TableName name) throws TableNotFoundException {
    return catalog.requireTable(name).regionInfos();
  }

  // ---- tables: changes ----------------------------------------------------------------------

  @Override
  public CompletableFuture<Void> createTable(TableDescriptor desc, byte[][] splitKeys)
      throws IOException {
    catalog.createTable(desc, splitKeys);
    return assignment.awaitOpen(desc.getTableName());
  }

  @Override
  public CompletableFuture<Void> deleteTable(TableName name) throws IOException {
    requireClosed(name, "deleted");
    catalog.deleteTable(name);
    assignment.kick(); // forgets its regions
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<Void> truncateTable(TableName name, boolean preserveSplits)
      throws IOException {
    requireClosed(name, "truncated");
    catalog.truncateTable(name, preserveSplits);
    return assignment.awaitOpen(name);
  }

  /** A disabled table whose regions no server serves any more (its disable has finished). */
  private void requireClosed(TableName name, String toBe) throws IOException {
    ClusterCatalog.TableEntry t = catalog.requireTable(name);
    if (t.enabled()) {
      throw new TableNotDisabledException(
          "table '" + name.getNameAsString() + "' is enabled; disable it before it can be " + toBe);
    }
    if (!assignment.awaitClosed(name).isDone()) {
      throw new TableNotDisabledException(
          "table '"
              + name.getNameAsString()
              + "' is still being disabled (regions are closing); retry when it is disabled");
    }
  }

  @Override
  public CompletableFuture<Void> enableTable(TableName name) throws IOException {
    if (catalog.requireTable(name).enabled()) {
      throw new TableNotDisabledException(
          "table '" + name.getNameAsString() + "' is already enabled");
    }
    catalog.setEnabled(name, true, Map.of());
    return assignment.awaitOpen(name);
  }

  @Override
  public CompletableFuture<Void> disableTable(TableName name) throws IOException {
    if (!catalog.requireTable(name).enabled()) {
      throw new TableNotEnabledException(
          "table '" + name.getNameAsString() + "' is already disabled");
    }
    catalog.setEnabled(name, false, Map.of());
    return assignment.awaitClosed(name);
  }

  @Override
  public CompletableFuture<Void> modifyTable(TableDescriptor desc) throws IOException {
    ClusterCatalog.TableEntry t = catalog.modifyTable(desc);
    return t.enabled()
        ? assignment.reopen(desc.getTableName())
        : CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<Void> addColumnFamily(TableName name, ColumnFamilyDescriptor family)
      throws IOException {
    TableDescriptor old = catalog.requireTable(name).descriptor();
    if (old.hasColumnFamily(family.getName())) {
      throw new dev.basalt.db.InvalidFamilyOperationException(
          "column family '"
              + family.getNameAsString()
              + "' in table '"
              + name.getNameAsString()
              + "' already exists so cannot be added");
    }
    return modifyTable(TableDescriptorBuilder.newBuilder(old).setColumnFamily(family).build());
  }

  @Override
  public CompletableFuture<Void> deleteColumnFamily(TableName name, byte[] family)
      throws IOException {
    TableDescriptor old = catalog.requireTable(name).descriptor();
    if (!old.hasColumnFamily(family)) {
      throw new dev.basalt.db.InvalidFamilyOperationException(
          "column family '"
              + new String(family, java.nio.charset.StandardCharsets.UTF_8)
              + "' does not exist in table '"
              + name.getNameAsString()
              + "', so it cannot be deleted");
    }
    if (old.getColumnFamilyCount() == 1) {
      throw new dev.basalt.db.InvalidFamilyOperationException(
          "column family '"
              + new String(family, java.nio.charset.StandardCharsets.UTF_8)
              + "' is the only column family of table '"
              + name.getNameAsString()
              + "', so it cannot be deleted");
    }
    return modifyTable(TableDescriptorBuilder.newBuilder(old).removeColumnFamily(family).build());
  }

  @Override
  public CompletableFuture<Void> modifyColumnFamily(TableName name, ColumnFamilyDescriptor family)
      throws IOException {
    TableDescriptor old = catalog.requireTable(name).descriptor();
    if (!old.hasColumnFamily(family.getName())) {
      throw new dev.basalt.db.InvalidFamilyOperationException(
          "column family '"
              + family.getNameAsString()
              + "' does not exist in table '"
              + name.getNameAsString()
              + "', so it cannot be modified");
    }
    return modifyTable(TableDescriptorBuilder.newBuilder(old).modifyColumnFamily(family).build());
  }

  @Override
  public void flush(TableName name) throws IOException {
    ClusterCatalog.TableEntry t = catalog.requireTable(name);
    if (!t.enabled()) {
      throw new TableNotEnabledException("table '" + name.getNameAsString() + "' is disabled");
    }
    Map<String, RegionAssignment> states = assignment.snapshot();
    List<CompletableFuture<FlushRegionResponse>> flushes = new ArrayList<>();
    for (RegionInfo r : t.regionInfos()) {
      RegionAssignment a = states.get(r.getEncodedName());
      if (a == null || a.state() != State.OPEN) {
        continue; // not open: nothing in memory to flush
      }
      ServerName server = a.location();
      flushes.add(
          client.callAsync(
              RpcRegionCommands.address(server),
              AdminService.getDescriptor(),
              "FlushRegion",
              FlushRegionRequest.newBuilder()
                  .setRegion(
                      RegionSpecifier.newBuilder()
                          .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
                          .setValue(ByteString.copyFrom(r.getRegionName())))
                  .build(),
              FlushRegionResponse.getDefaultInstance(),
              FLUSH_TIMEOUT));
    }
    try {
      CompletableFuture.allOf(flushes.toArray(new CompletableFuture<?>[0])).join();
    } catch (java.util.concurrent.CompletionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof IOException io
          ? io
          : new IOException("flush of " + name + " failed: " + cause, cause);
    }
  }

  @Override
  public List<RegionInfo> splitRegion(byte[] regionName) throws IOException {
    String encoded = ClusterPlacement.encodedName(regionName);
    RegionInfo region = regionNamed(encoded);
    requireAllowed(region.getTable(), TableDescriptor.SPLIT_ENABLED, "splits");
    RegionAssignment a = assignment.snapshot().get(encoded);
    if (a == null || a.state() != State.OPEN) {
      throw BasaltIOException.doNotRetry(
          "region " + encoded + " is not open (it may be moving); split it once it is");
    }
    GetRegionInfoResponse info =
        client.call(
            RpcRegionCommands.address(a.location()),
            AdminService.getDescriptor(),
            "GetRegionInfo",
            GetRegionInfoRequest.newBuilder()
                .setRegion(
                    RegionSpecifier.newBuilder()
                        .setType(RegionSpecifier.RegionSpecifierType.ENCODED_REGION_NAME)
                        .setValue(ByteString.copyFromUtf8(encoded)))
                .setBestSplitRow(true)
                .build(),
            GetRegionInfoResponse.getDefaultInstance(),
            FLUSH_TIMEOUT);
    if (!info.hasBestSplitRow() || info.getBestSplitRow().isEmpty()) {
      throw BasaltIOException.doNotRetry(
          "region " + encoded + " has no split point (too little data, or one row)");
    }
    return waitFor(assignment.split(encoded, info.getBestSplitRow().toByteArray()), "split");
  }

  /**
   * A region server asks to split a region that outgrew its maximum size (HBase's READY_TO_SPLIT):
   * started as a split on request is, unless splits are off (the switch, or the table's
   * SPLIT_ENABLED) or the region is not open on that server; does not wait for it.
   */
  @Override
  public void splitRequested(ServerName server, RegionInfo parent, byte[] row) throws IOException {
    switches.require(MasterSwitchType.SPLIT, "Split region " + parent.getRegionNameAsString());
    requireAllowed(parent.getTable(), TableDescriptor.SPLIT_ENABLED, "splits");
    RegionAssignment a = assignment.snapshot().get(parent.getEncodedName());
    if (a == null || a.state() != State.OPEN || !server.equals(a.location())) {
      throw BasaltIOException.doNotRetry(
          "region " + parent.getEncodedName() + " is not open on " + server + " (any more)");
    }
    assignment
        .split(parent.getEncodedName(), row)
        .whenComplete(
            (news, e) -> {
              if (e != null) {
                LOG.warn("the split of {} that {} asked for failed", parent, server, e);
              } else {
                LOG.info("split {} into {} as {} asked", parent, news, server);
              }
            });
  }

  @Override
  public List<RegionInfo> split(TableName name, byte[] splitRow) throws IOException {
    requireAllowed(name, TableDescriptor.SPLIT_ENABLED, "splits");
    for (RegionInfo r : catalog.requireTable(name).regionInfos()) {
      if (r.containsRow(splitRow)) {
        return waitFor(assignment.split(r.getEncodedName(), splitRow), "split");
      }
    }
    throw BasaltIOException.doNotRetry("table " + name + " has no region holding the split row");
  }

  @Override
  public RegionInfo mergeRegions(byte[] regionA, byte[] regionB) throws IOException {
    String a = ClusterPlacement.encodedName(regionA);
    String b = ClusterPlacement.encodedName(regionB);
    requireAllowed(regionNamed(a).getTable(), TableDescriptor.MERGE_ENABLED, "merges");
    requireMergeable(a);
    requireMergeable(b);
    return waitFor(assignment.merge(a, b), "merge").get(0);
  }

  /**
   * Asks the region's server whether it can merge, as HBase's merge procedure does, so that the
   * caller learns why not (a region still reading a split's or merge's files, until a compaction
   * rewrites them) rather than a failed hand-over.
   */
  private void requireMergeable(String encoded) throws IOException {
    RegionAssignment a = assignment.snapshot().get(encoded);
    if (a == null || a.state() != State.OPEN) {
      return; // the merge refuses it with HBase's message
    }
    GetRegionInfoResponse info =
        client.call(
            RpcRegionCommands.address(a.location()),
            AdminService.getDescriptor(),
            "GetRegionInfo",
            GetRegionInfoRequest.newBuilder()
                .setRegion(
                    RegionSpecifier.newBuilder()
                        .setType(RegionSpecifier.RegionSpecifierType.ENCODED_REGION_NAME)
                        .setValue(ByteString.copyFromUtf8(encoded)))
                .build(),
            GetRegionInfoResponse.getDefaultInstance(),
            FLUSH_TIMEOUT);
    if (info.hasMergeable() && !info.getMergeable()) {
      throw new BasaltIOException(
          "Skip merging region "
              + encoded
              + ": it still reads files of the region it was split or merged from (a reference);"
              + " a major compaction of it rewrites them",
          "org.apache.hadoop.hbase.exceptions.MergeRegionException",
          true);
    }
  }

  private RegionInfo regionNamed(String encoded) throws IOException {
    for (ClusterCatalog.TableEntry t : catalog.tables()) {
      for (RegionInfo r : t.regionInfos()) {
        if (r.getEncodedName().equals(encoded)) {
          return r;
        }
      }
    }
    throw new BasaltIOException(
        "region " + encoded + " does not exist",
        "org.apache.hadoop.hbase.UnknownRegionException",
        true);
  }

  private void requireAllowed(TableName table, String attribute, String what) throws IOException {
    String v = catalog.requireTable(table).descriptor().getValue(attribute);
    if (v != null && !Boolean.parseBoolean(v)) {
      throw BasaltIOException.doNotRetry(
          "table '"
              + table.getNameAsString()
              + "' does not allow "
              + what
              + " ("
              + attribute
              + ")");
    }
  }

  private static <T> T waitFor(CompletableFuture<T> f, String what) throws IOException {
    try {
      return f.get(HAND_OVER_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(what + " failed", e);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IOException(
          what + " did not finish within " + HAND_OVER_WAIT_SECONDS + " s; it goes on");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException(what + " was interrupted");
    }
  }
}
