package dev.basalt.wal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.ops.Durability;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Following a log as replication does: a live log while it is written, across rolls and archiving,
 * resuming from a stored position in the middle of a segment, and the end of a dead server's log.
 */
class WalTailTest {
  @TempDir Path dir;

  private static final UUID CLUSTER = new UUID(1, 2);

  private static WalEntry entry(int i) {
    KeyValue kv =
        KeyValue.of(
                Bytes.toBytes("row" + i),
                Bytes.toBytes("f"),
                Bytes.toBytes("q"),
                i,
                CellType.PUT,
                Bytes.toBytes("v" + i))
            .withSequenceId(i + 1);
    return new WalEntry(
        "region" + (i % 3), 1000 + i, List.of(CLUSTER), List.of(kv), 0, 0, "ns:t" + (i % 3));
  }

  private static void write(Wal wal, int from, int to) throws IOException {
    for (int i = from; i < to; i++) {
      wal.sync(wal.append(entry(i)), Durability.SYNC_WAL);
    }
  }

  /** Reads everything available now, in batches of at most {@code max}. */
  private static List<Integer> drain(WalTail tail, int max, boolean closed) throws IOException {
    List<Integer> out = new ArrayList<>();
    while (true) {
      WalTail.Batch b = tail.read(max, Long.MAX_VALUE, closed);
      for (WalEntry e : b.entries()) {
        out.add((int) (e.writeTime() - 1000));
        assertThat(e.table()).isEqualTo("ns:t" + (e.writeTime() - 1000) % 3);
        assertThat(e.clusterIds()).containsExactly(CLUSTER);
      }
      if (b.logEnded() && b.entries().isEmpty()) {
        return out;
      }
    }
  }

  /**
   * Rolled segments are closed on the log's closer thread, which archives them once closed: wait
   * for that (bounded).
   */
  private static void awaitArchived(LocalStorage s, int atLeast)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (s.list(Wal.OLD_DIR).size() < atLeast && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
  }

  private static List<Integer> range(int from, int to) {
    List<Integer> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }

  @Test
  void followsALiveLogAcrossRollsAndArchivingAndResumesMidSegment()
      throws IOException, InterruptedException {
    LocalStorage s = new LocalStorage(dir);
    Config c = Config.builder().set(WalSettings.ROLL_SIZE, 600L).build();
    try (Wal wal = new Wal(s, "srv", c, Clock.system(), List.of())) {
      WalTail tail = new WalTail(s, "srv", WalPosition.startOf(0));
      assertThat(drain(tail, 4, false)).isEmpty();
      write(wal, 0, 5);
      assertThat(drain(tail, 2, false)).isEqualTo(range(0, 5));
      write(wal, 5, 40); // several rolls
      wal.markPersisted("region0", 100);
      wal.markPersisted("region1", 100);
      wal.markPersisted("region2", 100); // every closed segment moves to oldWALs/
      awaitArchived(s, 1);
      assertThat(s.list(Wal.OLD_DIR)).isNotEmpty();
      WalPosition mid = tail.position();
      List<Integer> got = drain(tail, 3, false);
      assertThat(got).isEqualTo(range(5, 40));
      assertThat(tail.position().segment()).isGreaterThan(mid.segment());

      // A new reader resuming from a stored position mid-segment decodes its dictionary first.
      WalTail again = new WalTail(s, "srv", mid);
      assertThat(drain(again, 1000, false)).isEqualTo(range(5, 40));
      write(wal, 40, 45);
      assertThat(drain(again, 1000, false)).isEqualTo(range(40, 45));
      assertThat(drain(tail, 1000, false)).isEqualTo(range(40, 45));
    }
  }

  @Test
  void aDeadServersLogEndsAtItsLastWholeEntry() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    Wal wal = new Wal(s, "dead", Config.defaults(), Clock.system(), List.of());
    write(wal, 0, 10);
    // The process dies here: no trailer; a torn half entry at the end.
    String segment =
        Wal.DIR
            + "/dead/"
            + s.list(Wal.DIR + "/dead").stream().filter(Wal::isSegment).findFirst().get();
    long length = s.length(segment);
    WalTail live = new WalTail(s, "dead", WalPosition.startOf(0));
    assertThat(drain(live, 100, false)).isEqualTo(range(0, 10));
    Files.write(
        s.root().resolve(segment), new byte[] {0, 0, 0, 50, 1, 2, 3}, StandardOpenOption.APPEND);
    assertThat(s.length(segment)).isGreaterThan(length);
    // While the server may still write, a torn frame means "not finished yet": wait there.
    WalTail.Batch b = live.read(100, Long.MAX_VALUE, false);
    assertThat(b.entries()).isEmpty();
    assertThat(b.logEnded()).isTrue();
    // Once it is known dead, the torn tail is skipped and the log ends.
    assertThat(drain(new WalTail(s, "dead", WalPosition.startOf(0)), 3, true))
        .isEqualTo(range(0, 10));
    assertThat(live.read(100, Long.MAX_VALUE, true).logEnded()).isTrue();
    wal.close();
  }

  @Test
  void segmentsThatAreGoneArePassedOver() throws IOException, InterruptedException {
    LocalStorage s = new LocalStorage(dir);
    Config c = Config.builder().set(WalSettings.ROLL_SIZE, 300L).build();
    try (Wal wal = new Wal(s, "srv", c, Clock.system(), List.of())) {
      write(wal, 0, 20);
      wal.markPersisted("region0", 100);
      wal.markPersisted("region1", 100);
      wal.markPersisted("region2", 100);
      awaitArchived(s, 3);
      List<String> archived = s.list(Wal.OLD_DIR);
      assertThat(archived.size()).isGreaterThan(2);
      s.delete(Wal.OLD_DIR + "/" + archived.get(0)); // the cleaner took it (no queue held it)
      List<Integer> got = drain(new WalTail(s, "srv", WalPosition.startOf(0)), 100, false);
      assertThat(got).isNotEmpty().doesNotContain(0);
      assertThat(got).containsSubsequence(got.get(0), 19);
      assertThat(WalTail.firstSegment(s, "srv")).isEqualTo(1);
    }
  }
}
