package dev.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.db.Database;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ClusterInfo;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.server.replication.ReplicationLoad;
import dev.basalt.server.replication.ReplicationPeers;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.CreateTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DisableTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetProcedureResultResponse;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** A database with the master's handlers over it, and the requests the tests send. */
final class MasterFixture implements AutoCloseable {
  static final ServerName MASTER = new ServerName("master.example", 16000, 11);
  static final ServerName REGION_SERVER = new ServerName("rs.example", 16020, 22);

  final ManualClock clock = new ManualClock(1_700_000_000_000L);
  final Database db;
  final MasterServiceHandlers master;

  MasterFixture(Path dir) throws IOException {
    this.db = Database.open(dir);
    ClusterInfo info =
        new ClusterInfo(
            db.getClusterId().toString(), MASTER, REGION_SERVER, ClusterInfo.HBASE_VERSION);
    this.master =
        MasterServiceHandlers.standalone(
            db,
            () -> info,
            clock,
            new ReplicationPeers(db.storage(), db::getClusterId, Duration.ofSeconds(1)),
            ReplicationLoad.NONE);
  }

  static HBaseProtos.TableName name(String table) {
    return SchemaCodec.toProto(TableName.valueOf(table));
  }

  static HBaseProtos.TableSchema schema(String table, String... families) {
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(TableName.valueOf(table));
    for (String f : families) {
      b.setColumnFamily(ColumnFamilyDescriptorBuilder.of(Bytes.toBytes(f)));
    }
    return SchemaCodec.toProto(b.build());
  }

  static ByteString bytes(String s) {
    return ByteString.copyFromUtf8(s);
  }

  /** Creates a table of family "f" through the RPC; returns the procedure id. */
  long create(String table, String... splitKeys) throws IOException {
    CreateTableRequest.Builder q =
        CreateTableRequest.newBuilder().setTableSchema(schema(table, "f"));
    for (String k : splitKeys) {
      q.addSplitKeys(bytes(k));
    }
    return master.ddl().create(q.build()).getProcId();
  }

  void disable(String table) throws IOException {
    master.ddl().disable(DisableTableRequest.newBuilder().setTableName(name(table)).build());
  }

  GetProcedureResultResponse result(long procId) {
    return master.procedures().result(procId);
  }

  /**
   * Asserts that the call fails with the HBase exception class the client would rebuild; returns
   * the assertion for checks of the message.
   */
  static AbstractThrowableAssert<?, ? extends Throwable> assertFailsWith(
      String hbaseClass, ThrowingCallable call) {
    return assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e -> assertThat(e.hbaseExceptionClass()).isEqualTo(hbaseClass));
  }

  @Override
  public void close() throws IOException {
    db.close();
  }
}
