package dev.basalt.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FaultPointsTest {

  @AfterEach
  void disarm() {
    FaultPoints.disarmAll();
  }

  /** The flag hit() reads before it looks at the map: false means "one volatile read". */
  private static boolean anyArmed() throws ReflectiveOperationException {
    Field f = FaultPoints.class.getDeclaredField("anyArmed");
    f.setAccessible(true);
    return f.getBoolean(null);
  }

  @Test
  void unarmedPointsDoNothing() throws Exception {
    assertThat(anyArmed()).isFalse();
    assertThatCode(() -> FaultPoints.hit("split.afterDaughtersWritten")).doesNotThrowAnyException();
  }

  @Test
  void armedThrowRaisesInjectedFaultNamingThePoint() {
    FaultPoints.arm("flush.beforeRename", FaultPoints.THROW);
    assertThatThrownBy(() -> FaultPoints.hit("flush.beforeRename"))
        .isInstanceOf(FaultPoints.InjectedFault.class)
        .hasMessage("injected fault at flush.beforeRename");
    // Other points are unaffected.
    assertThatCode(() -> FaultPoints.hit("flush.afterRename")).doesNotThrowAnyException();
    // It stays armed until disarmed.
    assertThatThrownBy(() -> FaultPoints.hit("flush.beforeRename"))
        .isInstanceOf(FaultPoints.InjectedFault.class);
  }

  @Test
  void disarmStopsThePointAndClearsTheFastPathFlag() throws Exception {
    FaultPoints.arm("a", FaultPoints.THROW);
    FaultPoints.arm("b", FaultPoints.THROW);
    assertThat(anyArmed()).isTrue();
    FaultPoints.disarm("a");
    assertThatCode(() -> FaultPoints.hit("a")).doesNotThrowAnyException();
    assertThat(anyArmed()).isTrue(); // b is still armed
    assertThatThrownBy(() -> FaultPoints.hit("b")).isInstanceOf(FaultPoints.InjectedFault.class);
    FaultPoints.disarm("b");
    assertThat(anyArmed()).isFalse();
    assertThatCode(() -> FaultPoints.hit("b")).doesNotThrowAnyException();
    // Disarming a point that was never armed is harmless.
    FaultPoints.disarm("never");
    assertThat(anyArmed()).isFalse();
  }

  @Test
  void disarmAllClearsEverything() throws Exception {
    FaultPoints.arm("a", FaultPoints.THROW);
    FaultPoints.arm("b", FaultPoints.THROW);
    FaultPoints.disarmAll();
    assertThat(anyArmed()).isFalse();
    assertThatCode(
            () -> {
              FaultPoints.hit("a");
              FaultPoints.hit("b");
            })
        .doesNotThrowAnyException();
  }

  @Test
  void customActionsRunWithThePointName() {
    List<String> seen = new ArrayList<>();
    FaultPoints.arm("wal.beforeSync", seen::add);
    FaultPoints.hit("wal.beforeSync");
    FaultPoints.hit("wal.afterSync");
    FaultPoints.hit("wal.beforeSync");
    assertThat(seen).containsExactly("wal.beforeSync", "wal.beforeSync");
  }

  @Test
  void armingAgainReplacesTheAction() {
    List<String> seen = new ArrayList<>();
    FaultPoints.arm("p", FaultPoints.THROW);
    FaultPoints.arm("p", seen::add);
    assertThatCode(() -> FaultPoints.hit("p")).doesNotThrowAnyException();
    assertThat(seen).containsExactly("p");
  }

  // ---- the basalt.faultpoints system property (read once, when the class loads) -------------

  /** Loads a fresh copy of FaultPoints (and its nested classes) so its static block runs again. */
  private static final class IsolatingLoader extends ClassLoader {
    IsolatingLoader() {
      super(FaultPointsTest.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith(FaultPoints.class.getName())) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          String resource = name.replace('.', '/') + ".class";
          try (InputStream in = getParent().getResourceAsStream(resource)) {
            byte[] bytes = in.readAllBytes();
            c = defineClass(name, bytes, 0, bytes.length);
          } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
          }
        }
        return c;
      }
    }
  }

  private static Method freshHit(String spec) throws Exception {
    String old = System.getProperty("basalt.faultpoints");
    System.setProperty("basalt.faultpoints", spec);
    try {
      Class<?> fp = Class.forName(FaultPoints.class.getName(), true, new IsolatingLoader());
      return fp.getMethod("hit", String.class);
    } finally {
      if (old == null) {
        System.clearProperty("basalt.faultpoints");
      } else {
        System.setProperty("basalt.faultpoints", old);
      }
    }
  }

  @Test
  void systemPropertyArmsPoints() throws Exception {
    Method hit = freshHit("one=throw, two");
    for (String armed : new String[] {"one", "two"}) {
      assertThatThrownBy(() -> hit.invoke(null, armed))
          .isInstanceOf(InvocationTargetException.class)
          .cause()
          .hasMessage("injected fault at " + armed);
    }
    assertThatCode(() -> hit.invoke(null, "three")).doesNotThrowAnyException();
    // The copy in this class loader is not affected.
    assertThatCode(() -> FaultPoints.hit("one")).doesNotThrowAnyException();
  }

  @Test
  void systemPropertyWithAnUnknownActionFailsNamingIt() {
    assertThatThrownBy(() -> freshHit("x=explode"))
        .isInstanceOf(ExceptionInInitializerError.class)
        .cause()
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown action 'explode'");
  }
}
