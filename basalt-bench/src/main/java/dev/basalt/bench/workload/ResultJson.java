package dev.basalt.bench.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts a {@link RunReport} to JSON and back (through {@link Json}). The field names are the
 * file format: scripts and the comparison report read them.
 */
final class ResultJson {
  private ResultJson() {}

  static String write(RunReport report) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("label", report.label());
    root.put("target", report.target());
    root.put("settings", new java.util.TreeMap<>(report.settings()));
    List<Object> phases = new ArrayList<>();
    for (PhaseResult p : report.phases()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("phase", p.phase());
      m.put("description", p.description());
      m.put("distribution", p.distribution());
      m.put("threads", p.threads());
      m.put("targetOpsPerSecond", p.targetOpsPerSecond());
      m.put("operations", p.operations());
      m.put("seconds", p.seconds());
      m.put("opsPerSecond", p.opsPerSecond());
      if (p.serverCpuMillis() >= 0) {
        m.put("serverCpuMillis", p.serverCpuMillis());
      }
      List<Object> ops = new ArrayList<>();
      for (OpResult o : p.byOperation()) {
        Map<String, Object> om = new LinkedHashMap<>();
        om.put("operation", o.operation());
        om.put("count", o.count());
        om.put("errors", o.errors());
        om.put("notFound", o.notFound());
        om.put("meanMicros", o.meanMicros());
        om.put("p50Micros", o.p50Micros());
        om.put("p95Micros", o.p95Micros());
        om.put("p99Micros", o.p99Micros());
        om.put("p999Micros", o.p999Micros());
        om.put("maxMicros", o.maxMicros());
        ops.add(om);
      }
      m.put("byOperation", ops);
      phases.add(m);
    }
    root.put("phases", phases);
    return Json.write(root) + "\n";
  }

  static RunReport read(String text) {
    Map<String, Object> root = Json.object(Json.parse(text), "the file");
    Map<String, String> settings = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : Json.object(root.get("settings"), "settings").entrySet()) {
      settings.put(e.getKey(), String.valueOf(e.getValue()));
    }
    List<PhaseResult> phases = new ArrayList<>();
    for (Object po : Json.array(root.get("phases"), "phases")) {
      Map<String, Object> p = Json.object(po, "a phase");
      List<OpResult> ops = new ArrayList<>();
      for (Object oo : Json.array(p.get("byOperation"), "byOperation")) {
        Map<String, Object> o = Json.object(oo, "an operation");
        ops.add(
            new OpResult(
                Json.string(o, "operation"),
                Json.number(o, "count").longValue(),
                Json.number(o, "errors").longValue(),
                Json.number(o, "notFound").longValue(),
                Json.number(o, "meanMicros").doubleValue(),
                Json.number(o, "p50Micros").longValue(),
                Json.number(o, "p95Micros").longValue(),
                Json.number(o, "p99Micros").longValue(),
                Json.number(o, "p999Micros").longValue(),
                Json.number(o, "maxMicros").longValue()));
      }
      phases.add(
          new PhaseResult(
              Json.string(p, "phase"),
              Json.string(p, "description"),
              Json.string(p, "distribution"),
              Json.number(p, "threads").intValue(),
              Json.number(p, "targetOpsPerSecond").doubleValue(),
              Json.number(p, "operations").longValue(),
              Json.number(p, "seconds").doubleValue(),
              ops,
              // absent in files written before it was measured
              p.containsKey("serverCpuMillis")
                  ? Json.number(p, "serverCpuMillis").longValue()
                  : -1));
    }
    return new RunReport(Json.string(root, "label"), Json.string(root, "target"), settings, phases);
  }
}
