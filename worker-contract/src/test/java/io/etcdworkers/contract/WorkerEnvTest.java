package io.etcdworkers.contract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WorkerEnvTest {

    @Test
    void aFlagsTwinIsThePrefixAndTheFlagInUpperSnakeCase() {
        assertThat(WorkerEnv.twinOf(WorkerFlags.STORE_PREFIX)).isEqualTo("ETCD_WORKER_STORE_PREFIX");
        assertThat(WorkerEnv.twinOf(WorkerFlags.DEFRAG_EVERY_EVENTS)).isEqualTo("ETCD_WORKER_DEFRAG_EVERY_EVENTS");
        assertThat(WorkerEnv.twinOf("-x")).isEqualTo("ETCD_WORKER_X");
    }
}
