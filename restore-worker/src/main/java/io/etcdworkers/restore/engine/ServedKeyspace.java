package io.etcdworkers.restore.engine;

import io.etcdworkers.restore.etcd.ScratchEtcd;
import io.etcdworkers.restore.verify.KeyspaceDigest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The verification's last step, the same for every engine: digest what the verifying etcd serves. */
public final class ServedKeyspace {
    private static final Logger LOG = LoggerFactory.getLogger(ServedKeyspace.class);

    private ServedKeyspace() {}

    /** Every key etcd serves at {@code revision}, digested, and logged as verified by {@code engine}. */
    public static KeyspaceDigest digest(ScratchEtcd etcd, long revision, Engine engine) {
        KeyspaceDigest digest = KeyspaceDigest.of(etcd.client(), revision);
        log(digest, engine);
        return digest;
    }

    /** Logs a digest the engine accepted as verified. */
    public static void log(KeyspaceDigest digest, Engine engine) {
        LOG.info("verified revision={} keys={} kvSha256={} metaSha256={} engine={}", digest.revision(), digest.keys(),
                digest.kvSha256(), digest.metaSha256(), engine.label());
    }
}
