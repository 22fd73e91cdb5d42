package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** DDL commands against a real server, checking the text they print. */
class TableCommandsTest extends ShellTestBase {
  @Test
  void createListExistsDescribeDisableEnableDrop() {
    assertThat(shell.ok("create 'ddl1', 'cf1', 'cf2'")).isEqualTo("Created table ddl1\n");
    assertThat(shell.ok("list 'ddl1'")).isEqualTo("TABLE\nddl1\n1 row(s)\n");
    assertThat(shell.ok("exists 'ddl1'")).isEqualTo("Table ddl1 does exist\n");
    assertThat(shell.ok("exists 'ddl_none'")).isEqualTo("Table ddl_none does not exist\n");
    String d = shell.ok("describe 'ddl1'");
    assertThat(d)
        .startsWith("Table ddl1 is ENABLED\nddl1\nCOLUMN FAMILIES DESCRIPTION\n{NAME => 'cf1', ")
        .contains("\n{NAME => 'cf2', ")
        .contains("VERSIONS => '1'")
        .endsWith("}\n\n2 row(s)\n");
    assertThat(shell.ok("desc 'ddl1'")).isEqualTo(d);
    assertThat(shell.ok("is_enabled 'ddl1'")).isEqualTo("true\n");
    assertThat(shell.ok("is_disabled 'ddl1'")).isEqualTo("false\n");
    ShellHarness.Result r = shell.run("drop 'ddl1'");
    assertThat(r.ok()).isFalse();
    assertThat(r.err())
        .isEqualTo("ERROR: table 'ddl1' is enabled; disable it first: disable 'ddl1'\n");
    assertThat(shell.ok("disable 'ddl1'; is_disabled 'ddl1'")).isEqualTo("true\n");
    assertThat(shell.ok("describe 'ddl1'")).startsWith("Table ddl1 is DISABLED\n");
    ShellHarness.Result scan = shell.run("scan 'ddl1'");
    assertThat(scan.err())
        .startsWith("ERROR: table 'ddl1' is disabled; enable it first: enable 'ddl1'");
    assertThat(shell.ok("enable 'ddl1'; is_enabled 'ddl1'")).isEqualTo("true\n");
    assertThat(shell.ok("disable 'ddl1'; drop 'ddl1'; exists 'ddl1'"))
        .isEqualTo("Table ddl1 does not exist\n");
  }

  @Test
  void createWithFamilyOptionsSplitsAndTableOptions() {
    shell.ok(
        "create 'ddl2', {NAME => 'cf', VERSIONS => 3, TTL => 86400, BLOOMFILTER => 'ROWCOL',"
            + " COMPRESSION => 'gz', IN_MEMORY => true, METADATA => {'owner' => 'me'}},"
            + " {MAX_FILESIZE => '1073741824', SPLITS => ['m', 'a']}");
    String d = shell.ok("describe 'ddl2'");
    assertThat(d)
        .contains("ddl2, {TABLE_ATTRIBUTES => {MAX_FILESIZE => '1073741824 B (1GB)'}}\n")
        .contains("VERSIONS => '3'")
        .contains("TTL => '86400 SECONDS (1 DAY)'")
        .contains("BLOOMFILTER => 'ROWCOL'")
        .contains("COMPRESSION => 'GZ'")
        .contains("IN_MEMORY => 'true'")
        .contains("METADATA => {'NEW_VERSION_BEHAVIOR' => 'true', 'owner' => 'me'}");
    // three regions: [, a), [a, m), [m, )
    shell.ok("put 'ddl2', 'b', 'cf:q', 'v'; put 'ddl2', 'z', 'cf:q', 'v'");
    assertThat(shell.ok("count 'ddl2'")).isEqualTo("2 row(s)\n");
    assertThat(shell.ok("alter 'ddl2', NAME => 'cf', VERSIONS => 5"))
        .isEqualTo("Updating all regions with the new schema...\n3/3 regions updated.\nDone.\n");
  }

