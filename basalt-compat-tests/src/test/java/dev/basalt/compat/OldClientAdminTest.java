package dev.basalt.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The admin part of the compatibility suite with an older stock client, hbase-shaded-client 2.5.11
 * (copied to target/old-client by the build), in a child JVM against a standalone server in this
 * one: DDL, namespaces, listings, and Admin.flush, which clients before 2.6 send as
 * ExecProcedure("flush-table-proc").
 */
class OldClientAdminTest extends OneConnectionTest {
  private static final long TIMEOUT_SECONDS = 120;

  @Test
  void theAdminPartRunsWithHBaseClient25() throws Exception {
    Path jars = Path.of("target", "old-client").toAbsolutePath();
    List<String> classPath = new ArrayList<>();
    try (Stream<Path> s = Files.list(jars)) {
      s.filter(p -> p.toString().endsWith(".jar")).forEach(p -> classPath.add(p.toString()));
    }
    assertThat(classPath).anyMatch(p -> p.contains("hbase-shaded-client-2.5."));
    classPath.add(Path.of("target", "test-classes").toAbsolutePath().toString());
    Path out = dir.resolve("old-client.out");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "--add-opens",
                "java.base/java.nio=ALL-UNNAMED",
                "-cp",
                String.join(File.pathSeparator, classPath),
                "dev.basalt.compat.oldclient.OldClientAdminMain",
                Integer.toString(target.zooKeeperPort()))
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    try {
      boolean exited = p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      String output = Files.readString(out, StandardCharsets.UTF_8);
      assertThat(exited).as("the 2.5 client finished; it printed:%n%s", output).isTrue();
      assertThat(p.exitValue()).as("the 2.5 client's run:%n%s", output).isZero();
      assertThat(output)
          .contains("client: 2.5.")
          .contains("ok: Admin.flush(table) wrote each region's memstore")
          .contains("ok: namespace deleted");
    } finally {
      p.destroyForcibly();
    }
  }
}
