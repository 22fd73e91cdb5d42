package dev.basalt.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.filter.Filter;
import org.junit.jupiter.api.Test;

class ScanTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  private static byte[] s(String v) {
    return Bytes.toBytes(v);
  }

  private static byte[] b(int... v) {
    byte[] out = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (byte) v[i];
    }
    return out;
  }

  @Test
  void defaults() {
    Scan scan = new Scan();
    assertThat(scan.getStartRow()).isEmpty();
    assertThat(scan.getStopRow()).isEmpty();
    assertThat(scan.includeStartRow()).isTrue();
    assertThat(scan.includeStopRow()).isFalse();
    assertThat(scan.isReversed()).isFalse();
    assertThat(scan.isRaw()).isFalse();
    assertThat(scan.getBatch()).isEqualTo(-1);
    assertThat(scan.getLimit()).isEqualTo(-1);
    assertThat(scan.getCaching()).isEqualTo(-1);
    assertThat(scan.getMaxResultSize()).isEqualTo(-1);
    assertThat(scan.getAllowPartialResults()).isFalse();
    assertThat(scan.getMvccReadPoint()).isEqualTo(-1);
    assertThat(scan.isGetScan()).isFalse();
    assertThat(scan.getMaxVersions()).isEqualTo(1);
    assertThat(scan.getTimeRange().isAllTime()).isTrue();
    assertThat(scan.getFilter()).isNull();
    assertThat(scan.hasFamilies()).isFalse();
    assertThat(scan.getFamilyMap()).isEmpty();
    assertThat(scan.getMaxResultsPerColumnFamily()).isEqualTo(-1);
    assertThat(scan.getRowOffsetPerColumnFamily()).isZero();
    assertThat(scan.getCacheBlocks()).isTrue();
    assertThat(scan.getIsolationLevel()).isEqualTo(IsolationLevel.READ_COMMITTED);
  }

  @Test
  void rowBoundsAndInclusiveFlags() {
    Scan scan = new Scan().withStartRow(s("a")).withStopRow(s("m"));
    assertThat(scan.getStartRow()).isEqualTo(s("a"));
    assertThat(scan.includeStartRow()).isTrue();
    assertThat(scan.getStopRow()).isEqualTo(s("m"));
    assertThat(scan.includeStopRow()).isFalse();

    scan.withStartRow(s("b"), false).withStopRow(s("n"), true);
    assertThat(scan.getStartRow()).isEqualTo(s("b"));
    assertThat(scan.includeStartRow()).isFalse();
    assertThat(scan.getStopRow()).isEqualTo(s("n"));
    assertThat(scan.includeStopRow()).isTrue();

    scan.withStartRow(null).withStopRow(null);
    assertThat(scan.getStartRow()).isEmpty();
    assertThat(scan.getStopRow()).isEmpty();
  }

  @Test
  void oversizedBoundsAreRejected() {
    byte[] tooLong = new byte[32768];
    assertThatThrownBy(() -> new Scan().withStartRow(tooLong))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("start row")
        .hasMessageContaining("32768");
    assertThatThrownBy(() -> new Scan().withStopRow(tooLong, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stop row");
    assertThatThrownBy(() -> new Scan().setRowPrefixFilter(tooLong))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("prefix");
  }

  @Test
  void rowPrefixForward() {
    Scan scan = new Scan().withStartRow(s("zzz")).setRowPrefixFilter(s("ab"));
    assertThat(scan.getStartRow()).isEqualTo(s("ab"));
    assertThat(scan.includeStartRow()).isTrue();
    assertThat(scan.getStopRow()).isEqualTo(s("ac"));
    assertThat(scan.includeStopRow()).isFalse();
  }

  @Test
  void rowPrefixReversedEitherOrder() {
    Scan before = new Scan().setReversed(true).setRowPrefixFilter(s("ab"));
    Scan after = new Scan().setRowPrefixFilter(s("ab")).setReversed(true);
    for (Scan scan : new Scan[] {before, after}) {
      // Reversed: start at the end of the prefix range (exclusive), stop at the prefix
      // (inclusive).
      assertThat(scan.getStartRow()).isEqualTo(s("ac"));
      assertThat(scan.includeStartRow()).isFalse();
      assertThat(scan.getStopRow()).isEqualTo(s("ab"));
      assertThat(scan.includeStopRow()).isTrue();
    }
  }

  @Test
  void rowPrefixWithTrailingFF() {
    Scan fwd = new Scan().setRowPrefixFilter(b(1, 0xFF));
    assertThat(fwd.getStartRow()).containsExactly(b(1, 0xFF));
    assertThat(fwd.getStopRow()).containsExactly(b(2));
    Scan rev = new Scan().setRowPrefixFilter(b(1, 0xFF)).setReversed(true);
    assertThat(rev.getStartRow()).containsExactly(b(2));
    assertThat(rev.includeStartRow()).isFalse();
    assertThat(rev.getStopRow()).containsExactly(b(1, 0xFF));
    assertThat(rev.includeStopRow()).isTrue();
  }

  @Test
  void rowPrefixOfOnlyFFHasNoUpperBound() {
    Scan fwd = new Scan().setRowPrefixFilter(b(0xFF));
    assertThat(fwd.getStartRow()).containsExactly(b(0xFF));
    assertThat(fwd.includeStartRow()).isTrue();
    assertThat(fwd.getStopRow()).isEmpty(); // unbounded
    Scan rev = new Scan().setReversed(true).setRowPrefixFilter(b(0xFF, 0xFF));
    assertThat(rev.getStartRow()).isEmpty(); // unbounded
    assertThat(rev.getStopRow()).containsExactly(b(0xFF, 0xFF));
    assertThat(rev.includeStopRow()).isTrue();
  }

  @Test
  void emptyOrNullPrefixClearsTheBounds() {
    for (byte[] prefix : new byte[][] {null, Bytes.EMPTY}) {
      Scan scan = new Scan().withStartRow(s("a")).withStopRow(s("b"), true);
      scan.setRowPrefixFilter(prefix);
      assertThat(scan.getStartRow()).isEmpty();
      assertThat(scan.getStopRow()).isEmpty();
      assertThat(scan.includeStartRow()).isTrue();
      assertThat(scan.includeStopRow()).isFalse();
    }
  }

  @Test
  void scanOfAGetReadsExactlyThatRow() {
    Filter filter = new Filter() {};
    Get get =
        new Get(s("row"))
            .addColumn(F, Q)
            .addFamily(s("g"))
            .readVersions(3)
            .setTimeRange(5, 10)
            .setColumnFamilyTimeRange(F, 1, 2)
            .setFilter(filter)
            .setMaxResultsPerColumnFamily(4)
            .setRowOffsetPerColumnFamily(2)
            .setCacheBlocks(false)
            .setIsolationLevel(IsolationLevel.READ_UNCOMMITTED);
    Scan scan = new Scan(get);
    assertThat(scan.isGetScan()).isTrue();
    assertThat(scan.getStartRow()).isEqualTo(s("row"));
    assertThat(scan.includeStartRow()).isTrue();
    assertThat(scan.getStopRow()).isEqualTo(s("row"));
    assertThat(scan.includeStopRow()).isTrue();
    assertThat(scan.isReversed()).isFalse();
    assertThat(scan.getMaxVersions()).isEqualTo(3);
    assertThat(scan.getTimeRange()).isEqualTo(TimeRange.between(5, 10));
    assertThat(scan.getTimeRange(F)).isEqualTo(TimeRange.between(1, 2));
    assertThat(scan.getTimeRange(s("g"))).isEqualTo(TimeRange.between(5, 10));
    assertThat(scan.getFilter()).isSameAs(filter);
    assertThat(scan.getMaxResultsPerColumnFamily()).isEqualTo(4);
    assertThat(scan.getRowOffsetPerColumnFamily()).isEqualTo(2);
    assertThat(scan.getCacheBlocks()).isFalse();
    assertThat(scan.getIsolationLevel()).isEqualTo(IsolationLevel.READ_UNCOMMITTED);
    assertThat(scan.getFamilyMap().keySet()).containsExactly(F, s("g"));
    assertThat(scan.getFamilyMap().get(F)).containsExactly(Q);
    assertThat(scan.getFamilyMap().get(s("g"))).isNull();
  }

  @Test
  void batchValidation() {
    assertThat(new Scan().setBatch(1).getBatch()).isEqualTo(1);
    assertThat(new Scan().setBatch(5).setBatch(-1).getBatch()).isEqualTo(-1);
    for (int bad : new int[] {0, -2, Integer.MIN_VALUE}) {
      assertThatThrownBy(() -> new Scan().setBatch(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("batch")
          .hasMessageContaining(String.valueOf(bad));
    }
  }

  @Test
  void limitValidation() {
    assertThat(new Scan().setLimit(1).getLimit()).isEqualTo(1);
    assertThat(new Scan().setLimit(3).setLimit(-1).getLimit()).isEqualTo(-1);
    for (int bad : new int[] {0, -2, Integer.MIN_VALUE}) {
      assertThatThrownBy(() -> new Scan().setLimit(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("limit")
          .hasMessageContaining(String.valueOf(bad));
    }
  }

  @Test
  void versionsAndTimeRanges() {
    Scan scan = new Scan().readVersions(4);
    assertThat(scan.getMaxVersions()).isEqualTo(4);
    assertThat(scan.readAllVersions().getMaxVersions()).isEqualTo(Integer.MAX_VALUE);
    assertThatThrownBy(() -> new Scan().readVersions(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("versions must be at least 1, got 0");
    assertThat(new Scan().setTimestamp(9).getTimeRange()).isEqualTo(TimeRange.at(9));
    assertThatThrownBy(() -> new Scan().setTimeRange(9, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Scan().setRowOffsetPerColumnFamily(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be negative");
    Scan fam = new Scan().setColumnFamilyTimeRange(F, 3, 4);
    assertThat(fam.getColumnFamilyTimeRange()).containsOnlyKeys(F);
    assertThat(fam.getTimeRange(F)).isEqualTo(TimeRange.between(3, 4));
  }

  @Test
  void otherSettings() {
    Scan scan =
        new Scan()
            .setRaw(true)
            .setCaching(100)
            .setMaxResultSize(1 << 20)
            .setAllowPartialResults(true)
            .setMvccReadPoint(42)
            .setMaxResultsPerColumnFamily(7);
    assertThat(scan.isRaw()).isTrue();
    assertThat(scan.getCaching()).isEqualTo(100);
    assertThat(scan.getMaxResultSize()).isEqualTo(1 << 20);
    assertThat(scan.getAllowPartialResults()).isTrue();
    assertThat(scan.getMvccReadPoint()).isEqualTo(42);
    assertThat(scan.getMaxResultsPerColumnFamily()).isEqualTo(7);
    assertThat(scan.toString()).contains("raw").contains("versions=1");
  }
}
