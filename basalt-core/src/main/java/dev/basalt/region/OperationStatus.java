package dev.basalt.region;

import dev.basalt.ops.CheckAndMutateResult;
import dev.basalt.ops.Result;
import java.io.IOException;

/** The outcome of one operation of a batch: its result, or the error that stopped it. */
public final class OperationStatus {
  private final Result result;
  private final CheckAndMutateResult checkAndMutateResult;
  private final IOException error;

  private OperationStatus(Result result, CheckAndMutateResult cam, IOException error) {
    this.result = result;
    this.checkAndMutateResult = cam;
    this.error = error;
  }

  static OperationStatus success(Result result) {
    return new OperationStatus(result == null ? Result.EMPTY : result, null, null);
  }

  static OperationStatus success(CheckAndMutateResult cam) {
    return new OperationStatus(cam.getResult(), cam, null);
  }

  /** A failed operation (also for hosts that route batches to regions). */
  public static OperationStatus failure(IOException error) {
    return new OperationStatus(null, null, error);
  }

  public boolean isSuccess() {
    return error == null;
  }

  /** The operation's result (empty for Put and Delete); null when it failed. */
  public Result getResult() {
    return result;
  }

  /** For a CheckAndMutate: whether its condition held; null for other operations. */
  public CheckAndMutateResult getCheckAndMutateResult() {
    return checkAndMutateResult;
  }

  /** The failure, or null. */
  public IOException getException() {
    return error;
  }

  @Override
  public String toString() {
    return error != null ? "FAILURE(" + error.getMessage() + ")" : "SUCCESS(" + result + ")";
  }
}
