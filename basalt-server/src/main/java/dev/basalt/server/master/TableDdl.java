package dev.basalt.server.master;

import dev.basalt.cell.Bytes;
import dev.basalt.db.UnknownRegionException;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.AddColumnRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.AddColumnResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.CreateTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.CreateTableResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DeleteColumnRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DeleteColumnResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DeleteTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DeleteTableResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DisableTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DisableTableResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.EnableTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.EnableTableResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.FlushTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.FlushTableResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MasterSwitchType;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MergeTableRegionsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MergeTableRegionsResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ModifyColumnRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ModifyColumnResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ModifyTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ModifyTableResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SplitTableRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SplitTableRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.TruncateTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.TruncateTableResponse;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * The master's table changes: create, delete, enable, disable, truncate, modify, the family
 * changes, flush, split and merge. Each runs synchronously on the engine as one {@link Procedures}
 * procedure and answers its id; a failure is the call's exception (the engine's exceptions carry
 * HBase's class names). Requests are decoded before the procedure starts, so a malformed one fails
 * without using an id. Thread-safe (the engine serialises DDL).
 */
final class TableDdl {
  /** HBase's table attribute for read replicas, which Basalt does not have. */
  static final String REGION_REPLICATION = "REGION_REPLICATION";

  /** The table attributes in which HBase 2 clients store coprocessors: coprocessor$1, ... */
  static final String COPROCESSOR_PREFIX = "coprocessor$";

  private final ClusterAdmin admin;
  private final Procedures procedures;
  private final SplitMergeSwitches switches;

  TableDdl(ClusterAdmin admin, Procedures procedures, SplitMergeSwitches switches) {
    this.admin = admin;
    this.procedures = procedures;
    this.switches = switches;
  }

  CreateTableResponse create(CreateTableRequest q) throws IOException {
    TableDescriptor desc = SchemaCodec.toTableDescriptor(q.getTableSchema());
    requireOneReplica(desc);
    requireNoCoprocessor(desc);
    byte[][] splits =
        q.getSplitKeysCount() == 0
            ? null
            : q.getSplitKeysList().stream().map(ByteString::toByteArray).toArray(byte[][]::new);
    long id =
        procedures.runAsync(
            "CreateTableProcedure",
            q.getNonceGroup(),
            q.getNonce(),
            () -> admin.createTable(desc, splits));
    return CreateTableResponse.newBuilder().setProcId(id).build();
  }

  DeleteTableResponse delete(DeleteTableRequest q) throws IOException {
    TableName name = SchemaCodec.toTableName(q.getTableName());
    long id =
        procedures.runAsync(
            "DeleteTableProcedure", q.getNonceGroup(), q.getNonce(), () -> admin.deleteTable(name));
    return DeleteTableResponse.newBuilder().setProcId(id).build();
  }

  TruncateTableResponse truncate(TruncateTableRequest q) throws IOException {
    TableName name = SchemaCodec.toTableName(q.getTableName());
    boolean keepSplits = q.getPreserveSplits();
    long id =
        procedures.runAsync(
            "TruncateTableProcedure",
            q.getNonceGroup(),
            q.getNonce(),
            () -> admin.truncateTable(name, keepSplits));
    return TruncateTableResponse.newBuilder().setProcId(id).build();
  }

  EnableTableResponse enable(EnableTableRequest q) throws IOException {
    TableName name = SchemaCodec.toTableName(q.getTableName());
    long id =
        procedures.runAsync(
            "EnableTableProcedure", q.getNonceGroup(), q.getNonce(), () -> admin.enableTable(name));
    return EnableTableResponse.newBuilder().setProcId(id).build();
  }

  DisableTableResponse disable(DisableTableRequest q) throws IOException {
    TableName name = SchemaCodec.toTableName(q.getTableName());
    long id =
        procedures.runAsync(
            "DisableTableProcedure",
            q.getNonceGroup(),
            q.getNonce(),
            () -> admin.disableTable(name));
    return DisableTableResponse.newBuilder().setProcId(id).build();
  }

  /** The engine always reopens an enabled table's regions, so {@code reopen_regions} is moot. */
  ModifyTableResponse modify(ModifyTableRequest q) throws IOException {
    TableName name = SchemaCodec.toTableName(q.getTableName());
    TableDescriptor desc = SchemaCodec.toTableDescriptor(q.getTableSchema());
    if (!desc.getTableName().equals(name)) {
      throw BasaltIOException.doNotRetry(
          "cannot modify table "
              + name.getNameAsString()
              + " with the descriptor of "
              + desc.getTableName().getNameAsString()
              + ": tables cannot be renamed");
    }
    requireOneReplica(desc);
    requireNoCoprocessor(desc);
    long id =
        procedures.runAsync(
            "ModifyTableProcedure", q.getNonceGroup(), q.getNonce(), () -> admin.modifyTable(desc));
    return ModifyTableResponse.newBuilder().setProcId(id).build();
  }

  AddColumnResponse addFamily(AddColumnRequest q) throws IOException {
    TableName name = SchemaCodec.toTableName(q.getTableName());
    ColumnFamilyDescriptor family = SchemaCodec.toFamily(q.getColumnFamilies());
    long id =
        procedures.runAsync(
            "ModifyTableProcedure",
            q.getNonceGroup(),
            q.getNonce(),
            () -> admin.addColumnFamily(name, family));
    return AddColumnResponse.newBuilder().setProcId(id).build();
  }

