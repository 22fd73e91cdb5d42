package dev.basalt.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** KeySet against a HashSet model: adds, duplicates, growth, iteration. */
class KeySetTest {
  @Test
  void behavesAsASetOfPairsThroughGrowth() {
    KeySet keys = new KeySet(4);
    Set<String> model = new HashSet<>();
    Random r = new Random(7);
    long[][] seen = new long[5000][];
    for (int i = 0; i < seen.length; i++) {
      // every third key repeats an earlier one: add must say false and the size must not move
      long[] k = i % 3 == 2 ? seen[r.nextInt(i)] : NodeKeys.random(r);
      seen[i] = k;
      boolean added = keys.add(k[0], k[1]);
      assertThat(added).isEqualTo(model.add(k[0] + "/" + k[1]));
      assertThat(keys.size()).isEqualTo(model.size());
    }
    for (long[] k : seen) {
      assertThat(keys.contains(k[0], k[1])).isTrue();
    }
    assertThat(keys.contains(1, 2)).isFalse();
    Set<String> iterated = new HashSet<>();
    keys.forEach((hi, lo) -> assertThat(iterated.add(hi + "/" + lo)).isTrue());
    assertThat(iterated).isEqualTo(model);
  }

  @Test
  void keysThatCollideOnTheirSlotAreAllKept() {
    KeySet keys = new KeySet(16);
    for (long i = 1; i <= 100; i++) {
      keys.add(0, i << 40); // low bits equal: probing must walk on
    }
    assertThat(keys.size()).isEqualTo(100);
    for (long i = 1; i <= 100; i++) {
      assertThat(keys.contains(0, i << 40)).isTrue();
    }
  }

  @Test
  void theAllZeroKeyIsRefused() {
    assertThatThrownBy(() -> new KeySet().add(0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reserved");
  }

  @Test
  void addAllUnites() {
    KeySet a = new KeySet();
    KeySet b = new KeySet();
    a.add(1, 1);
    a.add(2, 2);
    b.add(2, 2);
    b.add(3, 3);
    a.addAll(b);
    assertThat(a.size()).isEqualTo(3);
  }
}
