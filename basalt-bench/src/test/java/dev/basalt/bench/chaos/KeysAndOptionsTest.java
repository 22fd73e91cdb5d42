package dev.basalt.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** The node table's split keys, the split point between two bounds, the soak's command line. */
class KeysAndOptionsTest {
  @Test
  void splitKeysAreIncreasingTwoBytePrefixes() {
    byte[][] s = NodeKeys.splits(8);
    assertThat(s.length).isEqualTo(7);
    assertThat(s[0]).isEqualTo(new byte[] {0x20, 0});
    assertThat(s[3]).isEqualTo(new byte[] {(byte) 0x80, 0});
    for (int i = 1; i < s.length; i++) {
      assertThat(Bytes.compareTo(s[i - 1], s[i])).isNegative();
    }
  }

  @Test
  void theMiddleKeyLiesStrictlyBetweenTheBounds() {
    byte[] whole = AdminActions.middle(new byte[0], new byte[0]);
    assertThat(whole).hasSize(16);
    assertThat(whole[0]).isEqualTo((byte) 0x80);
    byte[] a = {0x20, 0};
    byte[] b = {0x40, 0};
    byte[] m = AdminActions.middle(a, b);
    assertThat(Bytes.compareTo(a, m)).isNegative();
    assertThat(Bytes.compareTo(m, b)).isNegative();
    assertThat(m[0]).isEqualTo((byte) 0x30);
    byte[] last = AdminActions.middle(new byte[] {(byte) 0xff, (byte) 0xff}, new byte[0]);
    assertThat(Bytes.compareTo(last, new byte[] {(byte) 0xff, (byte) 0xff})).isPositive();
  }

  @Test
  void noMiddleBetweenAdjacentKeys() {
    byte[] a = NodeKeys.toBytes(5, 7);
    byte[] b = NodeKeys.toBytes(5, 8);
    assertThat(AdminActions.middle(a, b)).isNull();
  }

  @Test
  void aPlanExpandsCountsAndRefusesUnknownNames() {
    SoakOptions o =
        SoakOptions.parse(new String[] {"--plan", "kill-rs-busiest*2,kill-master", "-D", "a=b"});
    assertThat(o.plan).containsExactly("kill-rs-busiest", "kill-rs-busiest", "kill-master");
    assertThat(o.churn()).isFalse();
    assertThat(o.settings).containsEntry("a", "b");
    assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--plan", "kill-everything"}))
        .hasMessageContaining("unknown action 'kill-everything'");
    assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--masters", "1"}))
        .hasMessageContaining("--masters 1");
    assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--cycles"}))
        .hasMessageContaining("needs a value");
  }

  @Test
  void everyListedNameIsAnAction() {
    for (String name : SoakActions.names()) {
      assertThat(SoakOptions.expand(name)).containsExactly(name);
    }
    assertThat(SoakActions.names()).contains("kill-rs-busiest", "kill-master", "move");
  }
}
