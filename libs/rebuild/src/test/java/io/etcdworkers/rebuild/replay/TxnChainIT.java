package io.etcdworkers.rebuild.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.KeyValue;
import io.etcd.jetcd.api.PutRequest;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.RequestOp;
import io.etcd.jetcd.api.TxnRequest;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.etcd.ScratchEtcd;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The replay's transaction chain against a real etcd on the fixture's full snapshot (revision 601). */
@Timeout(180)
class TxnChainIT {
    private static final int KEYS = 100;

    @TempDir
    Path tmp;

    private ScratchEtcd etcd;
    private long base;
    private final List<String> explained = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        EtcdBinaries binaries =
                EtcdBinaries.locate(Optional.of(EtcdTestEnvironment.onPath().binDir()), "");
        EtcdMember member = EtcdMember.onFreeLoopbackPort();
        new SnapshotRestorer(binaries, tmp.resolve("scratch"), SnapshotRestorer.DEFAULT_TIMEOUT)
                .restore(new SnapshotRestorer.Request(
                        EtcdTestEnvironment.fullSnapshot(), member, tmp.resolve("data"), Optional.empty(), false));
        etcd = ScratchEtcd.start(
                EmbeddedEtcdConfig.defaults(binaries, member, tmp.resolve("data"), tmp.resolve("scratch")),
                Duration.ofSeconds(20));
        base = etcd.client().status().getHeader().getRevision();
    }

    @AfterEach
    void stop() {
        if (etcd != null) {
            etcd.close();
        }
    }

    @Test
    void moreTransactionsThanTheQueueHoldsLandInOrderAtTheirRevisions() throws Exception {
        TxnChain chain = chain();
        int txns = TxnChain.MAX_QUEUED * 12;
        for (int i = 0; i < txns; i++) {
            chain.submit(etcd.client(), put(i, base + 1 + i));
        }

        assertThat(base).isEqualTo(601);
        assertThat(chain.drain()).isEqualTo(base + txns);
        assertThat(chain.sent()).isEqualTo(txns);
        assertThat(etcd.client().status().getHeader().getRevision()).isEqualTo(base + txns);
        // key i % KEYS was last written by the last i with that remainder, at revision base + 1 + i,
        // with the value i: any reordering or loss would show here
        for (KeyValue kv : all()) {
            int k = Integer.parseInt(kv.getKey().toStringUtf8().substring("/chain/k".length()));
            int last = k + KEYS * ((txns - 1 - k) / KEYS);
            assertThat(kv.getValue().toStringUtf8()).isEqualTo(Integer.toString(last));
            assertThat(kv.getModRevision()).isEqualTo(base + 1 + last);
            assertThat(kv.getCreateRevision()).isEqualTo(base + 1 + k);
            assertThat(kv.getVersion()).isEqualTo((txns - 1 - k) / KEYS + 1);
        }
        assertThat(all()).hasSize(KEYS);
        assertThat(explained).isEmpty();
    }

    @Test
    void aRevisionEtcdDoesNotConfirmStopsTheChainAndIsThrownAtTheNextCall() throws Exception {
        TxnChain chain = chain();
        for (int i = 0; i < 500; i++) {
            chain.submit(etcd.client(), put(i, base + 1 + i));
        }
        // the source claims base + 502 for what etcd applies as base + 501
        chain.submit(etcd.client(), put(500, base + 502));
        WorkerException thrown = submitUntilThrown(chain, 501, 2000, base + 2);

        assertThat(thrown.code()).isEqualTo(ErrorCode.BACKUP_INCONSISTENT);
        assertThat(thrown)
                .hasMessage("Incr-500: after replaying revision 1103 etcd is at revision 1102 (1 events): "
                        + "the delta does not continue the restored state");
        assertThat(explained).containsExactly("Incr-500@1103");
        // nothing queued behind the failure was sent, and the failure stays
        assertThat(etcd.client().status().getHeader().getRevision()).isEqualTo(base + 501);
        assertThat(chain.applied()).isEqualTo(base + 500);
        assertThatThrownBy(chain::drain).isSameAs(thrown);
        assertThatThrownBy(() -> chain.submit(etcd.client(), put(9999, 9999))).isSameAs(thrown);
    }

    @Test
    void etcdGoneMidChainIsAnEtcdFailureNamingTheTransaction() throws Exception {
        TxnChain chain = chain();
        for (int i = 0; i < 300; i++) {
            chain.submit(etcd.client(), put(i, base + 1 + i));
        }
        assertThat(chain.drain()).isEqualTo(base + 300);
        etcd.process().close();

        WorkerException thrown = submitUntilThrown(chain, 300, 5000, base + 1);

        assertThat(thrown.code()).isEqualTo(ErrorCode.ETCD_FAILURE);
        assertThat(thrown)
                .hasMessageContaining("scratch etcd at " + etcd.client().endpoint())
                .hasMessageContaining("txn");
        assertThat(explained).containsExactly("Incr-300@902");
        assertThat(chain.applied()).isEqualTo(base + 300);
    }

    private TxnChain chain() {
        return new TxnChain(etcd.client().status().getHeader().getRevision(), (txn, e) -> {
            explained.add(txn.objectName() + "@" + txn.revision());
            return e;
        });
    }

    /**
     * Submits txns {@code from} until {@code to} (txn i at {@code offset + i}) until one call
     * throws the chain's failure, else drains; fails the test when nothing throws.
     */
    private WorkerException submitUntilThrown(TxnChain chain, int from, int to, long offset)
            throws InterruptedException {
        try {
            for (int i = from; i < to; i++) {
                chain.submit(etcd.client(), put(i, offset + i));
            }
            chain.drain();
        } catch (WorkerException e) {
            return e;
        }
        throw new AssertionError("the chain did not fail");
    }

    /** Transaction i: key i % KEYS gets the value i; the source says it landed at {@code revision}. */
    private static TxnChain.Txn put(int i, long revision) {
        TxnRequest request = TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder()
                        .setRequestPut(PutRequest.newBuilder()
                                .setKey(ByteString.copyFromUtf8("/chain/k" + (i % KEYS)))
                                .setValue(ByteString.copyFromUtf8(Integer.toString(i)))))
                .build();
        return new TxnChain.Txn(request, "Incr-" + i, revision, 1);
    }

    private List<KeyValue> all() {
        return etcd.client()
                .range(RangeRequest.newBuilder()
                        .setKey(ByteString.copyFromUtf8("/chain/"))
                        .setRangeEnd(ByteString.copyFromUtf8("/chain0"))
                        .build())
                .getKvsList();
    }
}
