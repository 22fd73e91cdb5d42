package dev.basalt.bench.chaos;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The soak's tallies: per action name, how often it ran and the distribution (median, max) of its
 * times (recovery, the probe's longest gap, and every figure an action reports in milliseconds);
 * the processes killed; the invariant checks. Not thread-safe: the soak's main thread owns it.
 */
final class SoakSummary {
  private final Map<String, Map<String, List<Long>>> times = new TreeMap<>();
  private final Map<String, Integer> runs = new TreeMap<>();
  private final Map<String, List<String>> notes = new TreeMap<>();
  long regionServersKilled;
  long mastersKilled;
  long checksPassed;
  long checksFailed;
  long probeFailures;
  long faultActions;
  String failure;

  void add(SoakActions.Ran ran, GapProbe.Window probe) {
    ActionReport r = ran.report();
    String name = r.action();
    runs.merge(name, 1, Integer::sum);
    regionServersKilled += ran.regionServersKilled();
    mastersKilled += ran.mastersKilled();
    probeFailures += probe.failures();
    Map<String, List<Long>> t = times.computeIfAbsent(name, k -> new LinkedHashMap<>());
    if (r.recoveryMillis() >= 0) {
      t.computeIfAbsent("recovery", k -> new ArrayList<>()).add(r.recoveryMillis());
    }
    t.computeIfAbsent("probe gap", k -> new ArrayList<>()).add(probe.maxGapMillis());
    for (Map.Entry<String, Object> d : r.details().entrySet()) {
      if (d.getKey().endsWith("Millis") && d.getValue() instanceof Number n && n.longValue() >= 0) {
        t.computeIfAbsent(d.getKey(), k -> new ArrayList<>()).add(n.longValue());
      } else if (!d.getKey().endsWith("Millis")
          && !(d.getValue() instanceof Number)
          && !"true".equals(String.valueOf(d.getValue()))) {
        // the unusual outcomes worth reading: a fault point not reached, a failed DDL call...
        notes.computeIfAbsent(name, k -> new ArrayList<>()).add(d.getKey() + "=" + d.getValue());
      }
    }
  }

  /** The figures of one action and measure, for the callers that assert on them. */
  List<Long> times(String action, String measure) {
    return times.getOrDefault(action, Map.of()).getOrDefault(measure, List.of());
  }

  void print(PrintStream out, LinkedListVerifier.Result verified, LinkedListWriter.Written w) {
    out.println("== chaos soak summary");
    out.printf(
        "fault actions: %d; region server processes killed (kill -9 or halted at a fault point):"
            + " %d; master processes killed: %d%n",
        faultActions, regionServersKilled, mastersKilled);
    out.printf(
        "invariant checks: %d passed, %d failed; probe operations failed: %d%n",
        checksPassed, checksFailed, probeFailures);
    for (Map.Entry<String, Integer> e : runs.entrySet()) {
      StringBuilder line =
          new StringBuilder(String.format("  %-44s x%-3d", e.getKey(), e.getValue()));
      for (Map.Entry<String, List<Long>> m : times.get(e.getKey()).entrySet()) {
        line.append(String.format(" %s %s;", m.getKey(), medianMax(m.getValue())));
      }
      List<String> n = notes.get(e.getKey());
      if (n != null) {
        line.append(" notes: ").append(n.size() > 6 ? n.subList(0, 6) + "..." : n);
      }
      out.println(line);
    }
    out.println("writers: " + w);
    out.println("verifier: " + verified);
    out.println(failure == null ? "RESULT: PASSED" : "RESULT: FAILED: " + failure);
  }

  /** {@code median M ms, max X ms} (n = 1: just the value). */
  static String medianMax(List<Long> values) {
    List<Long> s = new ArrayList<>(values);
    Collections.sort(s);
    if (s.size() == 1) {
      return s.get(0) + " ms";
    }
    return "median " + median(s) + " ms, max " + s.get(s.size() - 1) + " ms (n=" + s.size() + ")";
  }

  static long median(List<Long> sorted) {
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** CPUs, memory, CPU model, OS and Java of this machine, for the record. */
  static String machine() {
    String model = "?";
    long memKb = -1;
    try {
      for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (l.startsWith("model name")) {
          model = l.substring(l.indexOf(':') + 1).trim();
          break;
        }
      }
      for (String l : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (l.startsWith("MemTotal:")) {
          memKb = Long.parseLong(l.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: say what Java knows
    }
    return String.format(
        "%d CPUs (%s), %s RAM, %s %s, Java %s",
        Runtime.getRuntime().availableProcessors(),
        model,
        memKb < 0 ? "?" : (memKb / 1024 / 1024) + " GiB",
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        System.getProperty("java.version"));
  }
}