  @Test
  void alterAddsModifiesAndDeletesFamiliesAndTableAttributes() {
    shell.ok("create 'ddl3', {NAME => 'a', VERSIONS => 2, IN_MEMORY => true}");
    shell.ok("alter 'ddl3', NAME => 'a', VERSIONS => 4");
    String d = shell.ok("describe 'ddl3'");
    // unchanged options keep their values
    assertThat(d).contains("VERSIONS => '4'").contains("IN_MEMORY => 'true'");
    shell.ok("alter 'ddl3', 'b', {NAME => 'c', MIN_VERSIONS => 1}");
    assertThat(shell.ok("describe 'ddl3'")).contains("{NAME => 'b'").contains("{NAME => 'c'");
    shell.ok("alter 'ddl3', 'delete' => 'b'");
    shell.ok("alter 'ddl3', NAME => 'c', METHOD => 'delete'");
    d = shell.ok("describe 'ddl3'");
    assertThat(d)
        .doesNotContain("{NAME => 'b'")
        .doesNotContain("{NAME => 'c'")
        .endsWith("1 row(s)\n");
    shell.ok("alter 'ddl3', MAX_FILESIZE => '134217728'");
    assertThat(shell.ok("describe 'ddl3'")).contains("MAX_FILESIZE => '134217728 B (128MB)'");
    shell.ok("alter 'ddl3', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'");
    assertThat(shell.ok("describe 'ddl3'")).doesNotContain("MAX_FILESIZE");
    ShellHarness.Result r = shell.run("alter 'ddl3', 'delete' => 'zz'");
    assertThat(r.err())
        .isEqualTo(
            "ERROR: alter: table 'ddl3' has no column family 'zz'; 'describe' shows its families\n");
  }

  @Test
  void truncateEmptiesTheTable() {
    shell.ok("create 'ddl4', 'cf'; put 'ddl4', 'r1', 'cf:q', 'v'; put 'ddl4', 'r2', 'cf:q', 'v'");
    assertThat(shell.ok("truncate 'ddl4'"))
        .isEqualTo(
            "Truncating 'ddl4' table (it may take a while):\nDisabling table...\nTruncating table...\n");
    assertThat(shell.ok("count 'ddl4'; is_enabled 'ddl4'")).isEqualTo("0 row(s)\ntrue\n");
  }

  @Test
  void listWithARegexAndNamespacedTables() {
    shell.ok("create_namespace 'ddlns'; create 'ddlns:t1', 'cf'; create 'ddl_list_x', 'cf'");
    assertThat(shell.ok("list 'ddlns:.*'")).isEqualTo("TABLE\nddlns:t1\n1 row(s)\n");
    assertThat(shell.ok("list")).contains("ddl_list_x\n").contains("ddlns:t1\n");
    assertThat(shell.ok("list_namespace 'ddl.*'")).isEqualTo("NAMESPACE\nddlns\n1 row(s)\n");
    assertThat(shell.ok("describe_namespace 'ddlns'"))
        .isEqualTo("DESCRIPTION\n{NAME => 'ddlns'}\n");
    ShellHarness.Result r = shell.run("drop_namespace 'ddlns'");
    assertThat(r.ok()).isFalse();
    // HBase says ConstraintException, Basalt IOException: the message is what matters here
    assertThat(r.err())
        .startsWith("ERROR: drop_namespace failed: ")
        .contains("Only empty namespaces can be removed");
    shell.ok("disable 'ddlns:t1'; drop 'ddlns:t1'; drop_namespace 'ddlns'");
    assertThat(shell.ok("list_namespace")).isEqualTo("NAMESPACE\ndefault\nhbase\n2 row(s)\n");
  }

  @Test
  void badDefinitionsAreOneLineErrors() {
    assertThat(shell.run("create 'ddl5'").err())
        .isEqualTo(
            "ERROR: create needs a table name and at least one column family; usage: create 't1', 'cf'\n");
    assertThat(shell.run("create 'ddl5', {NAME => 'cf', VERSION => 3}").err())
        .isEqualTo("ERROR: create: unknown option VERSION; did you mean VERSIONS?\n");
    assertThat(shell.run("create 'ddl5', {NAME => 'cf', BLOOMFILTER => 'NOPE'}").err())
        .startsWith("ERROR: create: bad column family cf: ");
    assertThat(shell.run("create 'bad name', 'cf'").err())
        .startsWith("ERROR: create: bad table name 'bad name': ");
    shell.ok("create 'ddl5', 'cf'");
    assertThat(shell.run("create 'ddl5', 'cf'").err())
        .isEqualTo("ERROR: table 'ddl5' already exists; 'describe 'ddl5'' shows it\n");
    assertThat(shell.run("describe 'ddl_nope'").err())
        .isEqualTo("ERROR: table 'ddl_nope' does not exist; 'list' shows the tables\n");
  }
}
