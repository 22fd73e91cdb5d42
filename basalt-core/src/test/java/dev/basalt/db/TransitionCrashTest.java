package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety of splits and merges (issue 6, item 5): a child JVM ({@link TransitionCrashMain})
 * writes while it splits and merges regions, and dies at every step of a transition (halted at each
 * fault point in turn, as {@code kill -9} would) and at random moments (SIGKILL). After each death
 * the reopened database serves every row acknowledged before, each exactly once, from a region set
 * covering the key space; compacting the table then leaves no directory of a region that does not
 * serve. {@code -Dbasalt.crash.cycles=N} sets the random cycles (default 6).
 */
class TransitionCrashTest {
  @TempDir Path dir;

  @Test
  void aCrashAtAnyStepOfASplitOrMergeLeavesOneSetOfRegionsServingEveryRow() throws Exception {
    TreeSet<String> acked = new TreeSet<>();
    int cycle = 0;
    for (String point : RegionTransitions.FAULT_POINTS) {
      List<String> lines = run(cycle, point, 0);
      collect(lines, acked);
      verify(cycle + " (halted at " + point + ")", acked);
      cycle++;
    }
    int random = Integer.getInteger("basalt.crash.cycles", 6);
    Random rnd = new Random(Long.getLong("basalt.crash.seed", System.nanoTime()));
    for (int i = 0; i < random; i++) {
      List<String> lines = run(cycle, null, 100 + rnd.nextInt(900));
      collect(lines, acked);
      verify(cycle + " (killed)", acked);
      cycle++;
    }
  }

  /**
   * Runs the child until it halts at {@code point}, or kills it after {@code killAfterMillis} of
   * work; returns its report.
   */
  private List<String> run(int cycle, String point, long killAfterMillis) throws Exception {
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path report = dir.resolve("child-" + cycle + ".report");
    List<String> cmd = new ArrayList<>();
    cmd.add(javaBin);
    cmd.add("-Xmx256m");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:TieredStopAtLevel=1");
    if (point != null) {
      cmd.add("-Dbasalt.faultpoints=" + point + "=halt");
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(TransitionCrashMain.class.getName());
    cmd.add(dir.resolve("db").toString());
    cmd.add(String.valueOf(cycle));
    cmd.add(report.toString());
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectErrorStream(true);
    Path output = dir.resolve("child-" + cycle + ".out");
    pb.redirectOutput(output.toFile());
    Process p = pb.start();
    try {
      long deadline = System.currentTimeMillis() + 60_000;
      while (!isReady(report) && p.isAlive() && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(isReady(report)).as("child %d started (output: %s)", cycle, output).isTrue();
      if (point != null) {
        assertThat(p.waitFor(120, TimeUnit.SECONDS))
            .as("child %d reached %s (output: %s)", cycle, point, output)
            .isTrue();
        assertThat(p.exitValue()).as("child %d halted at %s", cycle, point).isEqualTo(137);
      } else {
        Thread.sleep(killAfterMillis);
      }
    } finally {
      p.destroyForcibly();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    String all = Files.readString(report);
    List<String> lines = List.of(all.substring(0, all.lastIndexOf('\n') + 1).split("\n"));
    for (String l : lines) {
      assertThat(l)
          .as("child %d reported an error (output: %s)", cycle, output)
          .doesNotStartWith("ERROR");
    }
    return lines;
  }

  private static boolean isReady(Path report) throws IOException {
    if (!Files.exists(report)) {
      return false;
    }
    try (BufferedReader r = Files.newBufferedReader(report)) {
      String first = r.readLine();
      // The writer may report before READY: look for it anywhere.
      while (first != null) {
        if (first.equals("READY")) {
          return true;
        }
        first = r.readLine();
      }
      return false;
    }
  }

  private static void collect(List<String> lines, TreeSet<String> acked) {
    for (String l : lines) {
      if (l.startsWith("A ")) {
        acked.add(l.substring(2));
      }
    }
  }

  private void verify(String cycle, TreeSet<String> acked) throws IOException {
    try (Database db = Database.open(dir.resolve("db"))) {
      Table t = db.getTable(TransitionCrashMain.TABLE);
      List<String> rows = new ArrayList<>();
      try (ResultScanner s = t.getScanner(new Scan())) {
        for (Result r : s) {
          String row = Bytes.toString(r.getRow());
          assertThat(Bytes.toString(r.getValue(TransitionCrashMain.F, TransitionCrashMain.Q)))
              .isEqualTo(row);
          rows.add(row);
        }
      }
      assertThat(new TreeSet<>(rows)).as("cycle %s: no row twice", cycle).hasSize(rows.size());
      assertThat(rows).as("cycle %s: rows in order", cycle).isSorted();
      TreeSet<String> missing = new TreeSet<>(acked);
      rows.forEach(missing::remove);
      assertThat(missing).as("cycle %s: acknowledged rows missing", cycle).isEmpty();
      db.compact(TransitionCrashMain.TABLE);
      int regions = db.getRegions(TransitionCrashMain.TABLE).size();
      try (Stream<Path> s = Files.list(dir.resolve("db/data/default/transitions"))) {
        assertThat(s.filter(Files::isDirectory).count())
            .as("cycle %s: only serving regions have directories once compacted", cycle)
            .isEqualTo(regions);
      }
    }
  }
}
