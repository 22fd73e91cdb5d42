package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The region set and namespace files: round trips, and damage reported with the file's name. */
class CatalogFilesTest {
  private static final TableName T = TableName.valueOf("ns:t");

  private static RegionSet.Member member(String start, String end, long floor) {
    return new RegionSet.Member(
        RegionInfo.of(T, Bytes.toBytes(start), Bytes.toBytes(end), 42), floor);
  }

  @Test
  void aRegionSetRoundTrips() throws IOException {
    RegionSet set =
        RegionSet.of(
            T,
            RegionSet.State.DISABLED,
            List.of(member("", "b", 0), member("b", "c", 17), member("c", "", Long.MAX_VALUE)));
    byte[] bytes = CatalogFiles.encodeRegionSet(set);
    assertThat(new String(bytes, 0, 4, java.nio.charset.StandardCharsets.US_ASCII))
        .isEqualTo("BRGS");
    RegionSet back = CatalogFiles.decodeRegionSet(bytes, "the file");
    assertThat(back).isEqualTo(set);
    assertThat(back.state()).isEqualTo(RegionSet.State.DISABLED);
    assertThat(back.members().get(1).sequenceFloor()).isEqualTo(17);
  }

  @Test
  void aRegionSetMustCoverEveryRowOnce() {
    assertThatThrownBy(() -> RegionSet.of(T, RegionSet.State.ENABLED, List.of()))
        .hasMessageContaining("no regions");
    assertThatThrownBy(
            () ->
                RegionSet.of(
                    T, RegionSet.State.ENABLED, List.of(member("", "b", 0), member("c", "", 0))))
        .hasMessageContaining("starts at 'c' but the previous region ends at 'b'");
    assertThatThrownBy(() -> RegionSet.of(T, RegionSet.State.ENABLED, List.of(member("", "b", 0))))
        .hasMessageContaining("instead of covering the rest");
    assertThatThrownBy(
            () ->
                RegionSet.of(
                    T, RegionSet.State.ENABLED, List.of(member("", "", 0), member("", "", 0))))
        .hasMessageContaining("is not the last");
    RegionSet.Member other =
        new RegionSet.Member(RegionInfo.of(TableName.valueOf("x"), null, null, 1), 0);
    assertThatThrownBy(() -> RegionSet.of(T, RegionSet.State.ENABLED, List.of(other)))
        .hasMessageContaining("belongs to x, not ns:t");
  }

  @Test
  void damageIsReportedWithTheFileName() {
    byte[] bytes =
        CatalogFiles.encodeRegionSet(
            RegionSet.of(T, RegionSet.State.ENABLED, List.of(member("", "", 0))));
    byte[] flipped = bytes.clone();
    flipped[8] ^= 1;
    assertThatThrownBy(() -> CatalogFiles.decodeRegionSet(flipped, "F"))
        .hasMessageContaining("F is corrupt: checksum mismatch");
    assertThatThrownBy(() -> CatalogFiles.decodeRegionSet(new byte[3], "F"))
        .hasMessageContaining("F is truncated");
    byte[] ns = CatalogFiles.encodeNamespace(NamespaceDescriptor.create("ns").build());
    assertThatThrownBy(() -> CatalogFiles.decodeRegionSet(ns, "F"))
        .hasMessageContaining("wrong magic number");
  }

  @Test
  void aNamespaceRoundTrips() throws IOException {
    NamespaceDescriptor ns =
        NamespaceDescriptor.create("ns")
            .addConfiguration("a", "1")
            .addConfiguration("b", "")
            .build();
    assertThat(CatalogFiles.decodeNamespace(CatalogFiles.encodeNamespace(ns), "F")).isEqualTo(ns);
  }
}
