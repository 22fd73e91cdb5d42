package dev.basalt.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class RegionInfoTest {
  private static final TableName T = TableName.valueOf("t1");

  private static byte[] s(String v) {
    return Bytes.toBytes(v);
  }

  private static String md5(byte[] data) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
  }

  @Test
  void regionNameAndEncodedNameFollowHBase() throws Exception {
    RegionInfo r = RegionInfo.of(T, s("row5"), s("row9"), 1700000000123L);
    String prefix = "t1,row5,1700000000123";
    String encoded = md5(prefix.getBytes(StandardCharsets.UTF_8));
    assertThat(encoded).hasSize(32).matches("[0-9a-f]{32}");
    assertThat(r.getEncodedName()).isEqualTo(encoded);
    assertThat(r.getRegionNameAsString()).isEqualTo(prefix + "." + encoded + ".");
    assertThat(r.getRegionName()).isEqualTo(s(prefix + "." + encoded + "."));
  }

  @Test
  void regionNameOfTheFirstRegionInANamespace() throws Exception {
    RegionInfo r = RegionInfo.of(TableName.valueOf("ns:tab"), null, null, 42);
    String prefix = "ns:tab,,42";
    assertThat(r.getEncodedName()).isEqualTo(md5(s(prefix)));
    assertThat(r.getRegionNameAsString()).isEqualTo(prefix + "." + md5(s(prefix)) + ".");
    assertThat(r.getStartKey()).isEmpty();
    assertThat(r.getEndKey()).isEmpty();
  }

  @Test
  void binaryStartKeysAreKeptAsBytes() throws Exception {
    byte[] start = {0, (byte) 0xFF, ','};
    RegionInfo r = RegionInfo.of(T, start, null, 7);
    byte[] prefix = Bytes.concat(s("t1,"), start, s(",7"));
    assertThat(r.getEncodedName()).isEqualTo(md5(prefix));
    assertThat(r.getRegionName()).isEqualTo(Bytes.concat(prefix, s("." + md5(prefix) + ".")));
  }

  @Test
  void containsRow() {
    RegionInfo r = RegionInfo.of(T, s("b"), s("d"), 1);
    assertThat(r.containsRow(s("a"))).isFalse();
    assertThat(r.containsRow(s("az"))).isFalse();
    assertThat(r.containsRow(s("b"))).isTrue();
    assertThat(r.containsRow(s("c\u00ff"))).isTrue();
    assertThat(r.containsRow(new byte[] {'c', (byte) 0xFF, (byte) 0xFF})).isTrue();
    assertThat(r.containsRow(s("d"))).isFalse();
    assertThat(r.containsRow(s("e"))).isFalse();

    RegionInfo first = RegionInfo.of(T, Bytes.EMPTY, s("m"), 1);
    assertThat(first.containsRow(new byte[] {0})).isTrue();
    assertThat(first.containsRow(s("l"))).isTrue();
    assertThat(first.containsRow(s("m"))).isFalse();

    RegionInfo last = RegionInfo.of(T, s("m"), Bytes.EMPTY, 1);
    assertThat(last.containsRow(s("l"))).isFalse();
    assertThat(last.containsRow(s("m"))).isTrue();
    assertThat(last.containsRow(new byte[] {(byte) 0xFF, (byte) 0xFF})).isTrue();

    RegionInfo whole = RegionInfo.of(T, null, null, 1);
    assertThat(whole.containsRow(new byte[] {0})).isTrue();
    assertThat(whole.containsRow(new byte[] {(byte) 0xFF})).isTrue();
  }

  @Test
  void endKeyMustSortAfterStartKey() {
    assertThatThrownBy(() -> RegionInfo.of(T, s("b"), s("b"), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("end key b must sort after its start key b");
    assertThatThrownBy(() -> RegionInfo.of(T, s("c"), s("b"), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must sort after");
    // Unsigned order: 0x80 sorts after 0x7F.
    assertThatThrownBy(() -> RegionInfo.of(T, new byte[] {(byte) 0x80}, new byte[] {0x7F}, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(RegionInfo.of(T, new byte[] {0x7F}, new byte[] {(byte) 0x80}, 1)).isNotNull();
    // An empty end key is "no bound", whatever the start key.
    assertThat(RegionInfo.of(T, s("zzz"), Bytes.EMPTY, 1).getEndKey()).isEmpty();
  }

  @Test
  void accessorsReturnCopies() {
    RegionInfo r = RegionInfo.of(T, s("a"), s("b"), 9);
    assertThat(r.getTable()).isEqualTo(T);
    assertThat(r.getRegionId()).isEqualTo(9);
    r.getStartKey()[0] = 'z';
    r.getEndKey()[0] = 'z';
    r.getRegionName()[0] = 'z';
    assertThat(r.getStartKey()).isEqualTo(s("a"));
    assertThat(r.getEndKey()).isEqualTo(s("b"));
    assertThat(r.getRegionNameAsString()).startsWith("t1,a,9.");
  }

  @Test
  void equalityFollowsTheRegionName() {
    RegionInfo a = RegionInfo.of(T, s("a"), s("b"), 9);
    assertThat(a).isEqualTo(RegionInfo.of(T, s("a"), s("b"), 9));
    assertThat(a).hasSameHashCodeAs(RegionInfo.of(T, s("a"), s("b"), 9));
    assertThat(a).isNotEqualTo(RegionInfo.of(T, s("a"), s("b"), 10));
    assertThat(a).isNotEqualTo(RegionInfo.of(T, s("a0"), s("b"), 9));
    assertThat(a.getEncodedName())
        .isNotEqualTo(RegionInfo.of(T, s("a"), s("b"), 10).getEncodedName());
    assertThat(a.toString())
        .contains("ENCODED => " + a.getEncodedName())
        .contains("STARTKEY => 'a'");
  }
}
