package dev.basalt.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.fs.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Queue positions on storage: write and read back, take-over by rename, what the cleaner keeps. */
class ReplicationQueuesTest {
  @TempDir Path dir;

  @Test
  void positionsSurviveAndTakeOversHaveOneWinner() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    ReplicationQueues q = new ReplicationQueues(s);
    assertThat(q.read("p1", "h,1,1")).isNull();
    q.write("p1", "h,1,1", new WalPosition(3, 120));
    q.write("p1", "h,1,1", new WalPosition(4, 20));
    q.write("p2", "h,2,2", new WalPosition(7, 0));
    assertThat(new ReplicationQueues(s).read("p1", "h,1,1")).isEqualTo(new WalPosition(4, 20));
    assertThat(q.peers()).containsExactly("p1", "p2");
    assertThat(q.queues("p1")).containsExactly("h,1,1");

    String claimed = q.claim("p1", "h,1,1", "h,9,9");
    assertThat(claimed).isEqualTo("h,1,1@h,9,9");
    assertThat(q.claim("p1", "h,1,1", "h,8,8")).as("the second claimer loses").isNull();
    assertThat(ReplicationQueues.logServer(claimed)).isEqualTo("h,1,1");
    assertThat(ReplicationQueues.owner(claimed)).isEqualTo("h,9,9");
    assertThat(ReplicationQueues.isRecovered(claimed)).isTrue();
    assertThat(ReplicationQueues.owner("h,2,2")).isEqualTo("h,2,2");
    assertThat(q.read("p1", claimed)).isEqualTo(new WalPosition(4, 20));

    assertThat(q.neededSegments()).isEqualTo(Map.of("h,1,1", 4L, "h,2,2", 7L));
    q.delete("p1", claimed);
    q.deletePeer("p2");
    assertThat(q.neededSegments()).isEmpty();
  }

  @Test
  void aNewPeerGetsAQueueOnEveryLogAtItsOldestSegment() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    for (String f :
        new String[] {
          "WALs/a,1,1/wal-00000000000000000005",
          "WALs/a,1,1/wal-00000000000000000003",
          "WALs/a,1,1/.lock",
          "WALs/b,2,2-splitting/wal-00000000000000000001",
          "WALs/c,3,3/wal-00000000000000000009"
        }) {
      Files.createDirectories(dir.resolve(f).getParent());
      Files.write(dir.resolve(f), new byte[0]);
    }
    ReplicationQueues q = new ReplicationQueues(s);
    q.write("p", "c,3,3", new WalPosition(9, 77)); // a queue that exists keeps its place
    q.startOnEveryLog("p");
    assertThat(q.read("p", "a,1,1")).isEqualTo(WalPosition.startOf(3));
    assertThat(q.read("p", "b,2,2")).as("a log being split").isEqualTo(WalPosition.startOf(1));
    assertThat(q.read("p", "c,3,3")).isEqualTo(new WalPosition(9, 77));
    assertThat(q.queues("p")).containsExactlyInAnyOrder("a,1,1", "b,2,2", "c,3,3");
  }

  @Test
  void aDamagedPositionIsAnErrorNotAGuess() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    ReplicationQueues q = new ReplicationQueues(s);
    q.write("p", "local", new WalPosition(1, 2));
    Path file = dir.resolve(ReplicationQueues.DIR + "/p/local");
    byte[] b = Files.readAllBytes(file);
    b[10] ^= 1;
    Files.write(file, b);
    assertThatThrownBy(() -> q.read("p", "local")).hasMessageContaining("checksum");
  }
}
