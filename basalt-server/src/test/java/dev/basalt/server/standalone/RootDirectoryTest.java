package dev.basalt.server.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.util.config.Config;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** hbase.rootdir: a local directory, or a URI another storage (basalt-hdfs) serves. */
class RootDirectoryTest {
  @Test
  void localPathsAndFileUris() {
    assertThat(RootDirectory.of("data").localPath()).isEqualTo(Path.of("data"));
    assertThat(RootDirectory.of("/tmp/x").localPath()).isEqualTo(Path.of("/tmp/x"));
    assertThat(RootDirectory.of("file:///tmp/x").localPath()).isEqualTo(Path.of("/tmp/x"));
    assertThat(RootDirectory.of("file:/tmp/x").localPath()).isEqualTo(Path.of("/tmp/x"));
    assertThat(RootDirectory.of("/tmp/x").localDirectory()).isEqualTo(Path.of("/tmp/x"));
    assertThat(RootDirectory.of("/tmp/x").isLocal()).isTrue();
  }

  @Test
  void otherFileSystemsKeepTheirUriAndLocalFilesGoToTheTemporaryDirectory() {
    RootDirectory r = RootDirectory.of("hdfs://nn:8020/basalt");
    assertThat(r.isLocal()).isFalse();
    assertThat(r.toString()).isEqualTo("hdfs://nn:8020/basalt");
    assertThat(r.localDirectory())
        .isEqualTo(
            Path.of(
                System.getProperty("java.io.tmpdir"),
                "basalt-" + System.getProperty("user.name"),
                "hdfs_nn_8020_basalt"));
    assertThatThrownBy(r::localPath).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aSchemeWithoutStorageOnTheClassPathIsRefusedNamingTheKey() {
    // basalt-server's class path has no basalt-hdfs: nothing serves hdfs:// here
    assertThatThrownBy(() -> RootDirectory.of("hdfs://nn/basalt").open(Config.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("hbase.rootdir = hdfs://nn/basalt: no storage for 'hdfs:' roots")
        .hasMessageContaining("basalt-hdfs");
  }

  @Test
  void emptyIsRefusedNamingTheKey() {
    assertThatThrownBy(() -> RootDirectory.of(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hbase.rootdir is empty");
  }
}
