package dev.basalt.compat;

import static dev.basalt.compat.StockClients.CF;
import static dev.basalt.compat.StockClients.Q;
import static dev.basalt.compat.StockClients.create;
import static dev.basalt.compat.StockClients.scanRows;
import static dev.basalt.compat.StockClients.writeRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Namespaces through the stock client's {@link Admin}: create, describe, list, modify, delete;
 * tables inside a namespace ({@code ns:t}) and the listings by namespace; a namespace holding
 * tables cannot be deleted. Through both registries.
 */
class StockClientNamespaceTest extends TwoRegistriesTest {

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void createDescribeListModifyDelete(String registry) throws Exception {
    String ns = "ns_life_" + registry;
    try (Admin admin = connection(registry).getAdmin()) {
      assertThat(admin.listNamespaces()).contains("default", "hbase").doesNotContain(ns);

      admin.createNamespace(
          NamespaceDescriptor.create(ns).addConfiguration("owner", "alice").build());
      NamespaceDescriptor got = admin.getNamespaceDescriptor(ns);
      assertThat(got.getName()).isEqualTo(ns);
      assertThat(got.getConfigurationValue("owner")).isEqualTo("alice");
      assertThat(admin.listNamespaces()).contains("default", "hbase", ns);
      assertThat(Arrays.stream(admin.listNamespaceDescriptors()).map(NamespaceDescriptor::getName))
          .contains("default", "hbase", ns);

      admin.modifyNamespace(
          NamespaceDescriptor.create(ns)
              .addConfiguration("owner", "bob")
              .addConfiguration("team", "storage")
              .build());
      got = admin.getNamespaceDescriptor(ns);
      assertThat(got.getConfigurationValue("owner")).isEqualTo("bob");
      assertThat(got.getConfigurationValue("team")).isEqualTo("storage");

      assertThatThrownBy(() -> admin.createNamespace(NamespaceDescriptor.create(ns).build()))
          .isInstanceOf(NamespaceExistException.class)
          .hasMessageContaining(ns);

      admin.deleteNamespace(ns);
      assertThat(admin.listNamespaces()).doesNotContain(ns);
      assertThatThrownBy(() -> admin.getNamespaceDescriptor(ns))
          .isInstanceOf(NamespaceNotFoundException.class)
          .hasMessageContaining(ns);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void tablesInANamespace(String registry) throws Exception {
    Connection c = connection(registry);
    String ns = "ns_tables_" + registry;
    TableName t1 = TableName.valueOf(ns, "t1");
    TableName t2 = TableName.valueOf(ns, "t2");
    TableName sameQualifierInDefault = TableName.valueOf("t1_" + registry);
    try (Admin admin = c.getAdmin()) {
      admin.createNamespace(NamespaceDescriptor.create(ns).build());
      create(admin, t1, "m");
      create(admin, t2);
      create(admin, sameQualifierInDefault);
      assertThat(t1.getNameAsString()).isEqualTo(ns + ":t1");
      assertThat(admin.tableExists(t1)).isTrue();
      assertThat(admin.isTableAvailable(t1)).isTrue();

      assertThat(admin.listTableNamesByNamespace(ns)).containsExactlyInAnyOrder(t1, t2);
      assertThat(admin.listTableDescriptorsByNamespace(Bytes.toBytes(ns)))
          .extracting(TableDescriptor::getTableName)
          .containsExactlyInAnyOrder(t1, t2);
      assertThat(admin.listTableNames()).contains(t1, t2, sameQualifierInDefault);
      assertThat(admin.listTableNames(Pattern.compile(ns + ":.*")))
          .containsExactlyInAnyOrder(t1, t2);
      assertThat(admin.listTableNamesByNamespace("default"))
          .contains(sameQualifierInDefault)
          .doesNotContain(t1, t2);
      assertThat(admin.getRegions(t1)).hasSize(2).allMatch(r -> r.getTable().equals(t1));
      assertThat(admin.getRegions(t1).get(0).getRegionNameAsString()).startsWith(ns + ":t1,");

      writeRows(c, t1, "r", 0, 20);
      assertThat(scanRows(c, t1)).hasSize(20);
      assertThat(scanRows(c, t2)).isEmpty();
      try (Table t = c.getTable(t1)) {
        assertThat(t.get(new Get(StockClients.row("r", 7))).getValue(CF, Q)).isNotNull();
      }

      // a namespace holding tables cannot be removed; as from HBase, the client cannot load
      // ConstraintException and names it, with the server's message in the cause
      assertThatThrownBy(() -> admin.deleteNamespace(ns))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("ConstraintException")
          .cause()
          .hasMessageContaining("Only empty namespaces can be removed. Namespace " + ns);
      assertThat(admin.listNamespaces()).contains(ns);
      assertThat(admin.tableExists(t1)).isTrue();

      for (TableName tn : admin.listTableNamesByNamespace(ns)) {
        admin.disableTable(tn);
        admin.deleteTable(tn);
      }
      assertThat(admin.listTableNamesByNamespace(ns)).isEmpty();
      admin.deleteNamespace(ns);
      assertThat(admin.listNamespaces()).doesNotContain(ns);
      assertThat(admin.tableExists(sameQualifierInDefault)).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void reservedNamespacesCannotBeDeleted(String registry) throws Exception {
    try (Admin admin = connection(registry).getAdmin()) {
      assertThatThrownBy(() -> admin.deleteNamespace("default")).isInstanceOf(IOException.class);
      assertThatThrownBy(() -> admin.deleteNamespace("hbase")).isInstanceOf(IOException.class);
      assertThat(admin.listNamespaces()).contains("default", "hbase");
      assertThat(admin.getNamespaceDescriptor("default").getName()).isEqualTo("default");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void unknownNamespaces(String registry) throws Exception {
    try (Admin admin = connection(registry).getAdmin()) {
      String missing = "ns_missing_" + registry;
      assertThatThrownBy(() -> admin.getNamespaceDescriptor(missing))
          .isInstanceOf(NamespaceNotFoundException.class);
      assertThatThrownBy(() -> admin.deleteNamespace(missing))
          .isInstanceOf(NamespaceNotFoundException.class);
      assertThatThrownBy(() -> admin.modifyNamespace(NamespaceDescriptor.create(missing).build()))
          .isInstanceOf(NamespaceNotFoundException.class);
      assertThatThrownBy(() -> admin.listTableNamesByNamespace(missing))
          .isInstanceOf(NamespaceNotFoundException.class);
      assertThatThrownBy(() -> create(admin, TableName.valueOf(missing, "t")))
          .isInstanceOf(NamespaceNotFoundException.class);
      assertThat(admin.tableExists(TableName.valueOf(missing, "t"))).isFalse();
    }
  }
}
