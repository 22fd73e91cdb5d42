package dev.basalt.region.model;

import dev.basalt.ops.CheckAndMutateResult;
import dev.basalt.ops.Result;

/**
 * The model's outcome of one operation of a batch: the operation's result (and, for a
 * check-and-mutate, whether it applied), or the error it predicts.
 */
public record ModelStatus(
    Result result, CheckAndMutateResult checkAndMutateResult, ModelException error) {

  static ModelStatus success(Result result) {
    return new ModelStatus(result, null, null);
  }

  static ModelStatus success(CheckAndMutateResult cam) {
    return new ModelStatus(cam.getResult(), cam, null);
  }

  static ModelStatus failure(ModelException e) {
    return new ModelStatus(null, null, e);
  }

  public boolean isSuccess() {
    return error == null;
  }
}
