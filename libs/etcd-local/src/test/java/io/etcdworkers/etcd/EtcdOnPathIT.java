package io.etcdworkers.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.EtcdVersions;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The guard of each failsafe execution: the etcd every IT of this run finds on PATH is the
 * version the execution is for (3.4 by default, 3.5 in {@code etcd-3.5}), so the 3.5 execution
 * can never pass by running 3.4 again, and etcdctl/etcdutl come from the same release.
 */
class EtcdOnPathIT {
    @Test
    void theEtcdOnPathIsTheVersionThisExecutionTests() {
        String minor = EtcdVersions.requireExpectedOnPath();

        EtcdBinaries binaries = EtcdBinaries.locate(Optional.empty(), System.getenv("PATH"));
        assertThat(binaries.snapshotRestoreTool().getParent())
                .as("restore tool next to etcd " + minor)
                .isEqualTo(binaries.etcd().getParent());
    }
}
