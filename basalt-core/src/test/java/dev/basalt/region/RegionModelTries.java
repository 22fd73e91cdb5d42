package dev.basalt.region;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Lets a run ask for more (or fewer) random histories than the default build: {@code
 * -Dbasalt.model.tries=N} sets the tries of every model property to N.
 */
public final class RegionModelTries implements AroundPropertyHook {
  static final String PROPERTY = "basalt.model.tries";

  /** Registered on the test class, it applies to every property of the class. */
  @Override
  public PropagationMode propagateTo() {
    return PropagationMode.ALL_DESCENDANTS;
  }

  @Override
  public PropertyExecutionResult aroundProperty(
      PropertyLifecycleContext context, PropertyExecutor property) {
    String tries = System.getProperty(PROPERTY);
    if (tries != null && !tries.isBlank()) {
      context.attributes().setTries(Integer.parseInt(tries.trim()));
    }
    return property.execute();
  }
}
