package dev.basalt.bench.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Writes the side-by-side comparison of two systems' workload runs (issue 9) as Markdown:
 * throughput per phase with the ratio, p50/p99 per operation with the ratio, and the servers'
 * start-up time and resident memory. A system whose run is missing shows as "pending". With {@code
 * --update FILE} the section replaces the previous one in that file (between the markers {@link
 * #BEGIN} and {@link #END}), or is appended.
 *
 * <pre>
 * java -cp benchmarks.jar dev.basalt.bench.workload.ComparisonReport \
 *     --baseline "HBase 2.6.1" hbase.json hbase.server.properties \
 *     --candidate Basalt pending \
 *     --notes notes.md --out comparison.md [--update docs/PERFORMANCE.md]
 * </pre>
 */
public final class ComparisonReport {
  static final String BEGIN =
      "<!-- workload comparison (basalt-bench/scripts/compare-hbase.sh): begin -->";
  static final String END =
      "<!-- workload comparison (basalt-bench/scripts/compare-hbase.sh): end -->";

  /** Issue 9's targets, shown beside the ratios (measured, never asserted). */
  static final Map<String, String> THROUGHPUT_TARGETS =
      Map.of("A", ">= 2x", "B", ">= 2x", "C", ">= 2x", "F", ">= 2x", "E", ">= 1.5x");

  private ComparisonReport() {}

  public static void main(String[] args) throws IOException {
    SystemRun baseline = null;
    SystemRun candidate = null;
    String notes = "";
    Path out = null;
    Path update = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--baseline", "--candidate" -> {
          boolean isBaseline = args[i].equals("--baseline");
          String name = args[++i];
          SystemRun s;
          if (args[i + 1].equals("pending")) {
            s = SystemRun.pending(name);
            i += 1;
          } else {
            s = SystemRun.read(name, Path.of(args[i + 1]), Path.of(args[i + 2]));
            i += 2;
          }
          if (isBaseline) {
            baseline = s;
          } else {
            candidate = s;
          }
        }
        case "--notes" -> notes = Files.readString(Path.of(args[++i]), StandardCharsets.UTF_8);
        case "--out" -> out = Path.of(args[++i]);
        case "--update" -> update = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (baseline == null || candidate == null) {
      throw new IllegalArgumentException("--baseline and --candidate are both required");
    }
    String section = section(baseline, candidate, notes);
    if (out != null) {
      Files.writeString(out, section, StandardCharsets.UTF_8);
    }
    if (update != null) {
      String doc = Files.readString(update, StandardCharsets.UTF_8);
      Files.writeString(update, replaceSection(doc, section), StandardCharsets.UTF_8);
    }
    System.out.print(section);
  }

  /** The document with the marked section replaced, or the section appended when absent. */
  static String replaceSection(String doc, String section) {
    int b = doc.indexOf(BEGIN);
    int e = doc.indexOf(END);
    if (b >= 0 && e > b) {
      return doc.substring(0, b)
          + section
          + doc.substring(e + END.length()).replaceFirst("^\n", "");
    }
    return doc + (doc.endsWith("\n") ? "\n" : "\n\n") + section;
  }

  static String section(SystemRun base, SystemRun cand, String notes) {
    StringBuilder sb = new StringBuilder();
    sb.append(BEGIN).append('\n');
    if (!notes.isBlank()) {
      sb.append(notes.strip()).append("\n\n");
    }
    if (cand.isPending()) {
      sb.append("**")
          .append(cand.name())
          .append(": pending.** Its column fills in when the script can start it; until then only ")
          .append(base.name())
          .append("'s figures are measured.\n\n");
    }
    throughput(sb, base, cand);
    latency(sb, base, cand);
    servers(sb, base, cand);
    sb.append(END).append('\n');
    return sb.toString();
  }

  private static List<String> phases(SystemRun base, SystemRun cand) {
    Set<String> names = new LinkedHashSet<>();
    for (SystemRun s : List.of(base, cand)) {
      if (!s.isPending()) {
        s.results().phases().forEach(p -> names.add(p.phase()));
      }
    }
    return new ArrayList<>(names);
  }

  private static void throughput(StringBuilder sb, SystemRun base, SystemRun cand) {
    boolean cpu = hasServerCpu(base) || hasServerCpu(cand);
    sb.append("Throughput (operations per second; a read-modify-write counts once)");
    if (cpu) {
      sb.append(" and the server's CPU time per operation (microseconds: the whole server process,")
          .append(
              " every thread, utime + stime from /proc/PID/stat read just before and just after")
          .append(" the phase's measured window, divided by the window's operations)");
    }
    sb.append(":\n\n");
    sb.append("| phase | ")
        .append(base.name())
        .append(" | ")
        .append(cand.name())
        .append(" | ")
        .append(cand.name())
        .append(" ÷ ")
        .append(base.name())
        .append(" | target |");
    if (cpu) {
      sb.append(" ")
          .append(base.name())
          .append(" server CPU per op | ")
          .append(cand.name())
          .append(" server CPU per op | ")
          .append(cand.name())
          .append(" ÷ ")
          .append(base.name())
          .append(" |");
    }
    sb.append('\n');
    sb.append("| --- | ---: | ---: | ---: | --- |").append(cpu ? " ---: | ---: | ---: |" : "");
    sb.append('\n');
    for (String phase : phases(base, cand)) {
      PhaseResult b = base.phase(phase);
      PhaseResult c = cand.phase(phase);
      sb.append("| ")
          .append(isLoad(phase) ? phase : phase + " (" + description(b, c) + ")")
          .append(" | ")
          .append(b == null ? pendingOrNone(base) : number(b.opsPerSecond()))
          .append(" | ")
          .append(c == null ? pendingOrNone(cand) : number(c.opsPerSecond()))
          .append(" | ")
          .append(b == null || c == null ? "" : ratio(c.opsPerSecond(), b.opsPerSecond()))
          .append(" | ")
          .append(THROUGHPUT_TARGETS.getOrDefault(phase, ""))
          .append(" |");
      if (cpu) {
        boolean both = b != null && b.hasServerCpu() && c != null && c.hasServerCpu();
        sb.append(' ')
            .append(cpuCell(b, base))
            .append(" | ")
            .append(cpuCell(c, cand))
            .append(" | ")
            .append(
                both ? ratio(c.serverCpuMicrosPerOperation(), b.serverCpuMicrosPerOperation()) : "")
            .append(" |");
      }
      sb.append('\n');
    }
    sb.append('\n');
  }

  private static boolean hasServerCpu(SystemRun s) {
    return !s.isPending() && s.results().phases().stream().anyMatch(PhaseResult::hasServerCpu);
  }

  private static String cpuCell(PhaseResult p, SystemRun s) {
    if (p == null) {
      return pendingOrNone(s);
    }
    return p.hasServerCpu() ? number(p.serverCpuMicrosPerOperation()) : "–";
  }

  private static void latency(StringBuilder sb, SystemRun base, SystemRun cand) {
    sb.append("Latency per operation (microseconds; target: ")
        .append(cand.name())
        .append("'s p99 at most half of ")
        .append(base.name())
        .append("'s):\n\n");
    sb.append("| phase | operation | ")
        .append(base.name())
        .append(" p50 | p99 | p99.9 | ")
        .append(cand.name())
        .append(" p50 | p99 | p99.9 | p99 ")
        .append(cand.name())
        .append(" ÷ ")
        .append(base.name())
        .append(" |\n");
    sb.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (String phase : phases(base, cand)) {
      PhaseResult b = base.phase(phase);
      PhaseResult c = cand.phase(phase);
      Set<String> ops = new LinkedHashSet<>();
      for (PhaseResult p : new PhaseResult[] {b, c}) {
        if (p != null) {
          p.byOperation().forEach(o -> ops.add(o.operation()));
        }
      }
      for (String op : ops) {
        OpResult bo = find(b, op);
        OpResult co = find(c, op);
        sb.append("| ").append(phase).append(" | ").append(op).append(" | ");
        cells(sb, bo, base);
        cells(sb, co, cand);
        sb.append(bo == null || co == null ? "" : ratio(co.p99Micros(), bo.p99Micros()))
            .append(" |\n");
      }
    }
    sb.append('\n');
  }

  private static void cells(StringBuilder sb, OpResult o, SystemRun s) {
    if (o == null) {
      String p = pendingOrNone(s);
      sb.append(p).append(" | ").append(p).append(" | ").append(p).append(" | ");
      return;
    }
    sb.append(number(o.p50Micros()))
        .append(" | ")
        .append(number(o.p99Micros()))
        .append(" | ")
        .append(number(o.p999Micros()))
        .append(" | ");
  }

  private static void servers(StringBuilder sb, SystemRun base, SystemRun cand) {
    sb.append("Server process (measured by the script from outside the JVM):\n\n");
    sb.append("| | ").append(base.name()).append(" | ").append(cand.name()).append(" |\n");
    sb.append("| --- | ---: | ---: |\n");
    row(sb, "start-up to first answer, s", base, cand, "startupSeconds", 1);
    row(sb, "resident memory when ready, MiB", base, cand, "rssIdleKiB", 1024);
    row(sb, "resident memory after the run, MiB", base, cand, "rssAfterKiB", 1024);
    row(sb, "peak resident memory, MiB", base, cand, "peakRssKiB", 1024);
    sb.append("| storage | ")
        .append(base.server().getOrDefault("storage", pendingOrNone(base)))
        .append(" | ")
        .append(cand.server().getOrDefault("storage", pendingOrNone(cand)))
        .append(" |\n");
    sb.append("| JVM heap | ")
        .append(base.server().getOrDefault("heap", pendingOrNone(base)))
        .append(" | ")
        .append(cand.server().getOrDefault("heap", pendingOrNone(cand)))
        .append(" |\n\n");
  }

  private static void row(
      StringBuilder sb, String label, SystemRun base, SystemRun cand, String key, double divisor) {
    sb.append("| ")
        .append(label)
        .append(" | ")
        .append(serverValue(base, key, divisor))
        .append(" | ")
        .append(serverValue(cand, key, divisor))
        .append(" |\n");
  }

  private static String serverValue(SystemRun s, String key, double divisor) {
    String v = s.server().get(key);
    if (v == null) {
      return pendingOrNone(s);
    }
    try {
      double d = Double.parseDouble(v) / divisor;
      return String.format(Locale.ROOT, divisor == 1 ? "%,.1f" : "%,.0f", d);
    } catch (NumberFormatException e) {
      return v;
    }
  }

  private static OpResult find(PhaseResult p, String op) {
    if (p == null) {
      return null;
    }
    return p.byOperation().stream().filter(o -> o.operation().equals(op)).findFirst().orElse(null);
  }

  private static boolean isLoad(String phase) {
    return phase.equals("load") || phase.equals("reload");
  }

  private static String description(PhaseResult b, PhaseResult c) {
    PhaseResult p = b != null ? b : c;
    String d = p.description();
    int colon = d.indexOf(':');
    return colon > 0 ? d.substring(0, colon) : d;
  }

  private static String pendingOrNone(SystemRun s) {
    return s.isPending() ? "pending" : "–";
  }

  static String number(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  static String ratio(double candidate, double baseline) {
    return baseline > 0 ? String.format(Locale.ROOT, "%.2fx", candidate / baseline) : "–";
  }
}
