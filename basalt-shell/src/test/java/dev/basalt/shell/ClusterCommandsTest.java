package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.junit.jupiter.api.Test;

/**
 * split, flush, compactions, namespaces, version, whoami, help, exit (status: StatusCommandTest).
 */
class ClusterCommandsTest extends ShellTestBase {
  @Test
  void flushCompactAndSplitKeepTheData() throws Exception {
    shell.ok("create 'adm1', 'cf'; put 'adm1', 'a', 'cf:q', '1'; put 'adm1', 'z', 'cf:q', '2'");
    ShellHarness.Result r =
        shell.run("flush 'adm1'; flush 'adm1', 'cf'; compact 'adm1'; major_compact 'adm1', 'cf'");
    assertThat(r.ok()).isTrue();
    assertThat(r.out()).isEmpty();
    assertThat(r.took()).isEqualTo(4);
    shell.ok("split 'adm1', 'm'");
    // the split is asynchronous on the server; the rows stay readable throughout
    assertThat(shell.ok("count 'adm1'")).isEqualTo("2 row(s)\n");
    Admin admin = shell.session().admin();
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (admin.getRegions(TableName.valueOf("adm1")).size() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(admin.getRegions(TableName.valueOf("adm1"))).hasSize(2);
    assertThat(shell.run("flush 'adm_nope'").err())
        .isEqualTo("ERROR: table 'adm_nope' does not exist; 'list' shows the tables\n");
  }

  @Test
  void namespacesCreateListDescribeDrop() {
    shell.ok("create_namespace 'admns', {'owner' => 'me'}");
    assertThat(shell.ok("list_namespace 'adm.*'")).isEqualTo("NAMESPACE\nadmns\n1 row(s)\n");
    assertThat(shell.ok("describe_namespace 'admns'"))
        .isEqualTo("DESCRIPTION\n{NAME => 'admns', owner => 'me'}\n");
    assertThat(shell.run("create_namespace 'admns'").err())
        .isEqualTo("ERROR: namespace 'admns' already exists\n");
    shell.ok("drop_namespace 'admns'");
    assertThat(shell.run("drop_namespace 'admns'").err())
        .isEqualTo(
            "ERROR: namespace 'admns' does not exist; 'list_namespace' shows the namespaces\n");
    assertThat(shell.run("create 'nons:t', 'cf'").err())
        .isEqualTo(
            "ERROR: namespace 'nons' does not exist; 'list_namespace' shows the namespaces\n");
  }

  @Test
  void versionWhoamiHelpAndExit() {
    assertThat(shell.ok("version")).matches("2\\.6\\.3-hadoop3, r[0-9a-f]+, .+\n");
    assertThat(shell.ok("whoami")).startsWith(System.getProperty("user.name") + " (auth:SIMPLE)\n");
    String help = shell.ok("help");
    assertThat(help)
        .contains(
            "  Group name: dml\n  Commands: append, count, delete, deleteall, get, get_counter, incr, put, scan\n");
    ShellHarness.Result r = shell.run("help 'scan'");
    assertThat(r.took()).isZero();
    assertThat(r.out())
        .startsWith("Reads rows in key order.")
        .contains("basalt> scan 't1', {COLUMNS => ['cf:a'], LIMIT => 10, VERSIONS => 3}");
    assertThat(shell.ok("help 'desc'")).startsWith("Describes a table");
    assertThat(shell.ok("help 'namespace'"))
        .startsWith("Command group: namespace\n  list_namespace: ");
    assertThat(shell.run("help 'sacn'").err())
        .isEqualTo("ERROR: help: no command or group named 'sacn'; did you mean 'scan'?\n");
    for (Command c : CommandTable.standard().all()) {
      assertThat(shell.ok("help '" + c.name() + "'")).as(c.name()).contains("basalt> ");
    }
  }

  @Test
  void unknownCommandsSuggestTheClosestAndScriptsStopAtTheFirstFailure() {
    ShellHarness.Result r = shell.run("version; sacn 't'; version");
    assertThat(r.ok()).isFalse();
    assertThat(r.took()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            "ERROR: unknown command 'sacn'; did you mean 'scan'? ('help' lists the commands)\n");
    assertThat(shell.run("frobnicate").err())
        .isEqualTo("ERROR: unknown command 'frobnicate' ('help' lists the commands)\n");
    assertThat(shell.run("version; scan 't', {LIMIT => }").err())
        .isEqualTo(
            "ERROR: syntax error at column 30: expected a value (a 'string', a number, [an, array] or {A"
                + " => hash}), found '}'\n");
    try (ShellHarness own = new ShellHarness()) {
      ShellHarness.Result exit = own.run("exit; version");
      assertThat(exit.ok()).isTrue();
      assertThat(exit.took()).isZero();
      assertThat(own.run("version").took()).isZero();
    }
    try (ShellHarness own = new ShellHarness()) {
      assertThat(own.run("quit; version").took()).isZero();
    }
  }
}
