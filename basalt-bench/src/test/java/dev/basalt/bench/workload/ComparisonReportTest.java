package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComparisonReportTest {
  @TempDir Path dir;

  private static SystemRun hbase() {
    return new SystemRun(
        "HBase",
        ResultFormatsTest.sample(),
        Map.of(
            "startupSeconds", "18.5",
            "rssIdleKiB", "716800",
            "rssAfterKiB", "1048576",
            "peakRssKiB", "1153434",
            "storage", "local filesystem",
            "heap", "-Xmx4g"));
  }

  @Test
  void pendingCandidateIsSaidClearly() {
    String s = ComparisonReport.section(hbase(), SystemRun.pending("Basalt"), "Command: x");
    assertThat(s)
        .startsWith(ComparisonReport.BEGIN + "\nCommand: x\n\n**Basalt: pending.**")
        .endsWith(ComparisonReport.END + "\n")
        .contains("| load | 500 | pending |  |  |")
        .contains("| A (update heavy) | 500 | pending |  | >= 2x |")
        .contains("| A | READ | 400 | 1,800 | 5,000 | pending | pending | pending |  |")
        .contains("| start-up to first answer, s | 18.5 | pending |")
        .contains("| resident memory when ready, MiB | 700 | pending |")
        .contains("| peak resident memory, MiB | 1,126 | pending |");
  }

  @Test
  void ratiosAreCandidateOverBaseline() {
    RunReport faster =
        new RunReport(
            "basalt",
            "x",
            Map.of(),
            List.of(
                new PhaseResult(
                    "A",
                    "update heavy: 50% read, 50% update",
                    "zipfian",
                    4,
                    0,
                    2000,
                    1.0,
                    List.of(new OpResult("READ", 1000, 0, 0, 100, 90, 300, 450, 900, 1000))),
                new PhaseResult(
                    "reload",
                    "drop and re-create the table, insert 500 records",
                    "-",
                    4,
                    0,
                    500,
                    0.25,
                    List.of(new OpResult("INSERT", 500, 0, 0, 100, 90, 300, 450, 900, 1000)))));
    SystemRun basalt = new SystemRun("Basalt", faster, Map.of("startupSeconds", "1.2"));
    String s = ComparisonReport.section(hbase(), basalt, "");
    assertThat(s)
        .contains("| A (update heavy) | 500 | 2,000 | 4.00x | >= 2x |")
        .contains("| A | READ | 400 | 1,800 | 5,000 | 90 | 450 | 900 | 0.25x |")
        .contains("| A | UPDATE | 500 | 2,000 | 6,000 | – | – | – |  |")
        .contains("| load | 500 | – |  |  |")
        .contains("| reload | – | 2,000 |  |  |")
        .contains("| start-up to first answer, s | 18.5 | 1.2 |");
  }

  @Test
  void updateReplacesThePreviousSectionOrAppends() {
    String doc = "# Perf\n\nintro\n";
    String first =
        ComparisonReport.replaceSection(
            doc, ComparisonReport.BEGIN + "\nold\n" + ComparisonReport.END + "\n");
    assertThat(first)
        .isEqualTo(doc + "\n" + ComparisonReport.BEGIN + "\nold\n" + ComparisonReport.END + "\n");
    String withTail = first + "\n## History\n";
    String second =
        ComparisonReport.replaceSection(
            withTail, ComparisonReport.BEGIN + "\nnew\n" + ComparisonReport.END + "\n");
    assertThat(second)
        .isEqualTo(
            doc
                + "\n"
                + ComparisonReport.BEGIN
                + "\nnew\n"
                + ComparisonReport.END
                + "\n\n## History\n");
  }

  @Test
  void mainReadsTheFilesAndUpdatesTheDocument() throws Exception {
    Path json = dir.resolve("hbase.json");
    Files.writeString(json, ResultJson.write(ResultFormatsTest.sample()));
    Path props = dir.resolve("hbase.properties");
    Files.writeString(props, "startupSeconds=20.0\nrssIdleKiB=1024\nstorage=local filesystem\n");
    Path notes = dir.resolve("notes.md");
    Files.writeString(notes, "Measured on a test.\n");
    Path doc = dir.resolve("PERFORMANCE.md");
    Files.writeString(doc, "# Perf\n");
    Path out = dir.resolve("comparison.md");
    ComparisonReport.main(
        new String[] {
          "--baseline",
          "HBase 2.6.1",
          json.toString(),
          props.toString(),
          "--candidate",
          "Basalt",
          "pending",
          "--notes",
          notes.toString(),
          "--out",
          out.toString(),
          "--update",
          doc.toString()
        });
    String section = Files.readString(out);
    assertThat(section)
        .contains("Measured on a test.")
        .contains("| storage | local filesystem | pending |");
    assertThat(Files.readString(doc)).isEqualTo("# Perf\n\n" + section);
  }
}
