package dev.basalt.server.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** hbase.rootdir as a local directory (the rules of StandaloneServer.rootDir). */
class RootDirectoryTest {
  @Test
  void localPathsAndFileUris() {
    assertThat(RootDirectory.of("data")).isEqualTo(Path.of("data"));
    assertThat(RootDirectory.of("/tmp/x")).isEqualTo(Path.of("/tmp/x"));
    assertThat(RootDirectory.of("file:///tmp/x")).isEqualTo(Path.of("/tmp/x"));
    assertThat(RootDirectory.of("file:/tmp/x")).isEqualTo(Path.of("/tmp/x"));
  }

  @Test
  void otherFileSystemsAndEmptyAreRefusedNamingTheKey() {
    assertThatThrownBy(() -> RootDirectory.of("hdfs://nn/basalt"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "hbase.rootdir = hdfs://nn/basalt: only local directories are supported in standalone"
                + " mode");
    assertThatThrownBy(() -> RootDirectory.of(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hbase.rootdir is empty");
  }
}
