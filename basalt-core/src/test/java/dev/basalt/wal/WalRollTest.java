package dev.basalt.wal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.ReadableFile;
import dev.basalt.fs.Storage;
import dev.basalt.fs.WritableFile;
import dev.basalt.ops.Durability;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rolled segments are forced in the background: a roll does not wait for the old segment, but a
 * writer that asks for FSYNC_WAL afterwards does, and a segment is archived only once forced.
 */
class WalRollTest {
  @TempDir Path dir;

  private static WalEntry entry(String region, long seq) {
    return entry(region, seq, 10);
  }

  private static WalEntry entry(String region, long seq, int valueBytes) {
    return new WalEntry(
        region,
        1,
        List.of(),
        List.of(
            KeyValue.of(
                    Bytes.toBytes("row"),
                    Bytes.toBytes("f"),
                    Bytes.toBytes("q"),
                    1,
                    CellType.PUT,
                    new byte[valueBytes])
                .withSequenceId(seq)));
  }

  @Test
  void anFsyncAfterARollCoversTheSegmentStillBeingForced() throws Exception {
    // Segment 0's background force waits until segment 1 is forced by the FSYNC_WAL round; the
    // FSYNC_WAL writer must still not return before segment 0 is forced.
    GatedStorage s = new GatedStorage(new LocalStorage(dir));
    Wal wal =
        new Wal(
            s,
            "s1",
            Config.builder().set(WalSettings.ROLL_SIZE, 300L).build(),
            Clock.system(),
            List.of());
    // The first entry fills segment 0, which goes to the closer; the second does not fill 1.
    wal.sync(wal.append(entry("r", 1, 400)), Durability.SYNC_WAL);
    wal.sync(wal.append(entry("r", 2, 10)), Durability.FSYNC_WAL);
    s.events.add("fsync returned");
    assertThat(s.events)
        .containsSubsequence(Wal.segmentName(0) + " forced", "fsync returned")
        .containsSubsequence(Wal.segmentName(1) + " forced", "fsync returned");
    wal.close();
  }

  @Test
  void aRolledSegmentIsArchivedOnlyOnceForced() throws Exception {
    GatedStorage s = new GatedStorage(new LocalStorage(dir));
    Wal wal =
        new Wal(
            s,
            "s1",
            Config.builder().set(WalSettings.ROLL_SIZE, 10L).build(),
            Clock.system(),
            List.of());
    wal.sync(wal.append(entry("r", 1)), Durability.SYNC_WAL); // rolls; the force waits
    wal.markPersisted("r", 1);
    assertThat(s.list(Wal.OLD_DIR)).as("not forced yet").isEmpty();
    s.release.countDown();
    assertThat(wal.liveSegments()).as("waits for the close, which archives").isEmpty();
    assertThat(s.list(Wal.OLD_DIR)).hasSize(1);
    assertThat(s.events).containsSubsequence(Wal.segmentName(0) + " forced", "renamed");
    wal.close();
  }

  /**
   * Records forces and renames; the background force of segment 0 waits for {@link #release}, which
   * the second force of segment 1 (the first after its header) also opens.
   */
  private static final class GatedStorage implements Storage {
    final Storage delegate;
    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final CountDownLatch release = new CountDownLatch(1);

    GatedStorage(Storage delegate) {
      this.delegate = delegate;
    }

    @Override
    public WritableFile create(String path) throws IOException {
      return delegate.create(path);
    }

    @Override
    public WritableFile createNonRecursive(String path) throws IOException {
      WritableFile f = delegate.createNonRecursive(path);
      String name = path.substring(path.lastIndexOf('/') + 1);
      return new WritableFile() {
        int syncs;

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          f.write(b, off, len);
        }

        @Override
        public long position() {
          return f.position();
        }

        @Override
        public void flush() throws IOException {
          f.flush();
        }

        @Override
        public void sync() throws IOException {
          syncs++;
          if (name.equals(Wal.segmentName(0)) && syncs > 1) {
            try {
              release.await();
            } catch (InterruptedException e) {
              throw new InterruptedIOException();
            }
          }
          f.sync();
          if (name.equals(Wal.segmentName(1)) && syncs == 2) {
            release.countDown();
          }
          if (syncs > 1) { // the first force is the header's, when the segment is created
            events.add(name + " forced");
          }
        }

        @Override
        public void close() throws IOException {
          f.close();
        }
      };
    }

    @Override
    public ReadableFile open(String path) throws IOException {
      return delegate.open(path);
    }

    @Override
    public boolean exists(String path) throws IOException {
      return delegate.exists(path);
    }

    @Override
    public boolean isDirectory(String path) throws IOException {
      return delegate.isDirectory(path);
    }

    @Override
    public long length(String path) throws IOException {
      return delegate.length(path);
    }

    @Override
    public List<String> list(String dir) throws IOException {
      return delegate.list(dir);
    }

    @Override
    public void rename(String from, String to) throws IOException {
      delegate.rename(from, to);
      events.add("renamed");
    }

    @Override
    public boolean delete(String path) throws IOException {
      return delegate.delete(path);
    }

    @Override
    public void mkdirs(String dir) throws IOException {
      delegate.mkdirs(dir);
    }

    @Override
    public java.io.Closeable tryLockFile(String path, String holderInfo) throws IOException {
      return delegate.tryLockFile(path, holderInfo);
    }

    @Override
    public String lockFileHolder(String path) throws IOException {
      return delegate.lockFileHolder(path);
    }

    @Override
    public Storage at(String dir) throws IOException {
      return delegate.at(dir);
    }

    @Override
    public java.io.Closeable lockDirectory(String dir, String holderInfo) throws IOException {
      return delegate.lockDirectory(dir, holderInfo);
    }

    @Override
    public java.io.Closeable tryLockDirectory(String dir) throws IOException {
      return delegate.tryLockDirectory(dir);
    }

    @Override
    public String lockHolder(String dir) throws IOException {
      return delegate.lockHolder(dir);
    }

    @Override
    public String describe(String path) {
      return delegate.describe(path);
    }
  }
}
