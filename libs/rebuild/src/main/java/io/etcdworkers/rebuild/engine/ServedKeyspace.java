package io.etcdworkers.rebuild.engine;

import io.etcdworkers.etcd.ScratchEtcd;
import io.etcdworkers.rebuild.verify.KeyBounds;
import io.etcdworkers.rebuild.verify.KeyspaceDigest;
import io.etcdworkers.rebuild.verify.KeyspaceRead;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The verification's last step, the same for every engine: digest what the verifying etcd serves. */
public final class ServedKeyspace {
    private static final Logger LOG = LoggerFactory.getLogger(ServedKeyspace.class);

    private ServedKeyspace() {}

    /**
     * Every key etcd serves at {@code revision}, read over the ranges {@code bounds} makes and
     * digested (each key costs etcd one visit when the bounds are about a page apart).
     */
    public static KeyspaceRead read(ScratchEtcd etcd, long revision, KeyBounds bounds) {
        return KeyspaceRead.of(etcd.client(), revision, bounds);
    }

    /** Logs what the engine accepted as verified, and what reading it cost. */
    public static void log(KeyspaceRead read, Engine engine) {
        KeyspaceDigest digest = read.digest();
        var line = LOG.atInfo()
                .setMessage("verified")
                .addKeyValue("revision", digest.revision())
                .addKeyValue("keys", digest.keys())
                .addKeyValue("kvSha256", digest.kvSha256())
                .addKeyValue("metaSha256", digest.metaSha256())
                .addKeyValue("engine", engine.label())
                .addKeyValue("read", read.scope().label());
        // no hashKv field when etcd was not asked for one
        read.hashKv().ifPresent(hash -> line.addKeyValue("hashKv", hash));
        line.addKeyValue("rangeRequests", read.cost().rangeRequests())
                .addKeyValue("ranges", read.cost().ranges())
                .addKeyValue("keysRead", read.cost().keysRead())
                .addKeyValue("keysCounted", read.cost().keysCounted())
                .log();
    }
}
