package dev.basalt.shell;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;

/** A test class whose tests share one {@link ShellHarness}, opened with the class, closed after. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ShellTestBase {
  final ShellHarness shell = new ShellHarness();

  @AfterAll
  void closeShell() {
    shell.close();
  }
}
