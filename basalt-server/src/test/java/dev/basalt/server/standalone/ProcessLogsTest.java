package dev.basalt.server.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The log directory: BASALT_LOG_DIR (through the launcher) wins, else logs/ under the data. */
class ProcessLogsTest {
  private String saved;

  @BeforeEach
  void save() {
    saved = System.clearProperty(ProcessLogs.DIR_PROPERTY);
  }

  @AfterEach
  void restore() {
    if (saved == null) {
      System.clearProperty(ProcessLogs.DIR_PROPERTY);
    } else {
      System.setProperty(ProcessLogs.DIR_PROPERTY, saved);
    }
  }

  @Test
  void withoutAChoiceTheLogsGoUnderTheDataDirectory() {
    Path dir = ProcessLogs.defaultTo(Path.of("/data/basalt"));
    assertThat(dir).isEqualTo(Path.of("/data/basalt/logs"));
    assertThat(System.getProperty(ProcessLogs.DIR_PROPERTY)).isEqualTo("/data/basalt/logs");
  }

  @Test
  void theLaunchersChoiceIsKept() {
    System.setProperty(ProcessLogs.DIR_PROPERTY, "/var/log/basalt");
    assertThat(ProcessLogs.defaultTo(Path.of("/data/basalt")))
        .isEqualTo(Path.of("/var/log/basalt"));
    assertThat(System.getProperty(ProcessLogs.DIR_PROPERTY)).isEqualTo("/var/log/basalt");
  }

  @Test
  void aBlankChoiceCountsAsNone() {
    System.setProperty(ProcessLogs.DIR_PROPERTY, " ");
    assertThat(ProcessLogs.defaultTo(Path.of("d"))).isEqualTo(Path.of("d", "logs"));
  }
}
