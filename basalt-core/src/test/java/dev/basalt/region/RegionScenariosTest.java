package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.b;
import static dev.basalt.region.TestRegions.cells;
import static dev.basalt.region.TestRegions.region;
import static dev.basalt.region.TestRegions.scanAll;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Scan;
import dev.basalt.schema.KeepDeletedCells;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The named scenarios of HBase's documented time-dimension behaviour, under both delete semantics
 * (docs/SEMANTICS.md sections 4 and 5).
 */
class RegionScenariosTest {
  private static final byte[] ROW = b("r");
  private static final byte[] Q = b("q");
  private final ManualClock clock = new ManualClock(1_000_000);

  private static Put put(long ts, String value) {
    return new Put(ROW).addColumn(F, Q, ts, b(value));
  }

  @Test
  void deletingNewestVersionResurrectsAnOlderOneOnlyInClassicMode() throws IOException {
    for (boolean deterministic : new boolean[] {true, false}) {
      Region r = region(clock, f -> f.setMaxVersions(2).setNewVersionBehavior(deterministic));
      r.put(put(1, "v1"));
      r.put(put(2, "v2"));
      r.put(put(3, "v3"));
      assertThat(cells(r.get(new Get(ROW).readAllVersions())))
          .containsExactly("r/f:q@3=v3", "r/f:q@2=v2");

      r.delete(new Delete(ROW).addColumn(F, Q, 3));

      List<String> after = cells(r.get(new Get(ROW).readAllVersions()));
      if (deterministic) {
        assertThat(after)
            .as("deterministic: v1 was pushed out for good")
            .containsExactly("r/f:q@2=v2");
      } else {
        assertThat(after)
            .as("classic HBase: v1 reappears")
            .containsExactly("r/f:q@2=v2", "r/f:q@1=v1");
      }
    }
  }

