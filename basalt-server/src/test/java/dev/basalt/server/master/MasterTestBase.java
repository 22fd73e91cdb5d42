package dev.basalt.server.master;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Gives each master test a fresh {@link MasterFixture} over its own directory. */
abstract class MasterTestBase {
  @TempDir Path dir;
  MasterFixture m;

  @BeforeEach
  void open() throws Exception {
    m = new MasterFixture(dir);
  }

  @AfterEach
  void close() throws Exception {
    m.close();
  }
}
