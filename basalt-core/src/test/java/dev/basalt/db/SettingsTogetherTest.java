package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.compaction.CompactionSettings;
import dev.basalt.util.config.Config;
import java.nio.file.Path;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsTogetherTest {
  @TempDir Path dir;

  @Test
  void theDefaultsAndHBasesLimitPass() {
    assertThatCode(() -> SettingsTogether.check(Config.defaults())).doesNotThrowAnyException();
    assertThatCode(
            checking(
                Config.builder()
                    .set(DatabaseSettings.GLOBAL_MEMSTORE_FRACTION, 0.5)
                    .set(DatabaseSettings.BLOCK_CACHE_FRACTION, 0.3)
                    .set(CompactionSettings.MIN_FILES, 4)
                    .set(CompactionSettings.MAX_FILES, 4)))
        .doesNotThrowAnyException();
  }

  @Test
  void contradictionsNameTheirKeys() {
    assertThatThrownBy(
            checking(
                Config.builder()
                    .set(CompactionSettings.MIN_FILES, 5)
                    .set(CompactionSettings.MAX_FILES, 3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hbase.hstore.compaction.max = 3 is below hbase.hstore.compaction.min = 5");
    assertThatThrownBy(checking(Config.builder().set(CompactionSettings.RATIO, 0.0)))
        .hasMessage("hbase.hstore.compaction.ratio = 0.0 must be above 0");
    assertThatThrownBy(
            checking(
                Config.builder()
                    .set(DatabaseSettings.GLOBAL_MEMSTORE_FRACTION, 0.5)
                    .set(DatabaseSettings.BLOCK_CACHE_FRACTION, 0.4)))
        .hasMessageStartingWith(
            "hbase.regionserver.global.memstore.size = 0.5 and hfile.block.cache.size = 0.4"
                + " together give more than 0.8 of the heap");
  }

  @Test
  void aDatabaseRefusesToOpenWithThemBeforeTouchingItsDirectory() {
    Config bad =
        Config.builder()
            .set(CompactionSettings.MIN_FILES, 5)
            .set(CompactionSettings.MAX_FILES, 3)
            .build();
    assertThatThrownBy(() -> Database.open(dir.resolve("db"), bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hbase.hstore.compaction.max");
    assertThat(dir.resolve("db")).doesNotExist();
  }

  private static ThrowingCallable checking(Config.Builder settings) {
    return () -> SettingsTogether.check(settings.build());
  }
}
