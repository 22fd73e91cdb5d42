package dev.basalt.server.master;

import static dev.basalt.server.master.MasterFixture.assertFailsWith;
import static dev.basalt.server.master.MasterFixture.bytes;
import static dev.basalt.server.master.MasterFixture.name;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.server.protocol.SchemaCodec;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.CreateNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DeleteNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DeleteTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetNamespaceDescriptorRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetTableDescriptorsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetTableNamesRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListNamespaceDescriptorsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListNamespacesRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableDescriptorsByNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableDescriptorsByStateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableNamesByNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableNamesByStateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ModifyNamespaceRequest;
import org.junit.jupiter.api.Test;

/** Table listings and namespaces through the master's handlers. */
class MasterServiceListingTest extends MasterTestBase {
  private static final String NS_NOT_FOUND = "org.apache.hadoop.hbase.NamespaceNotFoundException";
  private static final String NS_EXISTS = "org.apache.hadoop.hbase.NamespaceExistException";
  private static final String CONSTRAINT = "org.apache.hadoop.hbase.constraint.ConstraintException";

  private void createNamespace(String ns) throws Exception {
    m.master
        .namespaces()
        .create(
            CreateNamespaceRequest.newBuilder()
                .setNamespaceDescriptor(namespace(ns, null, null))
                .build());
  }

  private static HBaseProtos.NamespaceDescriptor namespace(String ns, String key, String value) {
    HBaseProtos.NamespaceDescriptor.Builder b =
        HBaseProtos.NamespaceDescriptor.newBuilder().setName(bytes(ns));
    if (key != null) {
      b.addConfiguration(HBaseProtos.NameStringPair.newBuilder().setName(key).setValue(value));
    }
    return b.build();
  }

  /** t1, t2 and other in default (other disabled); ns1:t1 in ns1. */
  private void fourTables() throws Exception {
    createNamespace("ns1");
    m.create("t1");
    m.create("t2");
    m.create("other");
    m.create("ns1:t1");
    m.disable("other");
  }

  private List<String> descriptors(GetTableDescriptorsRequest q) throws Exception {
    return m.master.tables().descriptors(q).getTableSchemaList().stream()
        .map(s -> tableName(s.getTableName()))
        .toList();
  }

