package dev.basalt.bench.replication;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * The measurement's report: Markdown lines printed as they come and kept, written to a file at the
 * end (so a run's figures survive a terminal that scrolled away).
 */
final class Report {
  private final PrintStream out;
  private final List<String> lines = new ArrayList<>();

  Report(PrintStream out) {
    this.out = out;
  }

  void line(String format, Object... args) {
    String s = String.format(Locale.ROOT, format, args);
    lines.add(s);
    out.println(s);
    out.flush();
  }

  /** A progress note: printed, not kept in the report. */
  void note(String format, Object... args) {
    out.println("# " + String.format(Locale.ROOT, format, args));
    out.flush();
  }

  /** The lag table: one row per stage of the probe's markers, with the source's own figures. */
  void lagTable(
      Map<String, Histogram> lags,
      Map<String, Histogram> puts,
      Map<String, Histogram> polls,
      Map<String, SourceSampler.Figures> sources) {
    line(
        "| stage | markers seen | lag p50 ms | p99 ms | max ms | marker put p50 / p99 µs |"
            + " lookup on B p50 / p99 / max µs |"
            + " source's figures (status 'replication', sampled each second) |");
    line("| --- | ---: | ---: | ---: | ---: | --- | --- | --- |");
    // every stage either saw, in the order they came (the sampler saw each one; markers pause
    // while the peer is down)
    Set<String> stages = new LinkedHashSet<>(sources.keySet());
    stages.addAll(lags.keySet());
    for (String stage : stages) {
      Histogram h = lags.get(stage);
      Histogram p = puts.get(stage);
      Histogram q = polls.get(stage);
      SourceSampler.Figures f = sources.get(stage);
      line(
          "| %s | %s | %s | %s | %s | %s | %s | %s |",
          stage,
          h == null ? "0" : String.format(Locale.ROOT, "%,d", h.getTotalCount()),
          h == null ? "" : String.format(Locale.ROOT, "%,d", h.getValueAtPercentile(50)),
          h == null ? "" : String.format(Locale.ROOT, "%,d", h.getValueAtPercentile(99)),
          h == null ? "" : String.format(Locale.ROOT, "%,d", h.getMaxValue()),
          p == null
              ? ""
              : String.format(
                  Locale.ROOT, "%,d / %,d", p.getValueAtPercentile(50), p.getValueAtPercentile(99)),
          q == null
              ? ""
              : String.format(
                  Locale.ROOT,
                  "%,d / %,d / %,d",
                  q.getValueAtPercentile(50),
                  q.getValueAtPercentile(99),
                  q.getMaxValue()),
          f == null ? "" : f.toString());
    }
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  void writeTo(Path file) throws IOException {
    Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    out.println("report written to " + file);
  }
}