  @Test
  void putAfterDeleteWithOlderTimestampIsMaskedOnlyInClassicMode() throws IOException {
    for (boolean deterministic : new boolean[] {true, false}) {
      Region r = region(clock, f -> f.setNewVersionBehavior(deterministic));
      r.put(put(5, "old"));
      r.delete(new Delete(ROW).addColumns(F, Q, 10)); // every version <= 10
      r.put(put(7, "new"));

      List<String> got = cells(r.get(new Get(ROW)));
      if (deterministic) {
        assertThat(got)
            .as("a put committed after the delete is visible")
            .containsExactly("r/f:q@7=new");
      } else {
        assertThat(got).as("classic: deletes mask later puts with older timestamps").isEmpty();
      }
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void markersSortBeforeWhatTheyMaskAndOnlyTheNewestPutSurvives(boolean deterministic)
      throws IOException {
    Region r = region(clock, f -> f.setMaxVersions(5).setNewVersionBehavior(deterministic));
    long t = 100;
    r.put(put(t, "a"));
    r.delete(new Delete(ROW).addFamily(F, t + 1));
    r.put(put(t + 2, "b"));
    r.delete(new Delete(ROW).addColumns(F, Q, t + 3));
    r.put(put(t + 4, "c"));

    assertThat(cells(r.get(new Get(ROW).readAllVersions()))).containsExactly("r/f:q@104=c");

    List<List<String>> raw = scanAll(r, new Scan().setRaw(true).readAllVersions());
    assertThat(raw)
        .containsExactly(
            List.of(
                "r/f:@101 DELETE_FAMILY",
                "r/f:q@104=c",
                "r/f:q@103 DELETE_COLUMN",
                "r/f:q@102=b",
                "r/f:q@100=a"));
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void minVersionsKeepsTheNewestVersionPastItsTtl(boolean deterministic) throws IOException {
    Region r =
        region(
            clock,
            f ->
                f.setMaxVersions(3)
                    .setMinVersions(1)
                    .setTimeToLive(10)
                    .setNewVersionBehavior(deterministic));
    long now = clock.currentTimeMillis();
    r.put(put(now - 3000, "older"));
    r.put(put(now - 2000, "newest"));
    assertThat(cells(r.get(new Get(ROW).readAllVersions())))
        .containsExactly("r/f:q@" + (now - 2000) + "=newest", "r/f:q@" + (now - 3000) + "=older");

    clock.advance(60_000); // both are now past the 10 s TTL

    assertThat(cells(r.get(new Get(ROW).readAllVersions())))
        .as("MIN_VERSIONS=1 keeps the newest, expired or not")
        .containsExactly("r/f:q@" + (now - 2000) + "=newest");
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void expiredCellsWithoutMinVersionsDisappear(boolean deterministic) throws IOException {
    Region r = region(clock, f -> f.setTimeToLive(10).setNewVersionBehavior(deterministic));
    r.put(put(clock.currentTimeMillis(), "v"));
    assertThat(r.get(new Get(ROW)).isEmpty()).isFalse();
    clock.advance(10_001);
    assertThat(r.get(new Get(ROW)).isEmpty()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void keepDeletedCellsLetsATimeRangeBeforeTheDeleteSeeDeletedCells(boolean deterministic)
      throws IOException {
    Region r =
        region(
            clock,
            f ->
                f.setMaxVersions(3)
                    .setKeepDeletedCells(KeepDeletedCells.TRUE)
                    .setNewVersionBehavior(deterministic));
    r.put(put(10, "v10"));
    r.put(put(20, "v20"));
    r.delete(new Delete(ROW).addColumns(F, Q, 30));

    assertThat(r.get(new Get(ROW).readAllVersions()).isEmpty()).isTrue();
    assertThat(cells(r.get(new Get(ROW).readAllVersions().setTimeRange(0, 30))))
        .as("the delete at 30 is outside [0, 30): the deleted cells are visible")
        .containsExactly("r/f:q@20=v20", "r/f:q@10=v10");
    assertThat(r.get(new Get(ROW).readAllVersions().setTimeRange(0, 31)).isEmpty()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void withoutKeepDeletedCellsTimeRangeReadsStillSeeTheDelete(boolean deterministic)
      throws IOException {
    Region r = region(clock, f -> f.setMaxVersions(3).setNewVersionBehavior(deterministic));
    r.put(put(10, "v10"));
    r.delete(new Delete(ROW).addColumns(F, Q, 30));
    assertThat(r.get(new Get(ROW).setTimeRange(0, 30)).isEmpty()).isTrue();
  }

  @Test
  void classicTimeRangeReadCanSeeVersionsBeyondTheLimitDeterministicCannot() throws IOException {
    for (boolean deterministic : new boolean[] {true, false}) {
      Region r = region(clock, f -> f.setMaxVersions(1).setNewVersionBehavior(deterministic));
      r.put(put(1, "v1"));
      r.put(put(2, "v2"));
      List<String> got = cells(r.get(new Get(ROW).setTimeRange(0, 2)));
      if (deterministic) {
        assertThat(got).as("v1 was pushed out by v2").isEmpty();
      } else {
        assertThat(got)
            .as("classic: visible until a major compaction")
            .containsExactly("r/f:q@1=v1");
      }
    }
  }

  @Test
  void deleteLatestVersionTakesTheNewestVisibleTimestamp() throws IOException {
    Region r = region(clock, f -> f.setMaxVersions(3));
    r.put(put(1, "v1"));
    r.put(put(2, "v2"));
    r.delete(new Delete(ROW).addColumn(F, Q));
    assertThat(cells(r.get(new Get(ROW).readAllVersions()))).containsExactly("r/f:q@1=v1");
    List<List<String>> raw = scanAll(r, new Scan().setRaw(true).readAllVersions());
    assertThat(raw.get(0)).contains("r/f:q@2 DELETE");
  }

  @Test
  void serverTimestampsComeFromTheClock() throws IOException {
    Region r = region(clock, f -> f.setMaxVersions(3));
    r.put(new Put(ROW).addColumn(F, Q, b("a")));
    clock.advance(5);
    r.put(new Put(ROW).addColumn(F, Q, b("b")));
    long now = clock.currentTimeMillis();
    assertThat(cells(r.get(new Get(ROW).readAllVersions())))
        .containsExactly("r/f:q@" + now + "=b", "r/f:q@" + (now - 5) + "=a");
  }

  @Test
  void equalTimestampsKeepTheLastWrite() throws IOException {
    for (boolean deterministic : new boolean[] {true, false}) {
      Region r = region(clock, f -> f.setMaxVersions(3).setNewVersionBehavior(deterministic));
      r.put(put(5, "first"));
      r.put(put(5, "second"));
      assertThat(cells(r.get(new Get(ROW).readAllVersions()))).containsExactly("r/f:q@5=second");
    }
  }

  @Test
  void wholeRowDeleteCoversEveryFamily() throws IOException {
    Region r = region(clock, f -> f);
    r.put(new Put(ROW).addColumn(F, Q, 5, b("x")).addColumn(TestRegions.G, Q, 5, b("y")));
    r.delete(new Delete(ROW, 5));
    assertThat(r.get(new Get(ROW)).isEmpty()).isTrue();
  }
}