  DeleteColumnResponse deleteFamily(DeleteColumnRequest q) throws IOException {
    TableName name = SchemaCodec.toTableName(q.getTableName());
    byte[] family = q.getColumnName().toByteArray();
    long id =
        procedures.runAsync(
            "ModifyTableProcedure",
            q.getNonceGroup(),
            q.getNonce(),
            () -> admin.deleteColumnFamily(name, family));
    return DeleteColumnResponse.newBuilder().setProcId(id).build();
  }

  ModifyColumnResponse modifyFamily(ModifyColumnRequest q) throws IOException {
    TableName name = SchemaCodec.toTableName(q.getTableName());
    ColumnFamilyDescriptor family = SchemaCodec.toFamily(q.getColumnFamilies());
    long id =
        procedures.runAsync(
            "ModifyTableProcedure",
            q.getNonceGroup(),
            q.getNonce(),
            () -> admin.modifyColumnFamily(name, family));
    return ModifyColumnResponse.newBuilder().setProcId(id).build();
  }

  /**
   * Flushes every family of the table: the engine flushes whole regions (a region's families share
   * one sequence of edits), so the request's family list only narrows what HBase would flush, and
   * flushing more is harmless.
   */
  FlushTableResponse flush(FlushTableRequest q) throws IOException {
    TableName name = SchemaCodec.toTableName(q.getTableName());
    long id =
        procedures.run(
            "FlushTableProcedure", q.getNonceGroup(), q.getNonce(), () -> admin.flush(name));
    return FlushTableResponse.newBuilder().setProcId(id).build();
  }

  /**
   * Splits the named region at {@code split_row}, or at its own split point (the middle row of its
   * largest store file) when the request has none.
   */
  SplitTableRegionResponse split(SplitTableRegionRequest q) throws IOException {
    RegionInfo region = SchemaCodec.toRegionInfo(q.getRegionInfo());
    switches.require(MasterSwitchType.SPLIT, "Split region " + region.getRegionNameAsString());
    byte[] row = q.getSplitRow().isEmpty() ? null : q.getSplitRow().toByteArray();
    long id =
        procedures.run(
            "SplitTableRegionProcedure",
            q.getNonceGroup(),
            q.getNonce(),
            () -> {
              if (row == null) {
                admin.splitRegion(region.getRegionName());
              } else {
                splitAt(region, row);
              }
            });
    return SplitTableRegionResponse.newBuilder().setProcId(id).build();
  }

  /** The engine splits whichever region holds the row, so first check it is the one named. */
  private void splitAt(RegionInfo region, byte[] row) throws IOException {
    if (!admin.getRegions(region.getTable()).contains(region)) {
      throw new UnknownRegionException(
          "table "
              + region.getTable().getNameAsString()
              + " has no region "
              + region.getRegionNameAsString()
              + " (split or merged meanwhile?)");
    }
    if (!region.containsRow(row)) {
      throw BasaltIOException.doNotRetry(
          "split row '"
              + Bytes.toStringBinary(row)
              + "' is outside region "
              + region.getRegionNameAsString());
    }
    admin.split(region.getTable(), row);
  }

  /** Merges two adjacent regions; the {@code forcible} flag is ignored (adjacency is required). */
  MergeTableRegionsResponse merge(MergeTableRegionsRequest q) throws IOException {
    if (q.getRegionCount() != 2) {
      throw BasaltIOException.doNotRetry(
          "Basalt merges two regions at a time; the request names " + q.getRegionCount());
    }
    byte[] a = q.getRegion(0).getValue().toByteArray();
    byte[] b = q.getRegion(1).getValue().toByteArray();
    switches.require(
        MasterSwitchType.MERGE,
        "Merge of regions " + Bytes.toStringBinary(a) + " and " + Bytes.toStringBinary(b));
    long id =
        procedures.run(
            "MergeTableRegionsProcedure",
            q.getNonceGroup(),
            q.getNonce(),
            () -> admin.mergeRegions(a, b));
    return MergeTableRegionsResponse.newBuilder().setProcId(id).build();
  }

  /**
   * Refuses tables that name coprocessors (HBase 2 clients store each as a table attribute {@code
   * coprocessor$N} = {@code path|class|priority|args}): Basalt runs no coprocessors, and a table
   * whose observer silently never ran would not do what its owner expects. HBase refuses a
   * coprocessor it cannot load the same way, at creation.
   */
  private static void requireNoCoprocessor(TableDescriptor desc) throws BasaltIOException {
    for (java.util.Map.Entry<String, String> e : desc.getValues().entrySet()) {
      if (e.getKey().startsWith(COPROCESSOR_PREFIX)) {
        String[] spec = e.getValue().split("\\|", -1);
        String className = spec.length > 1 ? spec[1] : e.getValue();
        throw BasaltIOException.doNotRetry(
            "table "
                + desc.getTableName().getNameAsString()
                + " names the coprocessor "
                + className
                + " ("
                + e.getKey()
                + "), which cannot be loaded: Basalt does not run coprocessors (see"
                + " docs/DIFFERENCES.md); create the table without it");
      }
    }
  }

  /**
   * Refuses read replicas: the client's wait after createTable counts regions times replicas in
   * hbase:meta, and Basalt would never publish the extra replicas.
   */
  private static void requireOneReplica(TableDescriptor desc) throws BasaltIOException {
    String v = desc.getValue(REGION_REPLICATION);
    if (v == null) {
      return;
    }
    int n;
    try {
      n = Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n != 1) {
      throw BasaltIOException.doNotRetry(
          REGION_REPLICATION
              + " '"
              + v
              + "' of table "
              + desc.getTableName().getNameAsString()
              + ": Basalt has no region replicas, only "
              + REGION_REPLICATION
              + " 1 is supported");
    }
  }
}
