package dev.basalt.shell;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneOffset;
import org.apache.hadoop.conf.Configuration;

/**
 * Runs shell text against the test cluster (or another one) the way -e does (output unpadded, as to
 * a pipe) and captures what it prints. Times are printed in UTC; "Took" lines are removed from
 * {@link Result#out()} (their figures vary) and counted instead.
 */
final class ShellHarness implements AutoCloseable {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private final Session session;
  private final ShellRunner runner;

  ShellHarness() {
    this(0);
  }

  ShellHarness(int width) {
    this(TestCluster.get().clientConf(), width);
  }

  /** A harness on a cluster of the caller's choice (such as {@link ClusterFixture}'s). */
  ShellHarness(Configuration conf, int width) {
    session = new Session(conf, new PrintWriter(out, true), () -> width, ZoneOffset.UTC, false);
    runner = new ShellRunner(CommandTable.standard(), session, new PrintWriter(err, true));
  }

  record Result(boolean ok, String out, String err, int took) {}

  Result run(String text) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    boolean ok = runner.runScript(text);
    StringBuilder kept = new StringBuilder();
    int took = 0;
    for (String line : out.toString().split("\n", -1)) {
      if (line.matches("Took \\d+\\.\\d{4} seconds")) {
        took++;
      } else {
        kept.append(line).append('\n');
      }
    }
    String o = kept.toString();
    o = o.endsWith("\n\n") ? o.substring(0, o.length() - 1) : o;
    return new Result(ok, o.equals("\n") ? "" : o, err.toString(), took);
  }

  /** Runs text that must succeed and returns its output. */
  String ok(String text) {
    Result r = run(text);
    if (!r.ok()) {
      throw new AssertionError("failed: " + text + "\n" + r.err() + r.out());
    }
    return r.out();
  }

  Session session() {
    return session;
  }

  @Override
  public void close() {
    session.close();
  }
}
