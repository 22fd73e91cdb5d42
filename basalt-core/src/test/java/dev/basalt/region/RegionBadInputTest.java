package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.b;
import static dev.basalt.region.TestRegions.region;
import static dev.basalt.region.TestRegions.scanAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Append;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.RowMutations;
import dev.basalt.ops.Scan;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.ManualClock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every bad input gets an error naming the problem, and none changes any data. */
class RegionBadInputTest {
  private final ManualClock clock = new ManualClock(1_000);
  private final Region r = region(clock, f -> f);

  private void assertUnchanged() throws IOException {
    assertThat(scanAll(r, new Scan().setRaw(true).readAllVersions())).isEmpty();
  }

  @Test
  void emptyAndOversizedRowsAreRejectedWhenTheOperationIsBuilt() {
    assertThatThrownBy(() -> new Put(new byte[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("row key is empty");
    assertThatThrownBy(() -> new Get(new byte[32768]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("32768 bytes");
    assertThat(new Put(new byte[32767]).getRow()).hasSize(32767);
  }

  @Test
  void aBatchSizeWithAWholeRowFilterIsRefusedWithTheDoNotRetryClass() {
    // HBase's client raises IncompatibleFilterException itself; from a server only the
    // do-not-retry class travels, so the message names the cause.
    Scan s = new Scan().setBatch(2).setFilter(new dev.basalt.filter.PageFilter(1));
    assertThatThrownBy(() -> r.getScanner(s))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("IncompatibleFilterException")
        .hasMessageContaining("PageFilter")
        .satisfies(
            e ->
                assertThat(((BasaltIOException) e).hbaseExceptionClass())
                    .isEqualTo(BasaltIOException.DO_NOT_RETRY));
  }

  @Test
  void negativeTimestampsAreRejected() {
    assertThatThrownBy(() -> new Put(b("r")).addColumn(F, b("q"), -1, b("v")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative");
  }

  @Test
  void unknownFamilyFailsTheWholeMutation() throws IOException {
    Put p = new Put(b("r")).addColumn(F, b("q"), b("v")).addColumn(b("nope"), b("q"), b("v"));
    assertThatThrownBy(() -> r.put(p))
        .isInstanceOf(NoSuchColumnFamilyException.class)
        .hasMessageContaining("column family nope does not exist")
        .satisfies(
            e ->
                assertThat(((BasaltIOException) e).hbaseExceptionClass())
                    .isEqualTo("org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException"));
    assertThatThrownBy(() -> r.get(new Get(b("r")).addFamily(b("nope"))))
        .isInstanceOf(NoSuchColumnFamilyException.class);
    assertThatThrownBy(() -> r.getScanner(new Scan().addColumn(b("nope"), b("q"))))
        .isInstanceOf(NoSuchColumnFamilyException.class);
    assertUnchanged();
  }

  @Test
  void emptyPutIncrementAndAppendAreRejected() throws IOException {
    assertThatThrownBy(() -> r.put(new Put(b("r"))))
        .isInstanceOf(InvalidMutationException.class)
        .hasMessageContaining("Put for row r has no columns");
    assertThatThrownBy(() -> r.increment(new Increment(b("r"))))
        .isInstanceOf(InvalidMutationException.class);
    assertThatThrownBy(() -> r.append(new Append(b("r"))))
        .isInstanceOf(InvalidMutationException.class);
    assertUnchanged();
  }

  @Test
  void incrementOnANonCounterFailsAndWritesNothing() throws IOException {
    r.put(new Put(b("r")).addColumn(F, b("text"), 7, b("abc")));
    Increment inc = new Increment(b("r")).addColumn(F, b("ok"), 1).addColumn(F, b("text"), 1);
    assertThatThrownBy(() -> r.increment(inc))
        .isInstanceOf(InvalidMutationException.class)
        .hasMessageContaining("f:text")
        .hasMessageContaining("3 bytes wide, not an 8-byte long");
    assertThat(TestRegions.cells(r.get(new Get(b("r")).readAllVersions())))
        .containsExactly("r/f:text@7=abc");
  }

  @Test
  void rowsOutsideTheRegionAreRejected() throws IOException {
    TableDescriptor t = TestRegions.table(f -> f);
    Region part =
        new Region(
            RegionInfo.of(t.getTableName(), b("m"), b("t"), 1),
            t,
            RegionServices.of(clock, Config.defaults(), EditLog.NONE),
            0);
    assertThatThrownBy(() -> part.put(new Put(b("a")).addColumn(F, b("q"), b("v"))))
        .isInstanceOf(WrongRegionException.class)
        .hasMessageContaining("row a is outside region");
    assertThatThrownBy(() -> part.get(new Get(b("t")))).isInstanceOf(WrongRegionException.class);
    part.put(new Put(b("m")).addColumn(F, b("q"), b("v")));
    assertThat(scanAll(part, new Scan())).hasSize(1);
  }

  @Test
  void oversizedCellsAreRejected() throws IOException {
    Region small =
        TestRegions.region(
            clock,
            TestRegions.table(f -> f),
            Config.builder().set(RegionSettings.MAX_CELL_SIZE, 100L).build());
    assertThatThrownBy(() -> small.put(new Put(b("r")).addColumn(F, b("q"), new byte[200])))
        .isInstanceOf(InvalidMutationException.class)
        .hasMessageContaining("over the limit of 100");
    assertThat(scanAll(small, new Scan())).isEmpty();
  }

  @Test
  void readOnlyTablesRefuseWrites() {
    TableDescriptor t =
        TableDescriptorBuilder.newBuilder(TestRegions.table(f -> f)).setReadOnly(true).build();
    Region ro = TestRegions.region(clock, t, Config.defaults());
    assertThatThrownBy(() -> ro.put(new Put(b("r")).addColumn(F, b("q"), b("v"))))
        .isInstanceOf(InvalidMutationException.class)
        .hasMessageContaining("read-only");
  }

  @Test
  void rowMutationsWithABadPartChangeNothing() throws IOException {
    RowMutations rm =
        new RowMutations(b("r"))
            .add(new Put(b("r")).addColumn(F, b("q"), b("v")))
            .add(new Put(b("r")).addColumn(b("nope"), b("q"), b("v")));
    assertThatThrownBy(() -> r.mutateRow(rm)).isInstanceOf(NoSuchColumnFamilyException.class);
    assertThatThrownBy(() -> r.mutateRow(new RowMutations(b("r"))))
        .isInstanceOf(InvalidMutationException.class);
    assertUnchanged();
  }

  @Test
  void illegalFamilyNamesAreRejectedWhenTheSchemaIsBuilt() {
    assertThatThrownBy(() -> ColumnFamilyDescriptorBuilder.of("a:b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("illegal byte 0x3A");
    assertThatThrownBy(() -> ColumnFamilyDescriptorBuilder.of(new byte[] {'a', 7}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("illegal byte 0x07");
  }

  @Test
  void closedRegionsRefuseWork() throws IOException {
    r.put(new Put(b("r")).addColumn(F, b("q"), b("v")));
    r.close();
    assertThatThrownBy(() -> r.get(new Get(b("r")))).isInstanceOf(RegionClosedException.class);
    assertThatThrownBy(
            () -> r.batchMutate(List.of(new Put(b("r")).addColumn(F, b("q"), Bytes.toBytes(1L)))))
        .isInstanceOf(RegionClosedException.class);
  }
}
