package io.etcdworkers.etcd;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A JVM that runs {@link SnapshotRestorer#restore} and is killed while the tool runs, for the
 * orphan test.
 *
 * <p>Arguments: etcd bin dir (its {@code etcdctl}/{@code etcdutl} may be a slow stand-in),
 * snapshot file, data dir, scratch dir.
 */
public final class SnapshotRestoreChildJvmMain {
    private SnapshotRestoreChildJvmMain() {}

    public static void main(String[] args) {
        EtcdBinaries binaries = EtcdBinaries.locate(Optional.of(Path.of(args[0])), "");
        new SnapshotRestorer(binaries, Path.of(args[3]), SnapshotRestorer.DEFAULT_TIMEOUT)
                .restore(new SnapshotRestorer.Request(
                        Path.of(args[1]), EtcdMember.onFreeLoopbackPort(), Path.of(args[2]), Optional.empty(), false));
    }
}
