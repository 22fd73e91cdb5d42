package dev.basalt.wal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.fs.LocalStorage;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A region's lives for serial replication: recorded as it opens and closes, the newest kept. */
class ReplicationBarriersTest {
  @TempDir Path dir;

  @Test
  void livesAreRecordedInOrderAndTheirEndsFilledInOnClose() throws IOException {
    ReplicationBarriers b = new ReplicationBarriers(new LocalStorage(dir));
    assertThat(b.read("r1")).isEmpty();
    b.opened("r1", "h,1,1", 10);
    b.closed("r1", "h,1,1", new WalPosition(3, 400));
    b.opened("r1", "h,2,2", 57);
    b.closed("r1", "h,9,9", new WalPosition(1, 1)); // not its server: nothing changes
    assertThat(new ReplicationBarriers(new LocalStorage(dir)).read("r1"))
        .containsExactly(
            new ReplicationBarriers.Life(10, "h,1,1", new WalPosition(3, 400)),
            new ReplicationBarriers.Life(57, "h,2,2", null));
  }

  @Test
  void onlyTheNewestLivesAreKept() throws IOException {
    ReplicationBarriers b = new ReplicationBarriers(new LocalStorage(dir));
    for (int i = 0; i < ReplicationBarriers.KEPT + 5; i++) {
      b.opened("r", "h," + i + ",1", i * 100L);
      b.closed("r", "h," + i + ",1", new WalPosition(i, 8));
    }
    assertThat(b.read("r")).hasSize(ReplicationBarriers.KEPT);
    assertThat(b.read("r").get(0).firstSequenceId()).isEqualTo(500);
  }
}
