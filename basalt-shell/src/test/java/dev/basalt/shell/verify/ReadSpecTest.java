package dev.basalt.shell.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** The scans a verify run sends: prefix bounds, and one row for a re-check. */
class ReadSpecTest {
  private static ReadSpec spec(List<String> prefixes) {
    return new ReadSpec(List.of("cf"), 5, 50, 2, prefixes, false, 10, 100);
  }

  @Test
  void theStopRowFollowsEveryKeyWithThePrefix() {
    assertThat(ReadSpec.stopAfterPrefix(Bytes.toBytes("ab"))).isEqualTo(Bytes.toBytes("ac"));
    // HBase's tool adds one to the last byte without a carry, so a prefix ending in 0xFF stops
    // before its own rows; here the carry moves left and an all-0xFF prefix has no stop row
    assertThat(ReadSpec.stopAfterPrefix(new byte[] {'a', (byte) 0xFF})).isEqualTo(new byte[] {'b'});
    assertThat(ReadSpec.stopAfterPrefix(new byte[] {(byte) 0xFF, (byte) 0xFF})).isEmpty();
  }

  @Test
  void oneRangePerPrefixInRowOrder() throws Exception {
    List<Scan> scans = spec(List.of("m", "c", "ca", "k")).tableScans();
    // "ca" is inside "c"'s range; no filter, so a raw scan keeps its delete markers
    assertThat(scans).hasSize(3);
    assertThat(scans.get(0).getStartRow()).isEqualTo(Bytes.toBytes("c"));
    assertThat(scans.get(0).getStopRow()).isEqualTo(Bytes.toBytes("d"));
    assertThat(scans.get(1).getStartRow()).isEqualTo(Bytes.toBytes("k"));
    assertThat(scans.get(2).getStopRow()).isEqualTo(Bytes.toBytes("n"));
    Scan scan = scans.get(0);
    assertThat(scan.getFilter()).isNull();
    assertThat(scan.getTimeRange().getMin()).isEqualTo(5);
    assertThat(scan.getTimeRange().getMax()).isEqualTo(50);
    assertThat(scan.getMaxVersions()).isEqualTo(2);
    assertThat(scan.getBatch()).isEqualTo(10);
    assertThat(scan.getCaching()).isEqualTo(100);
    assertThat(scan.getCacheBlocks()).isFalse();
    assertThat(scan.getFamilies()).hasDimensions(1, 2);
    assertThat(scan.getFamilies()[0]).isEqualTo(Bytes.toBytes("cf"));
    Scan whole = spec(List.of()).tableScans().get(0);
    assertThat(whole.getStartRow()).isEmpty();
    assertThat(whole.getStopRow()).isEmpty();
  }

  @Test
  void aRecheckReadsOneRowTheSameWay() throws Exception {
    Scan scan = spec(List.of("m")).rowScan(Bytes.toBytes("row"));
    assertThat(scan.isGetScan()).isTrue();
    assertThat(scan.getFilter()).isNull();
    assertThat(scan.getTimeRange().getMax()).isEqualTo(50);
    assertThat(scan.getMaxVersions()).isEqualTo(2);
  }
}
