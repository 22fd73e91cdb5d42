package dev.basalt.server.master;

import dev.basalt.db.TableNotFoundException;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.TableState;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetSchemaAlterStatusRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetSchemaAlterStatusResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetTableDescriptorsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetTableDescriptorsResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetTableNamesRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetTableNamesResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetTableStateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetTableStateResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableDescriptorsByNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableDescriptorsByNamespaceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableDescriptorsByStateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableDescriptorsByStateResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableNamesByNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableNamesByNamespaceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableNamesByStateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableNamesByStateResponse;

/**
 * The master's read-only table calls: descriptors and names (by name, pattern, namespace or state),
 * a table's state, and the progress of a schema change. Selection follows HBase's master: tables
 * named explicitly are looked up (unknown ones are left out; the client turns an empty answer into
 * TableNotFoundException), otherwise every table, or a namespace's (which must exist), without
 * system tables unless asked; a pattern must match the whole name as HBase prints it (no {@code
 * default:} prefix, though {@code default:t} also matches for a table of the default namespace).
 * Stateless.
 */
final class TableQueries {
  private final ClusterAdmin admin;

  TableQueries(ClusterAdmin admin) {
    this.admin = admin;
  }

  GetTableDescriptorsResponse descriptors(GetTableDescriptorsRequest q) throws IOException {
    GetTableDescriptorsResponse.Builder b = GetTableDescriptorsResponse.newBuilder();
    for (TableDescriptor d :
        select(
            q.getTableNamesList(),
            q.hasRegex() ? q.getRegex() : null,
            q.getIncludeSysTables(),
            q.getNamespace())) {
      b.addTableSchema(SchemaCodec.toProto(d));
    }
    return b.build();
  }

  GetTableNamesResponse names(GetTableNamesRequest q) throws IOException {
    GetTableNamesResponse.Builder b = GetTableNamesResponse.newBuilder();
    for (TableDescriptor d :
        select(
            List.of(),
            q.hasRegex() ? q.getRegex() : null,
            q.getIncludeSysTables(),
            q.getNamespace())) {
      b.addTableNames(SchemaCodec.toProto(d.getTableName()));
    }
    return b.build();
  }

  /**
   * @throws TableNotFoundException when the table does not exist
   */
  GetTableStateResponse state(GetTableStateRequest q) throws IOException {
    TableName name = SchemaCodec.toTableName(q.getTableName());
    TableState.State state;
    if (admin.isTableEnabled(name)) {
      state = TableState.State.ENABLED;
    } else if (admin.isTableDisabled(name)) {
      state = TableState.State.DISABLED;
    } else {
      state = TableState.State.DISABLING;
    }
    return GetTableStateResponse.newBuilder()
        .setTableState(TableState.newBuilder().setState(state))
        .build();
  }

  ListTableDescriptorsByNamespaceResponse descriptorsOfNamespace(
      ListTableDescriptorsByNamespaceRequest q) throws IOException {
    ListTableDescriptorsByNamespaceResponse.Builder b =
        ListTableDescriptorsByNamespaceResponse.newBuilder();
    for (TableDescriptor d : admin.listTablesByNamespace(q.getNamespaceName())) {
      b.addTableSchema(SchemaCodec.toProto(d));
    }
    return b.build();
  }

  ListTableNamesByNamespaceResponse namesOfNamespace(ListTableNamesByNamespaceRequest q)
      throws IOException {
    ListTableNamesByNamespaceResponse.Builder b = ListTableNamesByNamespaceResponse.newBuilder();
    for (TableDescriptor d : admin.listTablesByNamespace(q.getNamespaceName())) {
      b.addTableName(SchemaCodec.toProto(d.getTableName()));
    }
    return b.build();
  }

  ListTableDescriptorsByStateResponse descriptorsByState(ListTableDescriptorsByStateRequest q) {
    ListTableDescriptorsByStateResponse.Builder b =
        ListTableDescriptorsByStateResponse.newBuilder();
    for (TableDescriptor d : inState(q.getIsEnabled())) {
      b.addTableSchema(SchemaCodec.toProto(d));
    }
    return b.build();
  }

  ListTableNamesByStateResponse namesByState(ListTableNamesByStateRequest q) {
    ListTableNamesByStateResponse.Builder b = ListTableNamesByStateResponse.newBuilder();
    for (TableDescriptor d : inState(q.getIsEnabled())) {
      b.addTableNames(SchemaCodec.toProto(d.getTableName()));
    }
    return b.build();
  }

  /**
   * Every schema change finishes inside its call, so no region is ever still to update.
   *
   * @throws TableNotFoundException when the table does not exist
   */
  GetSchemaAlterStatusResponse alterStatus(GetSchemaAlterStatusRequest q) throws IOException {
    TableName name = SchemaCodec.toTableName(q.getTableName());
    return GetSchemaAlterStatusResponse.newBuilder()
        .setYetToUpdateRegions(0)
        .setTotalRegions(admin.getRegions(name).size())
        .build();
  }

  /** Enabled tables, or disabled ones (a table being disabled is neither, as in HBase). */
  private List<TableDescriptor> inState(boolean enabled) {
    List<TableDescriptor> out = new ArrayList<>();
    for (TableDescriptor d : admin.listTables()) {
      try {
        TableName t = d.getTableName();
        if (enabled ? admin.isTableEnabled(t) : admin.isTableDisabled(t)) {
          out.add(d);
        }
      } catch (TableNotFoundException deletedMeanwhile) {
        // not listed
      }
    }
    return out;
  }

  private List<TableDescriptor> select(
      List<HBaseProtos.TableName> names, String regex, boolean includeSys, String namespace)
      throws IOException {
    Pattern pattern = compile(regex);
    List<TableDescriptor> candidates = new ArrayList<>();
    if (!names.isEmpty()) {
      for (HBaseProtos.TableName n : names) {
        TableName t = SchemaCodec.toTableName(n);
        try {
          candidates.add(admin.getDescriptor(t));
        } catch (TableNotFoundException absent) {
          // left out: the client decides what a missing table means
        }
      }
    } else {
      List<TableDescriptor> all =
          namespace.isEmpty() ? admin.listTables() : admin.listTablesByNamespace(namespace);
      for (TableDescriptor d : all) {
        if (includeSys || !d.getTableName().isSystemTable()) {
          candidates.add(d);
        }
      }
    }
    if (pattern != null) {
      candidates.removeIf(d -> !matches(pattern, d.getTableName()));
    }
    return candidates;
  }

  private static Pattern compile(String regex) throws BasaltIOException {
    if (regex == null) {
      return null;
    }
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw BasaltIOException.doNotRetry("bad table name pattern: " + e.getMessage());
    }
  }

  private static boolean matches(Pattern pattern, TableName t) {
    return pattern.matcher(t.getNameAsString()).matches()
        || (t.getNamespaceAsString().equals(TableName.DEFAULT_NAMESPACE)
            && pattern.matcher(TableName.DEFAULT_NAMESPACE + ":" + t.getNameAsString()).matches());
  }
}
