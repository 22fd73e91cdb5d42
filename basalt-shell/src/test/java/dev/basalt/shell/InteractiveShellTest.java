package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.jline.terminal.Attributes;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interactive editor on JLine's external terminal: keystrokes go in through a pipe and the
 * screen comes out of a stream, with JLine's own line discipline in between (Ctrl-C in cooked mode
 * raises SIGINT there, as a pseudo-terminal's kernel driver would). The shell runs on its own
 * thread against the test cluster.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class InteractiveShellTest {
  private static final String TABLE = "interactive_t";
  private static final int ROWS = 3000;

  @TempDir Path dir;

  private PipedOutputStream keys;
  private Screen screen;
  private Thread shellThread;
  private final AtomicInteger exitCode = new AtomicInteger(-1);

  @BeforeAll
  static void createTable() throws IOException {
    try (ShellHarness h = new ShellHarness()) {
      h.ok("create '" + TABLE + "', 'cf'");
    }
    try (Connection c = ConnectionFactory.createConnection(TestCluster.get().clientConf());
        Table t = c.getTable(TableName.valueOf(TABLE))) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        puts.add(
            new Put(Bytes.toBytes(String.format("r%04d", i)))
                .addColumn(Bytes.toBytes("cf"), Bytes.toBytes("q"), 1000L, Bytes.toBytes("v" + i)));
      }
      t.put(puts);
    }
  }

  /** Everything the shell wrote, readable as plain text (escape sequences and \r removed). */
  static final class Screen extends OutputStream {
    private final StringBuilder raw = new StringBuilder();
    private volatile int delayMillis;

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      synchronized (raw) {
        raw.append(new String(b, off, len, StandardCharsets.UTF_8));
      }
    }

    @Override
    public void flush() {
      int d = delayMillis;
      if (d > 0) {
        try {
          Thread.sleep(d); // a slow terminal: keeps a long scan long
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }

    String text() {
      synchronized (raw) {
        return raw.toString().replaceAll("\u001B\\[[0-9;?]*[A-Za-z]", "").replace("\r", "");
      }
    }

    int length() {
      return text().length();
    }
  }

  /**
   * Starts the shell on a real pseudo-terminal: JLine's native provider opens a pty pair and pumps
   * the test's streams through its master side, so the kernel's line discipline sits between the
   * keystrokes and the editor.
   */
  private void start(Path history) throws Exception {
    start(history, null);
  }

  /**
   * With provider "exec" JLine emulates the line discipline in Java instead (ExternalTerminal): the
   * way to see Ctrl-C become SIGINT in-process, since a pty that is not the JVM's controlling
   * terminal sends its SIGINT to nobody.
   */
  private void start(Path history, String provider) throws Exception {
    PipedInputStream in = new PipedInputStream(64 * 1024);
    keys = new PipedOutputStream(in);
    screen = new Screen();
    TerminalBuilder builder =
        TerminalBuilder.builder()
            .system(false)
            .streams(in, screen)
            .type("xterm")
            .size(new Size(160, 40));
    if (provider != null) {
      builder.provider(provider);
    }
    Terminal terminal = builder.build();
    assertThat(terminal.getClass().getSimpleName())
        .isEqualTo(provider == null ? "PosixPtyTerminal" : "ExternalTerminal");
    // A terminal's cooked-mode control characters (stty sane). JLine 3.30.0's emulated line
    // discipline sets the letters instead of the control codes (VINTR = 'C'), so they are put
    // right here; ISIG and ICANON are already on.
    Attributes attrs = terminal.getAttributes();
    attrs.setControlChar(Attributes.ControlChar.VINTR, 3);
    attrs.setControlChar(Attributes.ControlChar.VEOF, 4);
    attrs.setControlChar(Attributes.ControlChar.VERASE, 127);
    attrs.setControlChar(Attributes.ControlChar.VKILL, 21);
    attrs.setControlChar(Attributes.ControlChar.VQUIT, 28);
    attrs.setControlChar(Attributes.ControlChar.VSUSP, 26);
    attrs.setControlChar(Attributes.ControlChar.VLNEXT, 22);
    attrs.setControlChar(Attributes.ControlChar.VWERASE, 23);
    attrs.setControlChar(Attributes.ControlChar.VREPRINT, 18);
    terminal.setAttributes(attrs);
    shellThread =
        new Thread(
            () -> {
              try (terminal) {
                exitCode.set(
                    new InteractiveShell(
                            terminal,
                            CommandTable.standard(),
                            TestCluster.get().clientConf(),
                            false,
                            history,
                            ZoneOffset.UTC)
                        .run());
              } catch (Exception e) {
                e.printStackTrace();
              }
            },
            "interactive-shell");
    shellThread.start();
    awaitFrom(0, "basalt:001:0> ");
  }

  @AfterEach
  void stop() throws Exception {
    if (shellThread != null && shellThread.isAlive()) {
      keys.close();
      shellThread.join(10_000);
    }
  }

  private void type(String s) throws IOException {
    keys.write(s.getBytes(StandardCharsets.UTF_8));
    keys.flush();
  }

  /** Waits until the screen, from offset {@code from}, shows {@code text}; returns its end. */
  private int awaitFrom(int from, String text) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      String s = screen.text();
      int at = s.indexOf(text, Math.min(from, s.length()));
      if (at >= 0) {
        return at + text.length();
      }
      Thread.sleep(10);
    }
    throw new AssertionError(
        "screen never showed '"
            + text
            + "' after offset "
            + from
            + ":\n"
            + screen.text().substring(Math.min(from, screen.length())));
  }

  @Test
  void historyIsRecalledWithTheUpArrowAndKeptAcrossRuns() throws Exception {
    Path history = dir.resolve("history");
    start(history);
    type("exists '" + TABLE + "'\r");
    int mark = awaitFrom(0, "Table interactive_t does exist");
    mark = awaitFrom(mark, "basalt:002:0> ");
    type("\u001BOA"); // up arrow (as an xterm in keypad mode sends it) recalls the last statement
    mark = awaitFrom(mark, "exists 'interactive_t'");
    type("\r");
    mark = awaitFrom(mark, "Table interactive_t does exist");
    type("exit\r");
    shellThread.join(10_000);
    assertThat(exitCode.get()).isZero();
    assertThat(Files.readString(history)).contains("exists 'interactive_t'").contains("exit");

    start(history); // a new run finds the old history: up twice is the exists before exit
    type("\u001BOA\u001BOA\r");
    mark = awaitFrom(0, "Table interactive_t does exist");
    type("exit\r");
    shellThread.join(10_000);
    assertThat(exitCode.get()).isZero();
  }

  @Test
  void tabCompletesCommandsTableNamesAndOptionKeys() throws Exception {
    start(dir.resolve("history"));
    type("exists 'interactive_t'\r"); // connects, so the first tab has table names at hand
    int mark = awaitFrom(0, "does exist");
    mark = awaitFrom(mark, "basalt:002:0> ");
    type("sca\t");
    mark = awaitFrom(mark, "scan ");
    type("'interactive_\t");
    mark = awaitFrom(mark, "'interactive_t'");
    type(", {LIM\t");
    mark = awaitFrom(mark, "LIMIT => ");
    type("2}\r");
    mark = awaitFrom(mark, "2 row(s)");
    assertThat(screen.text().substring(mark - 200)).contains(" r0001");
    type("exit\r");
  }

  @Test
  void aStatementLeftOpenContinuesOnTheNextLine() throws Exception {
    start(dir.resolve("history"));
    type("scan 'interactive_t', {LIMIT =>\r");
    int mark = awaitFrom(0, "basalt:001:1> ");
    type("1,\r");
    mark = awaitFrom(mark, "basalt:001:1> ");
    type("COLUMNS => ['cf:q']}\r");
    mark = awaitFrom(mark, "1 row(s)");
    mark = awaitFrom(mark, "basalt:002:0> ");
    type("scan 'interactive_t', {LIMIT => }\r"); // a real error is reported, not continued
    awaitFrom(mark, "ERROR: syntax error at column 33: expected a value");
    type("exit\r");
  }

  @Test
  void ctrlCStopsARunningScanAndTheShellGoesOn() throws Exception {
    start(dir.resolve("history"), "exec");
    type("\u0003"); // at the prompt Ctrl-C just drops the line
    int mark = awaitFrom(0, "basalt:001:0> ");
    screen.delayMillis = 2; // 3000 rows now take at least 6 s to print
    type("scan '" + TABLE + "', {CACHE => 1}\r");
    mark = awaitFrom(mark, " r0001 ");
    type("\u0003");
    mark = awaitFrom(mark, "ERROR: scan cancelled (Ctrl-C)");
    screen.delayMillis = 0;
    String cancelled = screen.text();
    assertThat(cancelled).doesNotContain(String.format(" r%04d ", ROWS - 1));
    // the terminal echoes ^C; the rows printed so far are counted on a line of their own. The echo
    // can land before the rest of a row that was being printed, so that row may follow it.
    assertThat(cancelled)
        .containsPattern("\\^C[^\\n]*\\n\\n?\\d+ row\\(s\\)\\nERROR: scan cancelled");
    screen.delayMillis = 2;
    type("count '" + TABLE + "', INTERVAL => 1, CACHE => 1\r");
    mark = awaitFrom(mark, "Current count: 2, row: r0001");
    type("\u0003");
    mark = awaitFrom(mark, "ERROR: count cancelled (Ctrl-C)");
    screen.delayMillis = 0;
    type("count '" + TABLE + "', INTERVAL => 1000\r");
    mark = awaitFrom(mark, "3000 row(s)");
    type("exit\r");
    shellThread.join(10_000);
    assertThat(exitCode.get()).isZero();
  }
}
