package dev.basalt.shell.verify;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** The lines a bad row is shown with: cell keys, values cut short, at most five lines. */
class RowDiffTest {
  private static KeyValue cell(String qualifier, long ts, byte[] value) {
    return new KeyValue(
        Bytes.toBytes("r"), Bytes.toBytes("cf"), Bytes.toBytes(qualifier), ts, value);
  }

  @Test
  void longValuesAreCutAndTheirLengthGiven() {
    RowDiff d = new RowDiff();
    d.valueDiffers(cell("q", 7, new byte[100]), cell("q", 7, Bytes.toBytes("short")));
    assertThat(d.lines())
        .containsExactly(
            "value differs:  cf:q/7/Put source="
                + "\\x00".repeat(32)
                + "...(100 bytes) peer=short");
  }

  @Test
  void atMostFiveLinesThenACount() {
    RowDiff d = new RowDiff();
    for (int i = 0; i < 8; i++) {
      d.onlyInPeer(cell("q" + i, 1, Bytes.toBytes("v")));
    }
    assertThat(d.lines())
        .hasSize(6)
        .startsWith("only in peer:   cf:q0/1/Put value=v")
        .endsWith("... and 3 more");
    RowDiff.NONE.onlyInSource(cell("q", 1, Bytes.toBytes("v")));
    assertThat(RowDiff.NONE.lines()).isEmpty();
  }
}
