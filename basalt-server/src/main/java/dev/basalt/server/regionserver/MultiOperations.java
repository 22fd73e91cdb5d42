package dev.basalt.server.regionserver;

import dev.basalt.cell.Cell;
import dev.basalt.ops.Append;
import dev.basalt.ops.CheckAndMutateResult;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Mutation;
import dev.basalt.ops.Result;
import dev.basalt.ops.Row;
import dev.basalt.ops.RowMutations;
import dev.basalt.region.OperationStatus;
import dev.basalt.region.Region;
import dev.basalt.server.protocol.CellEncoder;
import dev.basalt.server.protocol.ConditionDecoder;
import dev.basalt.server.protocol.MutationDecoder;
import dev.basalt.server.protocol.QueryDecoder;
import dev.basalt.server.rpc.CallFailureLog;
import dev.basalt.server.rpc.RemoteExceptions;
import dev.basalt.server.rpc.RpcCall;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Action;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.RegionAction;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.RegionActionResult;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ResultOrException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * ClientService.Multi: batches (Table.batch, BufferedMutator, put(List), get(List)), atomic row
 * mutations and conditional row mutations, as HBase's client builds them.
 *
 * <p>The answer has one {@code RegionActionResult} per {@code RegionAction}, in request order (the
 * client checks). Mutations' cells arrive in the request cell block in action order, so each
 * mutation first takes exactly its {@code associated_cell_count} cells; when a whole region action
 * fails (its region is not served here) its cells are still taken, keeping later actions aligned.
 *
 * <ul>
 *   <li>Ordinary region actions: gets run one by one, mutations go to the region as one batch (one
 *       WAL sync for all); each action gets a {@code ResultOrException} carrying the client's
 *       {@code Action.index}, a failure affecting only its action.
 *   <li>{@code atomic}: the Puts, Deletes, Increments and Appends of one row applied all or none
 *       ({@code processed}); results are indexed 0..n-1 by position, as HBase answers, and the
 *       increments' and appends' cells go on index 0.
 *   <li>{@code condition}: check-and-mutate of one mutation or of several as a row mutation; {@code
 *       processed} says whether the condition held, results are indexed 0..n-1 and an increment's
 *       or append's cells go on index 0.
 * </ul>
 *
 * Coprocessor service calls inside a batch are refused per action.
 */
final class MultiOperations {
  private final RegionLookup regions;
  private final ServerNonces nonces;

  /**
   * @param nonces the operations already applied under a client nonce (shared with Mutate)
   */
  MultiOperations(RegionLookup regions, ServerNonces nonces) {
    this.regions = regions;
    this.nonces = nonces;
  }

  /** The failed parts of one multi call, for its one log line. */
  private static final class Failures {
    int count;
    int total;
    Throwable first;
    String firstRegion;

    void add(RegionAction ra, Throwable t, int actions) {
      if (first == null) {
        first = t;
        firstRegion = CallFailureLog.regionOf(ra.getRegion());
      }
      count += actions;
    }
  }

  /**
   * @param call the request, named in the log line of actions that fail
   */
  MultiResponse multi(
      MultiRequest req, Iterator<Cell> requestCells, List<Cell> cellBlock, RpcCall call) {
    MultiResponse.Builder b = MultiResponse.newBuilder();
    boolean anyProcessed = false;
    Failures failures = new Failures();
    for (RegionAction ra : req.getRegionActionList()) {
      failures.total += ra.getActionCount();
      List<List<Cell>> cells = takeCells(ra, requestCells);
      RegionActionResult.Builder rb = RegionActionResult.newBuilder();
      try {
        Region region = regions.region(ra.getRegion());
        if (ra.hasCondition()) {
          anyProcessed |= conditional(region, ra, cells, rb, cellBlock);
        } else if (ra.getAtomic()) {
          atomic(region, ra, cells, rb, cellBlock);
          anyProcessed = true;
        } else {
          ordinary(region, ra, cells, rb, cellBlock, req.getNonceGroup(), failures);
        }
      } catch (IOException | RuntimeException e) {
        rb.clear();
        rb.setException(pair(e));
        failures.add(ra, e, ra.getActionCount());
      }
      b.addRegionActionResult(rb);
    }
    if (failures.first != null) {
      CallFailureLog.partsFailed(
          call, failures.count, failures.total, failures.firstRegion, failures.first);
    }
    if (anyProcessed) {
      b.setProcessed(true);
    }
    return b.build();
  }

