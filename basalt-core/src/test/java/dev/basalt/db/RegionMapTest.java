package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.region.Region;
import dev.basalt.region.RegionServices;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Finding the region of a row, the one before a key, and the regions of a range. */
class RegionMapTest {
  private static final TableDescriptor T =
      TableDescriptorBuilder.newBuilder(TableName.valueOf("t"))
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
          .build();

  private static RegionMap map(String... splits) {
    List<ServedRegion> out = new ArrayList<>();
    byte[] start = Bytes.EMPTY;
    for (int i = 0; i <= splits.length; i++) {
      byte[] end = i < splits.length ? Bytes.toBytes(splits[i]) : Bytes.EMPTY;
      RegionInfo info = RegionInfo.of(T.getTableName(), start, end, 1);
      out.add(new ServedRegion(new Region(info, T, RegionServices.defaults(), 0)));
      start = end;
    }
    return new RegionMap(out);
  }

  private static String start(ServedRegion r) {
    return r == null ? null : Bytes.toString(r.info().getStartKey());
  }

  @Test
  void rowsFindTheRegionHoldingThem() {
    RegionMap m = map("d", "m");
    assertThat(start(m.locate(Bytes.EMPTY))).isEqualTo("");
    assertThat(start(m.locate(Bytes.toBytes("c")))).isEqualTo("");
    assertThat(start(m.locate(Bytes.toBytes("d")))).isEqualTo("d");
    assertThat(start(m.locate(Bytes.toBytes("lzz")))).isEqualTo("d");
    assertThat(start(m.locate(Bytes.toBytes("m")))).isEqualTo("m");
    assertThat(start(m.locate(Bytes.toBytes("zz")))).isEqualTo("m");
    assertThat(start(map().locate(Bytes.toBytes("x")))).isEqualTo("");
  }

  @Test
  void theRegionBeforeAKeyHoldsTheHighestRowBelowIt() {
    RegionMap m = map("d", "m");
    assertThat(start(m.locateBefore(Bytes.toBytes("m")))).isEqualTo("d");
    assertThat(start(m.locateBefore(Bytes.toBytes("n")))).isEqualTo("m");
    assertThat(start(m.locateBefore(Bytes.toBytes("d")))).isEqualTo("");
    assertThat(m.locateBefore(Bytes.EMPTY)).isNull();
    assertThat(start(m.last())).isEqualTo("m");
  }

  @Test
  void aRangeTouchesTheRegionsBetweenItsBounds() {
    RegionMap m = map("d", "m");
    assertThat(m.overlapping(Bytes.EMPTY, Bytes.EMPTY)).hasSize(3);
    assertThat(m.overlapping(Bytes.toBytes("e"), Bytes.toBytes("f")))
        .extracting(RegionMapTest::start)
        .containsExactly("d");
    assertThat(m.overlapping(Bytes.toBytes("a"), Bytes.toBytes("m")))
        .extracting(RegionMapTest::start)
        .containsExactly("", "d", "m");
    assertThat(m.overlapping(Bytes.toBytes("n"), Bytes.EMPTY))
        .extracting(RegionMapTest::start)
        .containsExactly("m");
    assertThat(m.overlapping(Bytes.toBytes("n"), Bytes.toBytes("a"))).isEmpty();
  }
}
