package io.etcdworkers.compaction.contract;

import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.S3;
import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.S3_FULL;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.launcher.job.CopyFlags;
import io.etcdworkers.launcher.job.JobRequest;
import io.etcdworkers.launcher.job.StorageProvider;
import io.etcdworkers.launcher.job.StoreRef;
import io.etcdworkers.launcher.job.WorkerKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The copy Job's args, as {@link LauncherArgsContractTest} checks the other Jobs': built by the
 * launcher's own factory and parsed by the compaction worker's own command line, whose {@code copy}
 * takes etcdbrctl's copy flags.
 */
class CopyArgsContractTest {
    private static final StoreRef GCS =
            new StoreRef(StorageProvider.GCS, "backups-old", "etcd-main", null, "etcd-backup-gcs", null);
    private static final StoreRef LOCAL =
            new StoreRef(StorageProvider.Local, "etcd-main", "p", null, null, "bucket-pvc");

    @Test
    void theCopyCommandAcceptsEveryFlagTheLauncherRenders() {
        List<JobRequest> requests = List.of(
                JobRequest.builder(
                                "etcd-main",
                                "shoot--dev",
                                "img:1",
                                S3_FULL,
                                new CopyFlags(GCS, 2, 7, true, Duration.ofMinutes(10), false))
                        .build(),
                JobRequest.builder(
                                "etcd-main",
                                "shoot--dev",
                                "img:1",
                                S3,
                                new CopyFlags(LOCAL, null, null, null, null, true))
                        .build(),
                JobRequest.builder(
                                "etcd-main",
                                "shoot--dev",
                                "img:1",
                                LOCAL,
                                new CopyFlags(S3, null, null, false, null, false))
                        .build());
        for (JobRequest request : requests) {
            WorkerPod pod = WorkerPod.of(request);

            assertThat(pod.spec().name()).isEqualTo(WorkerKind.COPY.subcommand());
            for (String arg : pod.args()) {
                assertThat(pod.parsed().subcommand().hasMatchedOption(arg.split("=", 2)[0]))
                        .as("%s matched", arg)
                        .isTrue();
            }
            assertThat(pod.parsed().subcommand().unmatched()).isEmpty();
        }
    }
}
