package dev.basalt.server.master;

import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.server.protocol.SchemaCodec;
import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.CreateNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.CreateNamespaceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DeleteNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DeleteNamespaceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetNamespaceDescriptorRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetNamespaceDescriptorResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListNamespaceDescriptorsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListNamespaceDescriptorsResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListNamespacesRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListNamespacesResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ModifyNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ModifyNamespaceResponse;

/**
 * The master's namespace calls. The engine always has {@code default} and {@code hbase}, so the
 * lists carry both as HBase's do; it refuses to remove them or a namespace holding tables
 * (ConstraintException) and reports unknown ones (NamespaceNotFoundException). Changes run as
 * {@link Procedures} procedures, like HBase's. Thread-safe.
 */
final class NamespaceRpcs {
  private final ClusterAdmin admin;
  private final Procedures procedures;

  NamespaceRpcs(ClusterAdmin admin, Procedures procedures) {
    this.admin = admin;
    this.procedures = procedures;
  }

  CreateNamespaceResponse create(CreateNamespaceRequest q) throws IOException {
    NamespaceDescriptor ns = SchemaCodec.toNamespaceDescriptor(q.getNamespaceDescriptor());
    long id =
        procedures.run(
            "CreateNamespaceProcedure",
            q.getNonceGroup(),
            q.getNonce(),
            () -> admin.createNamespace(ns));
    return CreateNamespaceResponse.newBuilder().setProcId(id).build();
  }

  ModifyNamespaceResponse modify(ModifyNamespaceRequest q) throws IOException {
    NamespaceDescriptor ns = SchemaCodec.toNamespaceDescriptor(q.getNamespaceDescriptor());
    long id =
        procedures.run(
            "ModifyNamespaceProcedure",
            q.getNonceGroup(),
            q.getNonce(),
            () -> admin.modifyNamespace(ns));
    return ModifyNamespaceResponse.newBuilder().setProcId(id).build();
  }

  DeleteNamespaceResponse delete(DeleteNamespaceRequest q) throws IOException {
    String name = q.getNamespaceName();
    long id =
        procedures.run(
            "DeleteNamespaceProcedure",
            q.getNonceGroup(),
            q.getNonce(),
            () -> admin.deleteNamespace(name));
    return DeleteNamespaceResponse.newBuilder().setProcId(id).build();
  }

  GetNamespaceDescriptorResponse get(GetNamespaceDescriptorRequest q) throws IOException {
    return GetNamespaceDescriptorResponse.newBuilder()
        .setNamespaceDescriptor(
            SchemaCodec.toProto(admin.getNamespaceDescriptor(q.getNamespaceName())))
        .build();
  }

  ListNamespaceDescriptorsResponse descriptors(ListNamespaceDescriptorsRequest q) {
    ListNamespaceDescriptorsResponse.Builder b = ListNamespaceDescriptorsResponse.newBuilder();
    for (NamespaceDescriptor d : admin.listNamespaceDescriptors()) {
      b.addNamespaceDescriptor(SchemaCodec.toProto(d));
    }
    return b.build();
  }

  ListNamespacesResponse names(ListNamespacesRequest q) {
    return ListNamespacesResponse.newBuilder().addAllNamespaceName(admin.listNamespaces()).build();
  }
}
