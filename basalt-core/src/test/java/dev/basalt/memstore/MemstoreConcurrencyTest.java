package dev.basalt.memstore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.scan.KeyValueScanner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Concurrent writers lose no cell and readers running alongside always see a sorted sequence of
 * whole cells. (No timing: the threads race as they will; the checks hold for any interleaving.)
 */
class MemstoreConcurrencyTest {
  private static final int WRITERS = 4;
  private static final int PER_WRITER = 20_000;

  private static KeyValue cell(int writer, int i) {
    // Interleaved rows, so writers insert next to each other's nodes; 16-byte rows share a prefix.
    byte[] row = Bytes.toBytes(String.format("user%012d", (long) i * WRITERS + writer));
    return KeyValue.of(
        row, Bytes.toBytes("f"), Bytes.toBytes("q"), 1, CellType.PUT, Bytes.toBytes("v" + i));
  }

  @Test
  void concurrentWritersAndReaders() throws Exception {
    Memstore m = new Memstore();
    CyclicBarrier start = new CyclicBarrier(WRITERS + 1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicBoolean writing = new AtomicBoolean(true);
    List<Thread> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      int writer = w;
      Thread t =
          new Thread(
              () -> {
                try {
                  start.await();
                  // Reverse order for odd writers, so inserts meet from both sides.
                  for (int k = 0; k < PER_WRITER; k++) {
                    int i = writer % 2 == 0 ? k : PER_WRITER - 1 - k;
                    m.insert(cell(writer, i), 1 + i, 1);
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      t.start();
      writers.add(t);
    }
    Thread reader =
        new Thread(
            () -> {
              try {
                start.await();
                while (writing.get()) {
                  KeyValueScanner s = m.scanner(Long.MAX_VALUE);
                  s.seek(KeyValue.firstOnRow(new byte[] {0}));
                  Cell prev = null;
                  for (Cell c = s.next(); c != null; c = s.next()) {
                    KeyValue kv = (KeyValue) c;
                    // Whole: the layout is consistent and the value is the one written.
                    KeyValue.parse(kv.getBuffer(), kv.getOffset(), kv.getLength(), 0);
                    assertThat(kv.getValueLength()).isGreaterThan(1);
                    if (prev != null) {
                      assertThat(CellComparator.INSTANCE.compare(prev, c)).isNegative();
                    }
                    prev = c;
                  }
                }
              } catch (Throwable e) {
                failure.compareAndSet(null, e);
              }
            });
    reader.start();
    for (Thread t : writers) {
      t.join();
    }
    writing.set(false);
    reader.join();
    assertThat(failure.get()).isNull();
    assertThat(m.cellCount()).isEqualTo(WRITERS * PER_WRITER);
    int n = 0;
    KeyValue prev = null;
    for (KeyValue kv : m.cells()) {
      if (prev != null) {
        assertThat(CellComparator.INSTANCE.compare(prev, kv)).isNegative();
      }
      prev = kv;
      n++;
    }
    assertThat(n).isEqualTo(WRITERS * PER_WRITER);
    for (int w = 0; w < WRITERS; w++) {
      for (int i = 0; i < PER_WRITER; i += 997) {
        KeyValueScanner s = m.scanner(Long.MAX_VALUE);
        KeyValue expected = cell(w, i).withSequenceId(1 + i);
        assertThat(s.seek(expected)).isTrue();
        assertThat(s.peek()).isEqualTo(expected);
        assertThat(s.peek().getSequenceId()).isEqualTo(1 + i);
      }
    }
  }
}
