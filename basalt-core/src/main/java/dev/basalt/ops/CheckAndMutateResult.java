package dev.basalt.ops;

/**
 * Whether a check-and-mutate applied its action, and the action's result (for Increment/Append).
 */
public final class CheckAndMutateResult {
  private final boolean success;
  private final Result result;

  public CheckAndMutateResult(boolean success, Result result) {
    this.success = success;
    this.result = result == null ? Result.EMPTY : result;
  }

  public boolean isSuccess() {
    return success;
  }

  public Result getResult() {
    return result;
  }

  @Override
  public String toString() {
    return "CheckAndMutateResult{success=" + success + ", " + result + "}";
  }
}
