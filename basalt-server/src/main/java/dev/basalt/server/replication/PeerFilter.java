package dev.basalt.server.replication;

import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.ReplicationPeer;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.TableCF;

/**
 * Which cells of a logged edit a peer receives, HBase's filter chain in one place: system tables
 * never ({@code SystemTableWALEntryFilter}); an edit that has already passed through the peer's
 * cluster never (the loop guard, {@code ClusterMarkingEntryFilter}); otherwise the cells of
 * families whose {@code REPLICATION_SCOPE} is 1 ({@code ScopeWALEntryFilter}) that the peer's
 * configuration selects ({@code NamespaceTableCfWALEntryFilter}: with {@code replicate_all}, every
 * table except the excluded namespaces and table-families; without, only the listed namespaces and
 * table-families; a table listed without families means all of them).
 *
 * <p>The scope is the family's current one (HBase records it in each log entry when written):
 * changing a family's scope applies to edits not yet shipped. Thread-safe (its only state after
 * construction is a cache of parsed table names).
 */
final class PeerFilter {
  private final boolean replicateAll;
  private final Set<String> namespaces = new HashSet<>();
  private final Map<TableName, Set<String>> tableCfs = new HashMap<>();
  private final Set<String> excludeNamespaces = new HashSet<>();
  private final Map<TableName, Set<String>> excludeTableCfs = new HashMap<>();

  /** Table names as logged, parsed once (an edit names its table as a string). */
  private final Map<String, TableName> tableNames = new ConcurrentHashMap<>();

  PeerFilter(ReplicationPeer config) {
    // An absent replicate_all means true (ReplicationPeerConfigUtil.convert).
    this.replicateAll = !config.hasReplicateAll() || config.getReplicateAll();
    for (var ns : config.getNamespacesList()) {
      namespaces.add(ns.toStringUtf8());
    }
    for (var ns : config.getExcludeNamespacesList()) {
      excludeNamespaces.add(ns.toStringUtf8());
    }
    collect(config.getTableCfsList(), tableCfs);
    collect(config.getExcludeTableCfsList(), excludeTableCfs);
  }

  private static void collect(List<TableCF> from, Map<TableName, Set<String>> into) {
    for (TableCF t : from) {
      TableName name =
          TableName.valueOf(
              t.getTableName().getNamespace().toStringUtf8(),
              t.getTableName().getQualifier().toStringUtf8());
      Set<String> families = into.computeIfAbsent(name, n -> new HashSet<>());
      for (var f : t.getFamiliesList()) {
        families.add(f.toStringUtf8());
      }
    }
  }

  /** Whether the peer's configuration selects this family of this table. */
  boolean selects(TableName table, byte[] family) {
    String ns = table.getNamespaceAsString();
    if (replicateAll) {
      if (excludeNamespaces.contains(ns)) {
        return false;
      }
      Set<String> excluded = excludeTableCfs.get(table);
      return excluded == null
          || (!excluded.isEmpty()
              && !excluded.contains(new String(family, StandardCharsets.UTF_8)));
    }
    Set<String> listed = tableCfs.get(table);
    if (listed != null) {
      return listed.isEmpty() || listed.contains(new String(family, StandardCharsets.UTF_8));
    }
    return namespaces.contains(ns);
  }

  /**
   * The cells of {@code cells} to ship, or an empty list.
   *
   * @param table the edit's table name as logged (null: not logged, an old segment)
   * @param passedThrough the clusters the edit has passed through
   * @param peerCluster the peer's cluster id
   * @param descriptors the current descriptor of a table, or null when it no longer exists
   */
  List<KeyValue> select(
      String table,
      List<UUID> passedThrough,
      UUID peerCluster,
      List<KeyValue> cells,
      Function<TableName, TableDescriptor> descriptors) {
    if (table == null || passedThrough.contains(peerCluster)) {
      return List.of();
    }
    TableName name = tableNames.computeIfAbsent(table, TableName::valueOf);
    if (name.isSystemTable()) {
      return List.of();
    }
    TableDescriptor d = descriptors.apply(name);
    if (d == null) {
      return List.of(); // dropped since: nothing to replicate it to
    }
    List<KeyValue> out = null;
    byte[] lastFamily = null;
    boolean lastShipped = false;
    for (int i = 0; i < cells.size(); i++) {
      KeyValue kv = cells.get(i);
      if (lastFamily == null || !CellUtil.matchingFamily(kv, lastFamily)) {
        // The descriptor's own name: no copy of the family per edit.
        ColumnFamilyDescriptor f = familyOf(d, kv);
        lastFamily = f == null ? CellUtil.cloneFamily(kv) : f.getName();
        lastShipped = f != null && f.getScope() == 1 && selects(name, lastFamily);
      }
      if (lastShipped) {
        if (out == null) {
          out = new ArrayList<>(cells.size() - i);
        }
        out.add(kv);
      }
    }
    if (out == null) {
      return List.of();
    }
    return out.size() == cells.size() ? cells : out;
  }

  private static ColumnFamilyDescriptor familyOf(TableDescriptor d, KeyValue kv) {
    for (ColumnFamilyDescriptor f : d.getColumnFamilies()) {
      if (CellUtil.matchingFamily(kv, f.getName())) {
        return f;
      }
    }
    return null;
  }
}
