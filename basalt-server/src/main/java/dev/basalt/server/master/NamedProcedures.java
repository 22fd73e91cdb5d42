package dev.basalt.server.master;

import dev.basalt.db.TableNotFoundException;
import dev.basalt.schema.TableName;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.ProcedureDescription;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ExecProcedureRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ExecProcedureResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsProcedureDoneRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsProcedureDoneResponse;

/**
 * HBase's older procedure calls by signature: {@code ExecProcedure}, {@code ExecProcedureWithRet}
 * and {@code IsProcedureDone}. Clients before 2.6 flush a table this way ({@code
 * Admin.flush(TableName)} in hbase-client 2.0-2.5 and the 2.4/2.5 shells' {@code flush 'table'}
 * send the {@code flush-table-proc} signature with the table as the instance, then poll {@code
 * IsProcedureDone}); 2.6 clients call {@code FlushTable} instead. Basalt flushes inside the call,
 * so the poll that follows finds it done. Any other signature (HBase's {@code online-snapshot} and
 * plugins) is refused with HBase's words for a procedure no manager is registered for.
 *
 * <p>Thread-safe (the engine serialises the flushes of a table).
 */
final class NamedProcedures {
  /** HBase's MasterFlushTableProcedureManager.FLUSH_TABLE_PROCEDURE_SIGNATURE. */
  static final String FLUSH_TABLE = "flush-table-proc";

  /** How long the client polls before it gives up; the flush is over before the first poll. */
  private static final long EXPECTED_TIMEOUT_MILLIS = 60_000;

  private final ClusterAdmin admin;
  private final Procedures procedures;

  NamedProcedures(ClusterAdmin admin, Procedures procedures) {
    this.admin = admin;
    this.procedures = procedures;
  }

  RpcService.Builder register(RpcService.Builder b) {
    return b.method(
            "ExecProcedure",
            ExecProcedureRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(exec(q.getProcedure())))
        .method(
            "ExecProcedureWithRet",
            ExecProcedureRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(exec(q.getProcedure())))
        .method(
            "IsProcedureDone",
            IsProcedureDoneRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(isDone(q.getProcedure())));
  }

  ExecProcedureResponse exec(ProcedureDescription p) throws IOException {
    TableName table = flushedTable(p);
    // The family named in the description (HBase's FAMILY_KEY_STR) only narrows the flush; the
    // engine flushes whole regions, which is harmless (see TableDdl.flush).
    procedures.run("FlushTableProcedure", 0, 0, () -> admin.flush(table));
    return ExecProcedureResponse.newBuilder().setExpectedTimeout(EXPECTED_TIMEOUT_MILLIS).build();
  }

  IsProcedureDoneResponse isDone(ProcedureDescription p) throws IOException {
    flushedTable(p);
    return IsProcedureDoneResponse.newBuilder().setDone(true).build();
  }

  /** The table a flush-table-proc description names; refuses other signatures. */
  private TableName flushedTable(ProcedureDescription p) throws IOException {
    if (!FLUSH_TABLE.equals(p.getSignature())) {
      throw BasaltIOException.doNotRetry(
          "The procedure is not registered: "
              + p.getSignature()
              + " (Basalt runs only "
              + FLUSH_TABLE
              + " by signature)");
    }
    TableName table;
    try {
      table = TableName.valueOf(p.getInstance());
    } catch (IllegalArgumentException e) {
      throw BasaltIOException.doNotRetry(
          FLUSH_TABLE + ": '" + p.getInstance() + "' is not a table name: " + e.getMessage());
    }
    if (!admin.tableExists(table)) {
      throw new TableNotFoundException(table.getNameAsString());
    }
    return table;
  }
}
