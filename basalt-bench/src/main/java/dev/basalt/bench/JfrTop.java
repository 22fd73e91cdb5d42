package dev.basalt.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarises a JFR recording (for instance one written by {@code EngineComparison --jfr}): the
 * methods where CPU samples land (self), the methods on the sampled stacks (total), the allocation
 * sites by sampled weight, and GC pauses.
 *
 * <pre>
 * java -cp basalt-bench/target/benchmarks.jar dev.basalt.bench.JfrTop FILE.jfr [top=25] [thread-prefix] [stack-depth=6]
 * </pre>
 *
 * Only samples of threads whose name starts with {@code thread-prefix} count when it is given
 * (EngineComparison's workers are "bench-N", Basalt's background threads "basalt-flush" and
 * "basalt-compaction").
 */
public final class JfrTop {
  private JfrTop() {}

  public static void main(String[] args) throws IOException {
    Path file = Path.of(args[0]);
    int top = args.length > 1 ? Integer.parseInt(args[1]) : 25;
    String prefix = args.length > 2 ? args[2] : "";
    int depth = args.length > 3 ? Integer.parseInt(args[3]) : 6;
    Map<String, Long> self = new HashMap<>();
    Map<String, Long> total = new HashMap<>();
    Map<String, Long> selfLine = new HashMap<>();
    Map<String, Long> stacks = new HashMap<>();
    Map<String, Long> nativeStacks = new HashMap<>();
    Map<String, Long> blocked = new HashMap<>();
    long nativeSamples = 0;
    long blockedNanos = 0;
    Map<String, Long> allocByClass = new HashMap<>();
    Map<String, Long> allocBySite = new HashMap<>();
    long samples = 0;
    long allocTotal = 0;
    long gcPauseNanos = 0;
    long gcs = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
      String type = e.getEventType().getName();
      switch (type) {
        case "jdk.ExecutionSample" -> {
          if (!threadMatches(e, "sampledThread", prefix)) {
            continue;
          }
          RecordedStackTrace st = e.getStackTrace();
          if (st == null || st.getFrames().isEmpty()) {
            continue;
          }
          samples++;
          List<RecordedFrame> frames = st.getFrames();
          RecordedFrame f0 = frames.get(0);
          self.merge(name(f0.getMethod()), 1L, Long::sum);
          selfLine.merge(name(f0.getMethod()) + ":" + f0.getLineNumber(), 1L, Long::sum);
          stacks.merge(stack(frames, depth), 1L, Long::sum);
          Set<String> seen = new HashSet<>();
          for (RecordedFrame f : frames) {
            String n = name(f.getMethod());
            if (seen.add(n)) {
              total.merge(n, 1L, Long::sum);
            }
          }
        }
        case "jdk.ObjectAllocationSample" -> {
          if (!threadMatches(e, "eventThread", prefix)) {
            continue;
          }
          long w = e.getLong("weight");
          allocTotal += w;
          allocByClass.merge(e.getClass("objectClass").getName(), w, Long::sum);
          RecordedStackTrace st = e.getStackTrace();
          if (st != null && !st.getFrames().isEmpty()) {
            allocBySite.merge(site(st.getFrames()), w, Long::sum);
          }
        }
        case "jdk.NativeMethodSample" -> {
          if (!threadMatches(e, "sampledThread", prefix)) {
            continue;
          }
          RecordedStackTrace st = e.getStackTrace();
          if (st == null || st.getFrames().isEmpty()) {
            continue;
          }
          nativeSamples++;
          nativeStacks.merge(stack(st.getFrames(), depth), 1L, Long::sum);
        }
        case "jdk.ThreadPark", "jdk.JavaMonitorEnter", "jdk.JavaMonitorWait" -> {
          if (!threadMatches(e, "eventThread", prefix)) {
            continue;
          }
          long d = e.getDuration().toNanos();
          blockedNanos += d;
          RecordedStackTrace st = e.getStackTrace();
          String where =
              type.substring(4) + " " + (st == null ? "?" : stack(st.getFrames(), depth));
          blocked.merge(where, d, Long::sum);
        }
        case "jdk.GarbageCollection" -> {
          gcs++;
          gcPauseNanos += e.getLong("sumOfPauses");
        }
        default -> {}
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%s: %d CPU samples%s; %d GCs, %.1f ms paused; ~%,d MiB allocated (sampled weight)%n",
        file,
        samples,
        prefix.isEmpty() ? "" : " of threads " + prefix + "*",
        gcs,
        gcPauseNanos / 1e6,
        allocTotal >> 20);
    print("CPU self (top frame)", self, samples, top);
    print("CPU self by line", selfLine, samples, top);
    print("CPU total (on stack)", total, samples, top);
    print("hot stacks (top frame <- callers)", stacks, samples, top);
    System.out.printf(
        Locale.ROOT,
        "%n%d native-method samples (threads in native code, e.g. file I/O; sampled less often"
            + " than Java code); %.1f ms blocked (park, monitor enter/wait over the threshold)%n",
        nativeSamples,
        blockedNanos / 1e6);
    print("native-method stacks", nativeStacks, nativeSamples, top);
    print("blocked time by stack (share of blocked ns)", blocked, blockedNanos, top);
    print("allocation by class", allocByClass, allocTotal, top);
    print(
        "allocation by site (allocating frame <- caller <- caller)", allocBySite, allocTotal, top);
  }

  private static boolean threadMatches(RecordedEvent e, String field, String prefix) {
    if (prefix.isEmpty()) {
      return true;
    }
    var t = e.getThread(field);
    return t != null && t.getJavaName() != null && t.getJavaName().startsWith(prefix);
  }

  private static String stack(List<RecordedFrame> frames, int depth) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(depth, frames.size()); i++) {
      RecordedFrame f = frames.get(i);
      sb.append(i == 0 ? "" : "\n           <- ").append(name(f.getMethod())).append(':');
      sb.append(f.getLineNumber());
    }
    return sb.toString();
  }

  private static String site(List<RecordedFrame> frames) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(3, frames.size()); i++) {
      RecordedFrame f = frames.get(i);
      sb.append(i == 0 ? "" : " <- ").append(name(f.getMethod())).append(':');
      sb.append(f.getLineNumber());
    }
    return sb.toString();
  }

  private static String name(RecordedMethod m) {
    if (m == null) {
      return "?";
    }
    String c = m.getType().getName();
    c = c.substring(c.lastIndexOf('.') + 1);
    return c + "." + m.getName();
  }

  private static void print(String title, Map<String, Long> counts, long all, int top) {
    System.out.println();
    System.out.println("## " + title);
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(top)
        .forEach(
            en ->
                System.out.printf(
                    Locale.ROOT,
                    "%6.1f%%  %s%n",
                    100.0 * en.getValue() / Math.max(1, all),
                    en.getKey()));
  }
}
