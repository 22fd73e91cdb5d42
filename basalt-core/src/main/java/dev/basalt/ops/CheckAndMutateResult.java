package dev.basalt.ops;

/**
 * Whether a check-and-mutate applied its action, and the action's result: as in HBase, the cells of
 * its Increments and Appends when it was applied and has any, else null (a Put, a Delete, or a
 * condition that failed).
 */
public final class CheckAndMutateResult {
  private final boolean success;
  private final Result result;

  public CheckAndMutateResult(boolean success, Result result) {
    this.success = success;
    this.result = result;
  }

  public boolean isSuccess() {
    return success;
  }

  /** The action's result, or null (see the class comment). */
  public Result getResult() {
    return result;
  }

  @Override
  public String toString() {
    return "CheckAndMutateResult{success=" + success + ", " + result + "}";
  }
}
