package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.ops.Get;
import dev.basalt.ops.Result;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing child JVM with SIGKILL at random moments and checks, after each restart, that
 * every acknowledged operation is there, that operations in flight at the kill are all-or-nothing,
 * and that counters hold exactly the acknowledged increments (plus the one in flight, if it made
 * it). The table has six regions sharing the WAL ({@link CrashWriterMain}). {@code
 * -Dbasalt.crash.cycles=N} runs more cycles (default 20).
 */
class CrashRecoveryTest {
  private static final int THREADS = 4;

  @TempDir Path dir;

  /** One reported operation. */
  private record Op(int thread, String kind, String[] args) {}

  @Test
  void everyAcknowledgedWriteSurvivesSigkill() throws Exception {
    int cycles = Integer.getInteger("basalt.crash.cycles", 20);
    Random rnd = new Random(Long.getLong("basalt.crash.seed", System.nanoTime()));
    long[] counters = new long[THREADS];
    long[] generations = new long[THREADS];
    for (int cycle = 0; cycle < cycles; cycle++) {
      List<String> lines = runAndKill(cycle, 50 + rnd.nextInt(450));
      verify(cycle, lines, counters, generations);
    }
  }

  private List<String> runAndKill(int cycle, long runMillis) throws Exception {
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path report = dir.resolve("child-" + cycle + ".report");
    ProcessBuilder pb =
        new ProcessBuilder(
            javaBin,
            "-Xmx256m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            CrashWriterMain.class.getName(),
            dir.toString(),
            String.valueOf(cycle),
            String.valueOf(THREADS),
            report.toString());
    pb.redirectErrorStream(true);
    pb.redirectOutput(dir.resolve("child-" + cycle + ".out").toFile());
    Process p = pb.start();
    try {
      long deadline = System.currentTimeMillis() + 60_000;
      while (!isReady(report) && p.isAlive() && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(isReady(report))
          .as("child %d started (its output: %s)", cycle, dir.resolve("child-" + cycle + ".out"))
          .isTrue();
      // The kill comes a random time after the first acknowledgement, not after start-up: on a
      // loaded machine the writers may need longer than the whole window to get going, and a
      // cycle that acknowledged nothing tests nothing.
      while (!hasAcknowledged(report) && p.isAlive() && System.currentTimeMillis() < deadline) {
        Thread.sleep(5);
      }
      Thread.sleep(runMillis);
    } finally {
      p.destroyForcibly(); // SIGKILL
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    // Only newline-terminated lines count: the kill can cut the last write short (a write that
    // crosses a page boundary may stop between pages when SIGKILL arrives).
    String all = Files.readString(report);
    List<String> lines =
        new ArrayList<>(List.of(all.substring(0, all.lastIndexOf('\n') + 1).split("\n")));
    for (String l : lines) {
      assertThat(l).as("child reported an error").doesNotStartWith("ERROR");
    }
    return lines;
  }

  private static boolean hasAcknowledged(Path report) throws IOException {
    return Files.readString(report).contains("\nA ");
  }

  private static boolean isReady(Path report) throws IOException {
    if (!Files.exists(report)) {
      return false;
    }
    try (BufferedReader r = Files.newBufferedReader(report)) {
      return "READY".equals(r.readLine());
    }
  }

  private void verify(int cycle, List<String> lines, long[] counters, long[] generations)
      throws IOException {
    // The last operation each thread started and whether it was acknowledged.
    Map<Integer, Op> inFlight = new HashMap<>();
    Map<String, String> puts = new LinkedHashMap<>();
    List<String> deleted = new ArrayList<>();
    Map<String, String> multis = new LinkedHashMap<>();
    long[] acked = new long[THREADS];
    long[] lastGeneration = generations.clone();
    int ackCount = 0;
    for (String line : lines) {
      if (line.equals("READY")) {
        continue;
      }
      String[] w = line.split(" ");
      Op op = new Op(Integer.parseInt(w[1]), w[2], java.util.Arrays.copyOfRange(w, 3, w.length));
      if (w[0].equals("S")) {
        inFlight.put(op.thread(), op);
        continue;
      }
      ackCount++;
      inFlight.remove(op.thread());
      switch (op.kind()) {
        case "put":
          puts.put(op.args()[0], op.args()[1]);
          break;
        case "multi":
          multis.put(op.args()[0], op.args()[1]);
          break;
        case "delete":
          puts.remove(op.args()[0]);
          deleted.add(op.args()[0]);
          break;
        case "incr":
          acked[op.thread()] += Long.parseLong(op.args()[0]);
          break;
        case "rowmut":
          lastGeneration[op.thread()] = Long.parseLong(op.args()[0]);
          break;
        default:
          throw new AssertionError("unknown op " + line);
      }
    }
    try (Database db = Database.open(dir)) {
      Table t = db.getTable(CrashWriterMain.TABLE);
      for (Map.Entry<String, String> e : puts.entrySet()) {
        Result r = t.get(new Get(b(e.getKey())));
        if (r.isEmpty() && deleteInFlight(inFlight, e.getKey())) {
          continue; // its delete was running when the child died, and made it
        }
        assertThat(r.getValue(CrashWriterMain.F, b("q")))
            .as("cycle %d: acknowledged put %s", cycle, e.getKey())
            .isEqualTo(b(e.getValue()));
      }
      for (String row : deleted) {
        assertThat(t.get(new Get(b(row))).isEmpty())
            .as("cycle %d: acknowledged delete %s", cycle, row)
            .isTrue();
      }
      for (Map.Entry<String, String> e : multis.entrySet()) {
        assertMulti(t, cycle, e.getKey(), e.getValue(), false);
      }
      for (int th = 0; th < THREADS; th++) {
        Op f = inFlight.get(th);
        long base = counters[th] + acked[th];
        long value = counterValue(t, th);
        if (f != null && f.kind().equals("incr")) {
          long amount = Long.parseLong(f.args()[0]);
          assertThat(value)
              .as("cycle %d: counter %d with an increment of %d in flight", cycle, th, amount)
              .isIn(base, base + amount);
        } else {
          assertThat(value).as("cycle %d: counter %d", cycle, th).isEqualTo(base);
        }
        counters[th] = value;
        if (f != null && f.kind().equals("multi")) {
          assertMulti(t, cycle, f.args()[0], f.args()[1], true);
        }
        long gen = rowMutationGeneration(t, cycle, th);
        if (f != null && f.kind().equals("rowmut")) {
          assertThat(gen).isIn(lastGeneration[th], Long.parseLong(f.args()[0]));
        } else {
          assertThat(gen)
              .as("cycle %d: row mutations of thread %d", cycle, th)
              .isEqualTo(lastGeneration[th]);
        }
        generations[th] = gen;
      }
    }
    assertThat(ackCount).as("cycle %d acknowledged something", cycle).isPositive();
  }

  private static boolean deleteInFlight(Map<Integer, Op> inFlight, String row) {
    for (Op op : inFlight.values()) {
      if (op.kind().equals("delete") && op.args()[0].equals(row)) {
        return true;
      }
    }
    return false;
  }

  private static void assertMulti(Table t, int cycle, String row, String value, boolean maybeAbsent)
      throws IOException {
    Result r = t.get(new Get(b(row)));
    if (maybeAbsent && r.isEmpty()) {
      return;
    }
    assertThat(r.size()).as("cycle %d: multi-column put %s is whole", cycle, row).isEqualTo(5);
    for (Cell c : r.rawCells()) {
      assertThat(CellUtil.cloneValue(c)).isEqualTo(b(value));
    }
  }

  private static long counterValue(Table t, int thread) throws IOException {
    byte[] v = t.get(new Get(b("counter-" + thread))).getValue(CrashWriterMain.F, b("n"));
    return v == null ? 0 : Bytes.toLong(v);
  }

  /** The generation of the thread's row-mutation row, checking it is whole. */
  private static long rowMutationGeneration(Table t, int cycle, int thread) throws IOException {
    Result r = t.get(new Get(b("rm-" + thread)));
    if (r.isEmpty()) {
      return 0;
    }
    assertThat(r.size())
        .as("cycle %d: row mutation of thread %d is whole", cycle, thread)
        .isEqualTo(3);
    long gen = Bytes.toLong(CellUtil.cloneValue(r.rawCells()[0]));
    for (Cell c : r.rawCells()) {
      assertThat(Bytes.toLong(CellUtil.cloneValue(c))).isEqualTo(gen);
    }
    return gen;
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }
}
