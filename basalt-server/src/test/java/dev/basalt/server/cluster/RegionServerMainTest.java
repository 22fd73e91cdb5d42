package dev.basalt.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.db.ClusterCatalog;
import dev.basalt.fs.LocalStorage;
import dev.basalt.server.coordination.EmbeddedZooKeeper;
import dev.basalt.util.Clock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.StopServerRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.StopServerResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bin/basalt regionserver}'s command line: refusals, the ready file, the exit codes. */
class RegionServerMainTest {
  @TempDir Path dir;

  private record Run(int exitCode, String err) {}

  private static Run run(String... args) {
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      System.setErr(capture);
      int code = new CommandLine(new RegionServerMain()).execute(args);
      return new Run(code, err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(saved);
    }
  }

  @Test
  void refusesToRunUnlessTheClusterIsDistributed() {
    Run run = run("--root", dir.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().trim())
        .isEqualTo(
            "basalt: hbase.cluster.distributed is not true: a region server runs only in a"
                + " cluster; set -D hbase.cluster.distributed=true (or run bin/basalt standalone)");
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  void aBadSettingIsABadConfiguration() {
    Run run = run("-D", "hbase.cluster.distributed=true", "-D", "hbase.regionserver.port=many");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("hbase.regionserver.port");
  }

  @Test
  void aRootDirectoryThatDoesNotExistIsNamed() {
    Path missing = dir.resolve("nowhere");
    Run run =
        run("--root", missing.toString(), "-D", "hbase.cluster.distributed=true", "-D", "x.y=1");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains("basalt: ignoring settings Basalt does not use: [x.y]")
        .contains(
            "basalt: could not start the region server: root directory "
                + missing
                + " does not exist");
    assertThat(missing).doesNotExist();
  }

  @Test
  void writesItsReadyFileAndExitsZeroAfterStopServer() throws Exception {
    Path root = dir.resolve("root");
    String clusterId =
        ClusterCatalog.open(new LocalStorage(root), Clock.system(), true).clusterId().toString();
    try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), "127.0.0.1", 0);
        FakeMaster master = new FakeMaster(zk.connectString(), "/hbase", clusterId)) {
      Path ready = dir.resolve("ready");
      CompletableFuture<Integer> exit =
          CompletableFuture.supplyAsync(
              () ->
                  new CommandLine(new RegionServerMain())
                      .execute(
                          "--root",
                          root.toString(),
                          "--ready-file",
                          ready.toString(),
                          "-D",
                          "hbase.cluster.distributed=true",
                          "-D",
                          "hbase.regionserver.port=0",
                          "-D",
                          "hbase.zookeeper.property.clientPort=" + zk.port()));
      while (!Files.exists(ready)) {
        assertThat(exit).as("still running").isNotDone();
        Thread.sleep(20);
      }
      String line = Files.readString(ready).trim();
      assertThat(line).startsWith("regionserver=127.0.0.1,");
      ServerName rs = ServerName.parse(line.substring("regionserver=".length()));
      master.call(
          rs,
          AdminService.getDescriptor(),
          "StopServer",
          StopServerRequest.newBuilder().setReason("test").build(),
          StopServerResponse.getDefaultInstance());
      assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
    }
  }
}
