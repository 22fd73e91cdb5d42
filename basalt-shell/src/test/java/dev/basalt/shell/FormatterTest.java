package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneOffset;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Test;

class FormatterTest {
  private final StringWriter buf = new StringWriter();

  private Formatter formatter(int width, boolean epoch) {
    return new Formatter(new PrintWriter(buf, true), () -> width, ZoneOffset.UTC, epoch);
  }

  private static Cell put(String row, String cf, String q, long ts, byte[] value) {
    return new KeyValue(row.getBytes(), cf.getBytes(), q.getBytes(), ts, KeyValue.Type.Put, value);
  }

  @Test
  void withoutATerminalNothingIsPaddedOrWrapped() {
    Formatter f = formatter(0, false);
    f.header("ROW", "COLUMN+CELL");
    f.row("r1", "column=cf:a, timestamp=x, value=" + "v".repeat(200));
    f.footer(1);
    assertThat(buf.toString())
        .isEqualTo(
            "ROW  COLUMN+CELL\n r1 column=cf:a, timestamp=x, value="
                + "v".repeat(200)
                + "\n1 row(s)\n");
  }

  @Test
  void onATerminalColumnsArePaddedAndWrappedAtAQuarterOfTheWidth() {
    Formatter f = formatter(40, false);
    f.header("ROW", "COLUMN+CELL");
    f.row("row-key-longer-than-ten", "0123456789012345678901234567890123456789");
    // width 40: first column 10, second 40 - 10 - 2 = 28
    assertThat(buf.toString().split("\n"))
        .containsExactly(
            "ROW         COLUMN+CELL                 ",
            " row-key-lo 0123456789012345678901234567",
            " nger-than- 890123456789                ",
            " ten                                    ");
  }

  @Test
  void cellsShowLocalTimeLikeHBase26AndBinaryBytesEscaped() {
    Formatter f = formatter(0, false);
    byte[] value = {'a', 0, (byte) 0xff, '"', '\\'};
    Cell c = put("r", "cf", "q\u0001", 1_700_000_000_123L, value);
    assertThat(Formatter.column(c)).isEqualTo("cf:q\\x01");
    assertThat(f.cell(TableName.valueOf("t"), c))
        .isEqualTo("timestamp=2023-11-14T22:13:20.123, value=a\\x00\\xFF\"\\x5C");
    // LocalDateTime.toString drops zero seconds and milliseconds, as the HBase shell shows them
    assertThat(f.timestamp(1_699_999_980_000L)).isEqualTo("2023-11-14T22:13");
    assertThat(formatter(0, true).cell(TableName.valueOf("t"), c))
        .startsWith("timestamp=1700000000123, value=");
  }

  @Test
  void deleteMarkersShowTheirType() {
    Cell d =
        new KeyValue(
            "r".getBytes(), "cf".getBytes(), "q".getBytes(), 5L, KeyValue.Type.DeleteColumn);
    assertThat(formatter(0, true).cell(TableName.valueOf("t"), d))
        .isEqualTo("timestamp=5, type=DeleteColumn");
  }

  @Test
  void oneColumnLinesAndTheFooter() {
    Formatter f = formatter(0, false);
    f.header("TABLE");
    f.line("t1");
    f.footer(1);
    assertThat(buf.toString()).isEqualTo("TABLE\nt1\n1 row(s)\n");
  }

  @Test
  void rowsOfThreeOrMoreColumnsAreJoinedBySpacesAfterOneNeverPadded() {
    Formatter f = formatter(40, false);
    f.header("PEER_ID", "CLUSTER_KEY", "STATE");
    f.row("1", null, "ENABLED");
    f.row("2", "zk:2181:/hbase", "DISABLED");
    f.footer(2);
    // formatter.rb: print ' ', then each column (nil prints nothing) after one space
    assertThat(buf.toString())
        .isEqualTo(
            " PEER_ID CLUSTER_KEY STATE\n 1  ENABLED\n 2 zk:2181:/hbase DISABLED\n2 row(s)\n");
  }

  @Test
  void theFirstColumnCanTakeAGivenShareOfTheWidth() {
    Formatter f = formatter(50, false);
    f.headerWithFirstColumn(32, "TABLE:COLUMNFAMILY", "ReplicationType");
    f.rowWithFirstColumn(32, "t1:cf", "GLOBAL");
    // 32% of 50 is 16: the first column wraps at 16 characters, the second takes 50 - 16 - 2
    assertThat(buf.toString().split("\n", -1))
        .containsExactly(
            "TABLE:COLUMNFAMI  " + pad("ReplicationType", 32),
            pad("LY", 16) + "  " + pad("", 32),
            " " + pad("t1:cf", 16) + " " + pad("GLOBAL", 32),
            "");
  }

  private static String pad(String s, int width) {
    return s + " ".repeat(width - s.length());
  }
}
