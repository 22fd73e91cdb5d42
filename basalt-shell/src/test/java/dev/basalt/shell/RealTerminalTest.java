package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell as a user runs it: a child JVM whose controlling terminal is a pseudo-terminal made by
 * util-linux script(1), so Ctrl-C goes through the kernel's line discipline and arrives as a real
 * SIGINT that JLine's system terminal hands to the shell.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RealTerminalTest {
  @TempDir Path dir;

  @Test
  void ctrlCOnARealTerminalStopsTheScanAndTheShellGoesOn() throws Exception {
    String table = "real_tty_t";
    try (ShellHarness h = new ShellHarness()) {
      h.ok("create '" + table + "', 'cf'");
    }
    try (Connection c = ConnectionFactory.createConnection(TestCluster.get().clientConf());
        Table t = c.getTable(TableName.valueOf(table))) {
      List<Put> puts = new java.util.ArrayList<>();
      for (int i = 0; i < 5000; i++) {
        puts.add(
            new Put(Bytes.toBytes(String.format("k%05d", i)))
                .addColumn(Bytes.toBytes("cf"), Bytes.toBytes("q"), Bytes.toBytes("v")));
      }
      t.put(puts);
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String command =
        String.join(
            " ",
            "stty cols 160 rows 40;", // script's pty starts at 0x0, which no editor can draw in
            // A test run started in the background (`cmd &` in a script) inherits SIGINT ignored,
            // and the JVM then refuses a handler for it: give the shell the default disposition.
            "exec env --default-signal=INT",
            java,
            "--add-opens java.base/java.nio=ALL-UNNAMED",
            "-cp",
            "'" + System.getProperty("java.class.path") + "'",
            ShellMain.class.getName(),
            "-z",
            "127.0.0.1:" + TestCluster.get().zooKeeperPort(),
            "--history",
            "'" + dir.resolve("history") + "'");
    Process p =
        new ProcessBuilder("script", "-q", "-f", "-e", "-c", command, "/dev/null")
            .redirectErrorStream(true)
            .start();
    Output out = new Output(p.getInputStream());
    OutputStream keys = p.getOutputStream();
    try {
      out.await("basalt:001:0> ");
      keys.write(("scan '" + table + "', {CACHE => 1}\r").getBytes(StandardCharsets.UTF_8));
      keys.flush();
      out.await(" k00010 ");
      keys.write(3); // Ctrl-C: the pty turns it into SIGINT for the foreground process
      keys.flush();
      out.await("ERROR: scan cancelled (Ctrl-C)");
      keys.write("version\r".getBytes(StandardCharsets.UTF_8));
      keys.flush();
      out.await("Took ");
      keys.write("exit\r".getBytes(StandardCharsets.UTF_8));
      keys.flush();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(out.text())
          .doesNotContain(" k04999 ")
          .containsPattern("\\n\\d+ row\\(s\\)\\r?\\n");
    } finally {
      p.destroyForcibly();
    }
  }

  /** Collects a process's output on a thread, for waiting on text. */
  static final class Output {
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

    Output(InputStream in) {
      Thread t =
          new Thread(
              () -> {
                byte[] b = new byte[8192];
                try {
                  for (int n = in.read(b); n >= 0; n = in.read(b)) {
                    synchronized (buf) {
                      buf.write(b, 0, n);
                    }
                  }
                } catch (IOException e) {
                  // the process ended
                }
              },
              "real-tty-output");
      t.setDaemon(true);
      t.start();
    }

    String text() {
      synchronized (buf) {
        return buf.toString(StandardCharsets.UTF_8).replaceAll("\u001B\\[[0-9;?]*[A-Za-z]", "");
      }
    }

    void await(String s) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
      while (System.nanoTime() < deadline) {
        if (text().contains(s)) {
          return;
        }
        Thread.sleep(20);
      }
      throw new AssertionError("never saw '" + s + "' in:\n" + text());
    }
  }
}