  /** Each mutation's own cells, taken from the cell block in action order. */
  private static List<List<Cell>> takeCells(RegionAction ra, Iterator<Cell> requestCells) {
    List<List<Cell>> out = new ArrayList<>(ra.getActionCount());
    for (Action a : ra.getActionList()) {
      List<Cell> own = new ArrayList<>();
      if (a.hasMutation()) {
        int n = a.getMutation().getAssociatedCellCount();
        for (int i = 0; i < n && requestCells.hasNext(); i++) {
          own.add(requestCells.next());
        }
      }
      out.add(own);
    }
    return out;
  }

  private void ordinary(
      Region region,
      RegionAction ra,
      List<List<Cell>> cells,
      RegionActionResult.Builder rb,
      List<Cell> cellBlock,
      long nonceGroup,
      Failures failures) {
    int n = ra.getActionCount();
    // Outcomes first, encoded afterwards in action order: the client reads the cell block in the
    // order of the ResultOrExceptions that count its cells.
    Result[] results = new Result[n];
    Throwable[] errors = new Throwable[n];
    List<Mutation> batch = new ArrayList<>();
    List<Integer> batchAt = new ArrayList<>();
    long[] nonceAt = new long[n];
    Mutation[] duplicates = new Mutation[n];
    for (int i = 0; i < n; i++) {
      Action a = ra.getAction(i);
      try {
        if (a.hasMutation()) {
          Mutation m = MutationDecoder.toMutation(a.getMutation(), cells.get(i).iterator());
          long nonce = nonceOf(a, m);
          if (nonce != ServerNonces.NO_NONCE && !nonces.start(nonceGroup, nonce)) {
            // Applied by an earlier attempt of this call: answered with the current values
            // once the batch is done, never applied twice.
            duplicates[i] = m;
          } else {
            nonceAt[i] = nonce;
            m.setNonce(nonceGroup, nonce); // logged with the edit (see ServerNonces)
            batch.add(m);
            batchAt.add(i);
          }
        } else if (!a.hasGet()) {
          throw new BasaltIOException(
              "coprocessor service calls are not supported",
              "org.apache.hadoop.hbase.exceptions.UnknownProtocolException",
              true);
        }
      } catch (IOException | RuntimeException e) {
        errors[i] = e;
      }
    }
    if (!batch.isEmpty()) {
      try {
        List<OperationStatus> statuses = region.batchMutate(batch);
        for (int j = 0; j < batchAt.size(); j++) {
          OperationStatus st = statuses.get(j);
          if (st.isSuccess()) {
            results[batchAt.get(j)] = st.getResult();
          } else {
            errors[batchAt.get(j)] = st.getException();
          }
        }
      } catch (IOException | RuntimeException e) {
        batchAt.forEach(i -> errors[i] = e);
      } finally {
        for (int i : batchAt) {
          nonces.end(nonceGroup, nonceAt[i], errors[i] == null);
        }
      }
    }
    for (int i = 0; i < n; i++) {
      if (duplicates[i] != null) {
        try {
          results[i] = region.get(ClientOperations.currentValues(duplicates[i]));
        } catch (IOException | RuntimeException e) {
          errors[i] = e;
        }
      }
    }
    for (int i = 0; i < n; i++) {
      Action a = ra.getAction(i);
      if (errors[i] == null && a.hasGet()) {
        try {
          results[i] = region.get(QueryDecoder.toGet(a.getGet()));
        } catch (IOException | RuntimeException e) {
          errors[i] = e;
        }
      }
    }
    for (int i = 0; i < n; i++) {
      int index = ra.getAction(i).getIndex();
      if (errors[i] != null) {
        failures.add(ra, errors[i], 1);
      }
      rb.addResultOrException(
          errors[i] != null
              ? failure(index, errors[i])
              : success(
                  index, results[i] == null ? null : CellEncoder.toResult(results[i], cellBlock)));
    }
  }