  private static String tableName(HBaseProtos.TableName t) {
    try {
      return SchemaCodec.toTableName(t).getNameAsString();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void descriptorsByNameLeaveUnknownTablesOut() throws Exception {
    fourTables();
    assertThat(
            descriptors(
                GetTableDescriptorsRequest.newBuilder()
                    .addTableNames(name("t2"))
                    .addTableNames(name("nope"))
                    .addTableNames(name("ns1:t1"))
                    .build()))
        .containsExactly("t2", "ns1:t1");
    assertThat(
            descriptors(
                GetTableDescriptorsRequest.newBuilder().addTableNames(name("nope")).build()))
        .isEmpty();
    HBaseProtos.TableSchema s =
        m.master
            .tables()
            .descriptors(GetTableDescriptorsRequest.newBuilder().addTableNames(name("t1")).build())
            .getTableSchema(0);
    assertThat(SchemaCodec.toTableDescriptor(s))
        .isEqualTo(m.db.getDescriptor(SchemaCodec.toTableName(name("t1"))));
  }

  @Test
  void descriptorsByPatternMatchTheWholeNameAsHBasePrintsIt() throws Exception {
    fourTables();
    assertThat(descriptors(GetTableDescriptorsRequest.getDefaultInstance()))
        .containsExactly("other", "t1", "t2", "ns1:t1");
    assertThat(descriptors(GetTableDescriptorsRequest.newBuilder().setRegex("t.*").build()))
        .containsExactly("t1", "t2");
    assertThat(descriptors(GetTableDescriptorsRequest.newBuilder().setRegex(".*t1").build()))
        .containsExactly("t1", "ns1:t1");
    assertThat(descriptors(GetTableDescriptorsRequest.newBuilder().setRegex("t").build()))
        .isEmpty();
    assertThat(descriptors(GetTableDescriptorsRequest.newBuilder().setRegex("default:t1").build()))
        .containsExactly("t1");
    assertThat(
            descriptors(
                GetTableDescriptorsRequest.newBuilder()
                    .setNamespace("ns1")
                    .setIncludeSysTables(true)
                    .build()))
        .containsExactly("ns1:t1");
    assertThat(
            descriptors(
                GetTableDescriptorsRequest.newBuilder()
                    .setNamespace("default")
                    .setRegex("t.")
                    .build()))
        .containsExactly("t1", "t2");
    assertFailsWith(
        NS_NOT_FOUND,
        () -> descriptors(GetTableDescriptorsRequest.newBuilder().setNamespace("nope").build()));
    assertThatThrownBy(
            () -> descriptors(GetTableDescriptorsRequest.newBuilder().setRegex("(").build()))
        .hasMessageContaining("bad table name pattern");

    assertThat(
            m.master
                .tables()
                .names(GetTableNamesRequest.newBuilder().setRegex("ns1:.*").build())
                .getTableNamesList())
        .containsExactly(name("ns1:t1"));
    assertThat(
            m.master.tables().names(GetTableNamesRequest.getDefaultInstance()).getTableNamesCount())
        .isEqualTo(4);
  }

  @Test
  void listsByNamespaceAndByState() throws Exception {
    fourTables();
    assertThat(
            m.master
                .tables()
                .namesOfNamespace(
                    ListTableNamesByNamespaceRequest.newBuilder().setNamespaceName("ns1").build())
                .getTableNameList())
        .containsExactly(name("ns1:t1"));
    assertThat(
            m.master
                .tables()
                .descriptorsOfNamespace(
                    ListTableDescriptorsByNamespaceRequest.newBuilder()
                        .setNamespaceName("default")
                        .build())
                .getTableSchemaCount())
        .isEqualTo(3);
    assertFailsWith(
        NS_NOT_FOUND,
        () ->
            m.master
                .tables()
                .namesOfNamespace(
                    ListTableNamesByNamespaceRequest.newBuilder()
                        .setNamespaceName("nope")
                        .build()));
    assertThat(
            m.master
                .tables()
                .namesByState(ListTableNamesByStateRequest.newBuilder().setIsEnabled(false).build())
                .getTableNamesList())
        .containsExactly(name("other"));
    assertThat(
            m.master
                .tables()
                .descriptorsByState(
                    ListTableDescriptorsByStateRequest.newBuilder().setIsEnabled(true).build())
                .getTableSchemaCount())
        .isEqualTo(3);
  }

  @Test
  void namespacesAreCreatedListedModifiedAndDeletedOnlyWhenEmpty() throws Exception {
    assertThat(
            m.master
                .namespaces()
                .names(ListNamespacesRequest.getDefaultInstance())
                .getNamespaceNameList())
        .containsExactly("default", "hbase");
    createNamespace("ns1");
    assertFailsWith(NS_EXISTS, () -> createNamespace("ns1"));
    assertFailsWith(NS_EXISTS, () -> createNamespace("default"));
    assertThatThrownBy(() -> createNamespace("bad-name"))
        .hasMessageContaining("bad descriptor of namespace 'bad-name'");

    long id =
        m.master
            .namespaces()
            .modify(
                ModifyNamespaceRequest.newBuilder()
                    .setNamespaceDescriptor(
                        namespace("ns1", "hbase.namespace.quota.maxtables", "5"))
                    .build())
            .getProcId();
    assertThat(m.result(id).hasException()).isFalse();
    HBaseProtos.NamespaceDescriptor got =
        m.master
            .namespaces()
            .get(GetNamespaceDescriptorRequest.newBuilder().setNamespaceName("ns1").build())
            .getNamespaceDescriptor();
    assertThat(got).isEqualTo(namespace("ns1", "hbase.namespace.quota.maxtables", "5"));
    assertThat(
            m.master
                .namespaces()
                .descriptors(ListNamespaceDescriptorsRequest.getDefaultInstance())
                .getNamespaceDescriptorList())
        .extracting(d -> d.getName().toStringUtf8())
        .containsExactly("default", "hbase", "ns1");

    m.create("ns1:t");
    DeleteNamespaceRequest delete =
        DeleteNamespaceRequest.newBuilder().setNamespaceName("ns1").build();
    // As HBase's master: the precondition failures are the call's ConstraintException (which the
    // stock client reports as a DoNotRetryIOException naming it, the message in its cause).
    assertFailsWith(CONSTRAINT, () -> m.master.namespaces().delete(delete));
    assertFailsWith(
        CONSTRAINT,
        () ->
            m.master
                .namespaces()
                .delete(DeleteNamespaceRequest.newBuilder().setNamespaceName("hbase").build()));
    assertThat(m.db.listNamespaces()).contains("ns1", "hbase");
    m.disable("ns1:t");
    m.master.ddl().delete(DeleteTableRequest.newBuilder().setTableName(name("ns1:t")).build());
    m.master.namespaces().delete(delete);
    assertFailsWith(NS_NOT_FOUND, () -> m.master.namespaces().delete(delete));
    assertFailsWith(
        NS_NOT_FOUND,
        () ->
            m.master
                .namespaces()
                .get(GetNamespaceDescriptorRequest.newBuilder().setNamespaceName("ns1").build()));
    assertFailsWith(
        NS_NOT_FOUND,
        () ->
            m.master
                .namespaces()
                .modify(
                    ModifyNamespaceRequest.newBuilder()
                        .setNamespaceDescriptor(namespace("ns1", null, null))
                        .build()));
    assertFailsWith(NS_NOT_FOUND, () -> m.create("ns1:t"));
  }
}
