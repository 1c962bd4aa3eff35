package io.etcdworkers.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WorkerJvmTest {
    @Test
    void theClassArchiveLiesBesideItsJar() {
        assertThat(WorkerJvm.classArchiveFor("/app/restore-worker.jar")).isEqualTo("/app/restore-worker.jsa");
        assertThat(WorkerJvm.classArchiveOption("/app/compaction-worker.jar"))
                .isEqualTo("-XX:SharedArchiveFile=/app/compaction-worker.jsa");
    }

    @Test
    void onlyAJarHasOne() {
        assertThatThrownBy(() -> WorkerJvm.classArchiveFor("/app/restore-worker"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
