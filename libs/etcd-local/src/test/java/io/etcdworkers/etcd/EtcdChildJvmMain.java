package io.etcdworkers.etcd;

import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * A JVM that starts an {@link EmbeddedEtcd} and then waits to be killed, for the orphan test.
 *
 * <p>Arguments: etcd bin dir, data dir (restored), scratch dir, member name, peer URL, cluster
 * token. Prints {@code ETCD_PID <pid>} on stdout once etcd is healthy.
 */
public final class EtcdChildJvmMain {
    private EtcdChildJvmMain() {}

    public static void main(String[] args) throws InterruptedException {
        EtcdBinaries binaries = EtcdBinaries.locate(Optional.of(Path.of(args[0])), "");
        EtcdMember member = new EtcdMember(args[3], URI.create(args[4]), args[5]);
        EmbeddedEtcd etcd =
                EmbeddedEtcd.start(EmbeddedEtcdConfig.defaults(binaries, member, Path.of(args[1]), Path.of(args[2])));
        System.out.println("ETCD_PID " + etcd.pid());
        System.out.flush();
        // Never closes etcd: only the JVM's death (the test kills it) may end it.
        new CountDownLatch(1).await();
    }
}
