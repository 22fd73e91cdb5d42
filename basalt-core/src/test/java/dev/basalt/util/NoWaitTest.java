package dev.basalt.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class NoWaitTest {
  @Test
  void waitingPointsThrowOnlyInsideAnAttempt() throws IOException {
    NoWait.beforeWaiting("nothing"); // outside: the caller may wait
    assertThat(NoWait.active()).isFalse();
    assertThatThrownBy(
            () ->
                NoWait.attempt(
                    () -> {
                      NoWait.beforeWaiting("the lock of row r");
                      return "unreachable";
                    }))
        .isInstanceOf(NoWait.WouldWait.class)
        .hasMessage("would wait for the lock of row r");
    assertThat(NoWait.active()).isFalse();
    assertThat(NoWait.<String, IOException>attempt(() -> "done")).isEqualTo("done");
  }

  @Test
  void nestedAttemptsRestoreTheOuterState() {
    NoWait.attempt(
        () -> {
          NoWait.attempt(() -> null);
          assertThat(NoWait.active()).isTrue();
          return null;
        });
    assertThat(NoWait.active()).isFalse();
  }

  @Test
  void theFlagIsPerThread() throws Exception {
    boolean[] other = new boolean[1];
    NoWait.attempt(
        () -> {
          Thread t = new Thread(() -> other[0] = NoWait.active());
          t.start();
          t.join();
          return null;
        });
    assertThat(other[0]).isFalse();
  }

  @Test
  void checkedExceptionsPassThrough() {
    assertThatThrownBy(
            () ->
                NoWait.attempt(
                    () -> {
                      throw new IOException("disk");
                    }))
        .isInstanceOf(IOException.class)
        .hasMessage("disk");
    assertThat(NoWait.active()).isFalse();
  }

  @Test
  void storageReadsAreWaitsOnlyForReadOnlyOperationsInsideAnAttempt() {
    int outside = NoWait.beginReadOnly();
    NoWait.beforeStorageRead("f"); // not in an attempt: nothing to refuse
    NoWait.endReadOnly(outside);
    NoWait.attempt(
        () -> {
          NoWait.beforeStorageRead("f"); // a write may read storage
          int outer = NoWait.beginReadOnly();
          assertThatThrownBy(() -> NoWait.beforeStorageRead("data/f1"))
              .isInstanceOf(NoWait.WouldWait.class)
              .hasMessageContaining("a read of data/f1");
          NoWait.endReadOnly(outer);
          NoWait.beforeStorageRead("f");
          assertThat(NoWait.active()).isTrue();
          return null;
        });
    assertThat(NoWait.active()).isFalse();
  }
}
