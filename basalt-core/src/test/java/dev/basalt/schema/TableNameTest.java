package dev.basalt.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import org.junit.jupiter.api.Test;

class TableNameTest {

  @Test
  void plainNameIsInTheDefaultNamespace() {
    TableName t = TableName.valueOf("users");
    assertThat(t.getNamespaceAsString()).isEqualTo("default");
    assertThat(t.getQualifierAsString()).isEqualTo("users");
    assertThat(t.getNameAsString()).isEqualTo("users");
    assertThat(t.getName()).isEqualTo(Bytes.toBytes("users"));
    assertThat(t).hasToString("users");
    assertThat(t.isSystemTable()).isFalse();
  }

  @Test
  void namespaceAndQualifierAreParsed() {
    TableName t = TableName.valueOf("ns_1:my-table.v2");
    assertThat(t.getNamespaceAsString()).isEqualTo("ns_1");
    assertThat(t.getQualifierAsString()).isEqualTo("my-table.v2");
    assertThat(t.getNameAsString()).isEqualTo("ns_1:my-table.v2");
    assertThat(TableName.valueOf(Bytes.toBytes("ns_1:my-table.v2"))).isEqualTo(t);
    assertThat(TableName.valueOf("ns_1", "my-table.v2")).isEqualTo(t).hasSameHashCodeAs(t);
  }

  @Test
  void defaultNamespaceIsNotRendered() {
    TableName explicit = TableName.valueOf("default:t");
    assertThat(explicit).isEqualTo(TableName.valueOf("t"));
    assertThat(explicit.getNameAsString()).isEqualTo("t");
    assertThat(TableName.valueOf("default", "t").getName()).isEqualTo(Bytes.toBytes("t"));
  }

  @Test
  void systemTables() {
    assertThat(TableName.valueOf("hbase:meta")).isEqualTo(TableName.META);
    assertThat(TableName.META.isSystemTable()).isTrue();
    assertThat(TableName.META.getNameAsString()).isEqualTo("hbase:meta");
  }

  @Test
  void legalNames() {
    for (String name :
        new String[] {"a", "A1", "_x", "1", "t_2", "t-2", "t.2", "x.-_", "ns:t", "NS_9:9-9.9"}) {
      assertThat(TableName.valueOf(name).getNameAsString()).isEqualTo(name);
    }
  }

  @Test
  void emptyPartsAreRejected() {
    assertThatThrownBy(() -> TableName.valueOf(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("table name cannot be empty");
    assertThatThrownBy(() -> TableName.valueOf((String) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be empty");
    assertThatThrownBy(() -> TableName.valueOf(":t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("namespace name cannot be empty");
    assertThatThrownBy(() -> TableName.valueOf("ns:"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("table qualifier cannot be empty");
  }

  @Test
  void qualifierCannotStartWithPeriodOrDash() {
    assertThatThrownBy(() -> TableName.valueOf(".meta"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot start with '.'");
    assertThatThrownBy(() -> TableName.valueOf("ns:-t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot start with '-'");
  }

  @Test
  void illegalQualifierCharactersAreNamedWithTheirPosition() {
    String[][] cases = {
      {"a b", "' '", "position 1"},
      {"ab/c", "'/'", "position 2"},
      {"t$", "'$'", "position 1"},
      {"ns:a:b", "':'", "position 1"},
      {"café", "'\\u00e9'", "position 3"},
      {"x\u0000", "'\\u0000'", "position 1"},
    };
    for (String[] c : cases) {
      assertThatThrownBy(() -> TableName.valueOf(c[0]))
          .as(c[0])
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("illegal character " + c[1])
          .hasMessageContaining(c[2])
          .hasMessageContaining("table name");
    }
  }

  @Test
  void illegalNamespaceCharactersAreNamedWithTheirPosition() {
    String[][] cases = {
      {"my-ns:t", "'-'", "position 2"},
      {"n.s:t", "'.'", "position 1"},
      {"é:t", "'\\u00e9'", "position 0"},
    };
    for (String[] c : cases) {
      assertThatThrownBy(() -> TableName.valueOf(c[0]))
          .as(c[0])
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("illegal character " + c[1])
          .hasMessageContaining(c[2])
          .hasMessageContaining("namespace");
    }
    assertThat(TableName.checkNamespace("ok_1")).isEqualTo("ok_1");
  }

  @Test
  void orderByNamespaceThenQualifier() {
    assertThat(TableName.valueOf("a:z").compareTo(TableName.valueOf("b:a"))).isNegative();
    assertThat(TableName.valueOf("ns:a").compareTo(TableName.valueOf("ns:b"))).isNegative();
    assertThat(TableName.valueOf("t").compareTo(TableName.valueOf("default:t"))).isZero();
    assertThat(TableName.valueOf("ns:t")).isNotEqualTo(TableName.valueOf("t"));
  }
}
