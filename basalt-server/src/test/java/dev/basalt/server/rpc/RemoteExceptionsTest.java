package dev.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.db.TableNotFoundException;
import dev.basalt.region.RegionTooBusyException;
import java.io.FileNotFoundException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ExceptionResponse;
import org.junit.jupiter.api.Test;

class RemoteExceptionsTest {

  @Test
  void engineExceptionsUseTheNamesCoreGivesThem() {
    ExceptionResponse r = RemoteExceptions.toResponse(new TableNotFoundException("t1"));
    assertThat(r.getExceptionClassName())
        .isEqualTo("org.apache.hadoop.hbase.TableNotFoundException");
    assertThat(r.getStackTrace())
        .isEqualTo("org.apache.hadoop.hbase.TableNotFoundException: table 't1' does not exist");
    assertThat(r.getDoNotRetry()).isTrue();
    assertThat(r.getServerOverloaded()).isFalse();

    ExceptionResponse busy = RemoteExceptions.toResponse(new RegionTooBusyException("busy"));
    assertThat(busy.getExceptionClassName())
        .isEqualTo("org.apache.hadoop.hbase.RegionTooBusyException");
    assertThat(busy.getDoNotRetry()).isFalse();
  }

  @Test
  void otherIoExceptionsAreRetriedIoExceptions() {
    ExceptionResponse r = RemoteExceptions.toResponse(new FileNotFoundException("gone"));
    assertThat(r.getExceptionClassName()).isEqualTo("java.io.IOException");
    assertThat(r.getStackTrace())
        .isEqualTo("java.io.IOException: java.io.FileNotFoundException: gone");
    assertThat(r.getDoNotRetry()).isFalse();
  }

  @Test
  void bugsAreDoNotRetryWithTheirCauses() {
    ExceptionResponse r =
        RemoteExceptions.toResponse(
            new IllegalStateException("outer", new ArithmeticException("inner")));
    assertThat(r.getExceptionClassName())
        .isEqualTo("org.apache.hadoop.hbase.DoNotRetryIOException");
    assertThat(r.getStackTrace())
        .isEqualTo(
            "org.apache.hadoop.hbase.DoNotRetryIOException: java.lang.IllegalStateException: outer\n"
                + "Caused by: java.lang.ArithmeticException: inner");
    assertThat(r.getDoNotRetry()).isTrue();
  }

  @Test
  void callQueueTooBigMarksTheServerOverloaded() {
    ExceptionResponse r = RemoteExceptions.toResponse(RpcErrors.callQueueTooBig("full"));
    assertThat(r.getServerOverloaded()).isTrue();
    assertThat(r.getDoNotRetry()).isFalse();
  }
}
