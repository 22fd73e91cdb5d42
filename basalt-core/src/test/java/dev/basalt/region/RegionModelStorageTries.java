package dev.basalt.region;

import java.util.Locale;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * The tries of the storage-backed model properties: {@code -Dbasalt.model.storage.tries=N} sets
 * them to N; without it {@code -Dbasalt.model.tries=N} (which sets every model property) does.
 * Storage-backed histories cost tens of milliseconds each (files, fsyncs), so long runs usually set
 * the storage count lower than the in-memory one. {@code -Dbasalt.model.shrinking=FULL} (or
 * BOUNDED, OFF) sets jqwik's shrinking mode.
 */
public final class RegionModelStorageTries implements AroundPropertyHook {
  static final String PROPERTY = "basalt.model.storage.tries";
  static final String SHRINKING = "basalt.model.shrinking";

  @Override
  public PropagationMode propagateTo() {
    return PropagationMode.ALL_DESCENDANTS;
  }

  @Override
  public PropertyExecutionResult aroundProperty(
      PropertyLifecycleContext context, PropertyExecutor property) {
    String tries = System.getProperty(PROPERTY);
    if (tries == null || tries.isBlank()) {
      tries = System.getProperty(RegionModelTries.PROPERTY);
    }
    if (tries != null && !tries.isBlank()) {
      context.attributes().setTries(Integer.parseInt(tries.trim()));
    }
    String shrinking = System.getProperty(SHRINKING);
    if (shrinking != null && !shrinking.isBlank()) {
      context
          .attributes()
          .setShrinking(ShrinkingMode.valueOf(shrinking.trim().toUpperCase(Locale.ROOT)));
    }
    return property.execute();
  }
}
