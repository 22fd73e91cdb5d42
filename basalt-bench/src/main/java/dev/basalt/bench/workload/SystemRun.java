package dev.basalt.bench.workload;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * One system's column in the comparison: its workload results and what the comparison script
 * measured about its server process (start-up time, resident memory), or nothing yet ("pending").
 *
 * @param name as shown in the report ("HBase 2.6.1", "Basalt")
 * @param results null while pending
 * @param server the script's measurements (startupSeconds, rssIdleKiB, rssAfterKiB, peakRssKiB, and
 *     free-form notes); empty while pending
 */
record SystemRun(String name, RunReport results, Map<String, String> server) {
  SystemRun {
    server = Map.copyOf(server);
  }

  static SystemRun pending(String name) {
    return new SystemRun(name, null, Map.of());
  }

  boolean isPending() {
    return results == null;
  }

  /** Reads the runner's JSON and the script's properties file. */
  static SystemRun read(String name, Path resultsJson, Path serverProperties) throws IOException {
    RunReport r = ResultJson.read(Files.readString(resultsJson, StandardCharsets.UTF_8));
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(serverProperties, StandardCharsets.UTF_8)) {
      p.load(in);
    }
    Map<String, String> server = new TreeMap<>();
    for (String k : p.stringPropertyNames()) {
      server.put(k, p.getProperty(k));
    }
    return new SystemRun(name, r, server);
  }

  PhaseResult phase(String phase) {
    if (results == null) {
      return null;
    }
    return results.phases().stream().filter(p -> p.phase().equals(phase)).findFirst().orElse(null);
  }
}
