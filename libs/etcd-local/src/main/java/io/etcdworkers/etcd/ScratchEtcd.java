package io.etcdworkers.etcd;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scratch etcd and its client, with request limits that grow on demand: before a delta is
 * applied its largest revision group is known (the prefetcher verified it), and when that group
 * would not fit etcd's {@code --max-request-bytes} or {@code --max-txn-ops}, etcd is restarted
 * with limits that fit (a second or so), instead of failing as etcd-backup-restore does on a
 * large revision (their issue #963).
 */
public final class ScratchEtcd implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ScratchEtcd.class);
    /** What one txn op costs on top of its key and value in the request (generous). */
    private static final long OP_OVERHEAD_BYTES = 64;

    private static final long REQUEST_SLACK_BYTES = 64 * 1024;
    /** Starting limits: etcd's own defaults are 1.5 MiB and 128 ops. */
    public static final long MIN_REQUEST_BYTES = 10L * 1024 * 1024;

    public static final int MIN_TXN_OPS = 1024;

    private EmbeddedEtcdConfig config;
    private final Duration callTimeout;
    private EmbeddedEtcd etcd;
    private EtcdGrpcClient client;
    private int restarts;

    private ScratchEtcd(EmbeddedEtcdConfig config, Duration callTimeout) {
        this.config = config;
        this.callTimeout = callTimeout;
    }

    /** Starts etcd on the restored data dir with at least the minimum limits. */
    public static ScratchEtcd start(EmbeddedEtcdConfig config, Duration callTimeout) {
        ScratchEtcd scratch = new ScratchEtcd(
                config.withRequestLimits(
                        Math.max(MIN_REQUEST_BYTES, config.maxRequestBytes()),
                        Math.max(MIN_TXN_OPS, config.maxTxnOps())),
                callTimeout);
        scratch.launch();
        return scratch;
    }

    private void launch() {
        etcd = EmbeddedEtcd.start(config);
        client = EtcdGrpcClient.connect(etcd.clientEndpoint(), callTimeout);
    }

    public EtcdGrpcClient client() {
        return client;
    }

    public EmbeddedEtcd process() {
        return etcd;
    }

    public int restarts() {
        return restarts;
    }

    /** Bytes a txn carrying {@code payloadBytes} of keys and values in {@code ops} operations needs. */
    static long requestBytesFor(long payloadBytes, int ops) {
        return payloadBytes + ops * OP_OVERHEAD_BYTES + REQUEST_SLACK_BYTES;
    }

    /** Whether a revision of {@code payloadBytes} in {@code ops} operations fits etcd's request limits now. */
    public boolean fits(long payloadBytes, int ops) {
        return requestBytesFor(payloadBytes, ops) <= config.maxRequestBytes() && ops <= config.maxTxnOps();
    }

    /** Restarts etcd with larger limits when a group of this size would not fit. */
    public void ensureFits(long payloadBytes, int ops) {
        if (fits(payloadBytes, ops)) {
            return;
        }
        long needBytes = requestBytesFor(payloadBytes, ops);
        long bytes = Math.max(config.maxRequestBytes(), needBytes + needBytes / 4);
        int txnOps = Math.max(config.maxTxnOps(), ops + ops / 4);
        LOG.info(
                "restarting the scratch etcd with larger request limits maxRequestBytes={} maxTxnOps={} "
                        + "(a revision carries {} bytes in {} operations)",
                bytes,
                txnOps,
                payloadBytes,
                ops);
        stopProcess();
        config = config.withRequestLimits(bytes, txnOps);
        restarts++;
        launch();
    }

    public long maxRequestBytes() {
        return config.maxRequestBytes();
    }

    public int maxTxnOps() {
        return config.maxTxnOps();
    }

    /** Stops etcd cleanly (the data dir is then complete on disk); the object stays closable. */
    public void stopProcess() {
        if (client != null) {
            client.close();
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    @Override
    public void close() {
        stopProcess();
    }
}
