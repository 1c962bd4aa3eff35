package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.EtcdVersions;
import org.junit.jupiter.api.Test;

/**
 * The restore worker's ITs's guard, as etcd-local's {@code EtcdOnPathIT}: the etcd on PATH is the version this
 * failsafe execution is for (3.4 by default, 3.5 in {@code etcd-3.5}), so the 3.5 run of these ITs
 * can never pass by running 3.4 again.
 */
class EtcdOnPathIT {
    @Test
    void theEtcdOnPathIsTheVersionThisExecutionTests() {
        assertThat(EtcdVersions.requireExpectedOnPath()).isEqualTo(System.getProperty("etcd.expected.minor"));
    }
}