  /** The client's nonce of an Increment or Append; other mutations are not de-duplicated. */
  private static long nonceOf(Action a, Mutation m) {
    return m instanceof Increment || m instanceof Append
        ? a.getMutation().getNonce()
        : ServerNonces.NO_NONCE;
  }

  private void atomic(
      Region region,
      RegionAction ra,
      List<List<Cell>> cells,
      RegionActionResult.Builder rb,
      List<Cell> cellBlock)
      throws IOException {
    Result r = region.mutateRow(rowMutations(ra, cells));
    rb.setProcessed(true);
    // As HBase answers an atomic action: results indexed by position (Table.mutateRow sends no
    // Action.index, and the client files each result under the index it reads here), the cells
    // of all increments and appends together on index 0.
    for (int i = 0; i < ra.getActionCount(); i++) {
      ClientProtos.Result result =
          i == 0 && r != null && !r.isEmpty() ? CellEncoder.toResult(r, cellBlock) : null;
      rb.addResultOrException(success(i, result));
    }
  }

  private boolean conditional(
      Region region,
      RegionAction ra,
      List<List<Cell>> cells,
      RegionActionResult.Builder rb,
      List<Cell> cellBlock)
      throws IOException {
    Row action =
        ra.getActionCount() == 1
            ? MutationDecoder.toMutation(mutation(ra.getAction(0)), cells.get(0).iterator())
            : rowMutations(ra, cells);
    CheckAndMutateResult r =
        region.checkAndMutate(ConditionDecoder.toCheckAndMutate(ra.getCondition(), action));
    rb.setProcessed(r.isSuccess());
    for (int i = 0; i < ra.getActionCount(); i++) {
      ClientProtos.Result result =
          i == 0 && r.getResult() != null ? CellEncoder.toResult(r.getResult(), cellBlock) : null;
      rb.addResultOrException(success(i, result));
    }
    return r.isSuccess();
  }

  private static RowMutations rowMutations(RegionAction ra, List<List<Cell>> cells)
      throws IOException {
    List<Mutation> ms = new ArrayList<>(ra.getActionCount());
    for (int i = 0; i < ra.getActionCount(); i++) {
      ms.add(MutationDecoder.toMutation(mutation(ra.getAction(i)), cells.get(i).iterator()));
    }
    try {
      return RowMutations.of(ms);
    } catch (IllegalArgumentException e) {
      throw BasaltIOException.doNotRetry("bad row mutation: " + e.getMessage());
    }
  }

  private static MutationProto mutation(Action a) throws BasaltIOException {
    if (!a.hasMutation()) {
      throw BasaltIOException.doNotRetry(
          "an atomic or conditional region action may hold mutations only");
    }
    return a.getMutation();
  }

  private static ResultOrException success(int index, ClientProtos.Result result) {
    return ResultOrException.newBuilder()
        .setIndex(index)
        .setResult(result == null ? ClientOperations.emptyResult() : result)
        .build();
  }

  private static ResultOrException failure(int index, Throwable t) {
    return ResultOrException.newBuilder().setIndex(index).setException(pair(t)).build();
  }

  /** A per-action or per-region error: the HBase class name and its text, as the client reads. */
  static HBaseProtos.NameBytesPair pair(Throwable t) {
    var er = RemoteExceptions.toResponse(t);
    return HBaseProtos.NameBytesPair.newBuilder()
        .setName(er.getExceptionClassName())
        .setValue(ByteString.copyFromUtf8(er.getStackTrace()))
        .build();
  }
}
