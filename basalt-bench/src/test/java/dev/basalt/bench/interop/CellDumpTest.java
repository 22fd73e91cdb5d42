package dev.basalt.bench.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class CellDumpTest {
  @Test
  void aCellIsOneLineWithItsTimestampAndType() {
    KeyValue put =
        new KeyValue(
            Bytes.toBytes("r\u0001"),
            Bytes.toBytes("cf"),
            Bytes.toBytes("q"),
            1000,
            KeyValue.Type.Put,
            Bytes.toBytes("v"));
    KeyValue marker =
        new KeyValue(
            Bytes.toBytes("r"), Bytes.toBytes("cf"), null, 2000, KeyValue.Type.DeleteFamily);
    assertThat(CellDump.line(put)).isEqualTo("r\\x01/cf:q/1000/Put=v");
    assertThat(CellDump.line(marker)).isEqualTo("r/cf:/2000/DeleteFamily=");
  }

  @Test
  void aLongValueIsItsStartLengthAndChecksum() {
    byte[] value = new byte[100];
    value[99] = 1;
    byte[] other = value.clone();
    other[99] = 2;
    String a = line(value);
    assertThat(a)
        .startsWith("r/cf:q/1/Put=\\x00\\x00")
        .contains("... (100 bytes, crc32 ")
        .isNotEqualTo(line(other));
    assertThat(line(new byte[64])).doesNotContain("bytes, crc32"); // 64 bytes still in full
  }

  private static String line(byte[] value) {
    return CellDump.line(
        new KeyValue(
            Bytes.toBytes("r"),
            Bytes.toBytes("cf"),
            Bytes.toBytes("q"),
            1,
            KeyValue.Type.Put,
            value));
  }

  @Test
  void differencesNameMissingThenExtraLines() {
    List<String> expected = List.of("a", "b", "c");
    assertThat(CellDump.differences(expected, List.of("a", "c", "d"), 10))
        .containsExactly("missing: b", "extra:   d");
    assertThat(CellDump.differences(expected, List.of("c", "b", "a"), 10))
        .containsExactly("same cells in another order");
    assertThat(CellDump.differences(expected, List.of(), 2))
        .containsExactly("missing: a", "missing: b");
    assertThat(CellDump.differences(expected, expected, 10)).isEmpty();
  }

  @Test
  void badArgumentsExitWithTwoAndTheUsageWithoutConnecting() throws Exception {
    for (String[] args :
        new String[][] {
          {},
          {"--hbase", "127.0.0.1:1"},
          {"--hbase", "127.0.0.1:1", "--basalt", "127.0.0.1:2", "--checks", "hbase-to-basalt,loop"},
          {"--hbase", "127.0.0.1:1", "--basalt"},
          {"--verbose"}
        }) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int status =
          ReplicationInteropMain.run(
              args,
              new PrintStream(out, true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8));
      assertThat(status).as(String.join(" ", args)).isEqualTo(2);
      assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage: ReplicationInteropMain");
      assertThat(out.size()).isZero();
    }
  }
}
