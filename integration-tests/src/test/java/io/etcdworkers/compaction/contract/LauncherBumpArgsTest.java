package io.etcdworkers.compaction.contract;

import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.S3;
import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.restore;
import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.restoreConfig;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.launcher.job.DefragFlags;
import io.etcdworkers.launcher.job.RestoreFlags;
import io.etcdworkers.restore.BumpSetting;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The launcher's {@code --bump-revision N --mark-compacted} lands as the restore worker's bump. */
@Timeout(60)
class LauncherBumpArgsTest {
    static final RestoreFlags TO_REVISION_BUMPED = RestoreFlags.builder("etcd-main-0")
            .toRevision(123_456L)
            .bumpRevision(2_000_000L)
            .markCompacted(true)
            .build();

    @Test
    void theBumpLandsAsTheRestoresBump() {
        assertThat(restoreConfig(WorkerPod.of(restore(S3, TO_REVISION_BUMPED, DefragFlags.workerDefaults())))
                        .bump())
                .isEqualTo(BumpSetting.of(2_000_000));
        RestoreFlags unbumped =
                RestoreFlags.builder("etcd-main-0").toRevision(123_456L).build();
        assertThat(restoreConfig(WorkerPod.of(restore(S3, unbumped, DefragFlags.workerDefaults())))
                        .bump())
                .isEqualTo(BumpSetting.byDefault());
    }
}
