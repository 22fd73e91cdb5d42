package dev.basalt.server.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** basalt-site.xml and .properties files, and the errors a broken one gives. */
class SiteConfigTest {
  @TempDir Path dir;

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  @Test
  void readsHadoopStyleXmlAndCommandLineOverridesWin() throws IOException {
    Path f =
        write(
            "basalt-site.xml",
            """
            <?xml version="1.0"?>
            <configuration>
              <property><name>hbase.rootdir</name><value> /data/b </value></property>
              <property><name>hbase.master.port</name><value>16100</value></property>
              <property><name>hbase.some.hbase.only.key</name><value>x</value></property>
            </configuration>
            """);
    Config c = SiteConfig.load(f, Map.of("hbase.master.port", "16200"));
    assertThat(c.get(StandaloneSettings.ROOT_DIR)).isEqualTo("/data/b");
    assertThat(c.get(StandaloneSettings.MASTER_PORT)).isEqualTo(16200);
    assertThat(c.get(StandaloneSettings.REGIONSERVER_PORT)).isEqualTo(16020);
    assertThat(c.unknownKeys()).containsExactly("hbase.some.hbase.only.key");
  }

  @Test
  void readsPropertiesFiles() throws IOException {
    Path f = write("basalt.properties", "hbase.regionserver.port = 17020\n");
    assertThat(SiteConfig.load(f, Map.of()).get(StandaloneSettings.REGIONSERVER_PORT))
        .isEqualTo(17020);
  }

  @Test
  void brokenFilesAreReportedWithFileAndLine() throws IOException {
    Path bad = write("bad.xml", "<configuration>\n<property><name>a</name>\n</configuration>\n");
    assertThatThrownBy(() -> SiteConfig.load(bad, Map.of()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("bad.xml")
        .hasMessageContaining("line 3");
    Path wrongRoot = write("root.xml", "<props/>");
    assertThatThrownBy(() -> SiteConfig.load(wrongRoot, Map.of()))
        .hasMessageContaining("<configuration>");
    Path noName =
        write("noname.xml", "<configuration><property><value>1</value></property></configuration>");
    assertThatThrownBy(() -> SiteConfig.load(noName, Map.of())).hasMessageContaining("<name>");
    assertThatThrownBy(() -> SiteConfig.load(dir.resolve("missing.xml"), Map.of()))
        .hasMessageContaining("does not exist");
  }

  @Test
  void documentTypesAreRefusedSoFilesCannotPullInOthers() throws IOException {
    Path f =
        write(
            "xxe.xml",
            """
            <?xml version="1.0"?>
            <!DOCTYPE configuration [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <configuration><property><name>a</name><value>&x;</value></property></configuration>
            """);
    assertThatThrownBy(() -> SiteConfig.load(f, Map.of()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("xxe.xml");
  }

  @Test
  void badValuesNameTheirKey() throws IOException {
    Path f = write("p.properties", "hbase.master.port=lots\n");
    assertThatThrownBy(() -> SiteConfig.load(f, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hbase.master.port");
  }

  @Test
  void rootDirectoriesAreLocalPathsOrFileUris() {
    assertThat(RootDirectory.of("file:///tmp/x").localPath()).isEqualTo(Path.of("/tmp/x"));
    assertThat(RootDirectory.of("data").localPath()).isEqualTo(Path.of("data"));
    assertThat(RootDirectory.of("hdfs://nn/basalt").isLocal()).isFalse();
  }
}
