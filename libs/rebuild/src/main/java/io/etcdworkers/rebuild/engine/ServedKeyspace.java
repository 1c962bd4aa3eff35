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
        LOG.info("verified revision={} keys={} kvSha256={} metaSha256={} engine={} read={} hashKv={} rangeRequests={} "
                + "ranges={} keysRead={} keysCounted={}", digest.revision(), digest.keys(), digest.kvSha256(),
                digest.metaSha256(), engine.label(), read.scope().label(),
                read.hashKv().isPresent() ? Long.toString(read.hashKv().getAsLong()) : "-", read.cost().rangeRequests(),
                read.cost().ranges(), read.cost().keysRead(), read.cost().keysCounted());
    }
}
