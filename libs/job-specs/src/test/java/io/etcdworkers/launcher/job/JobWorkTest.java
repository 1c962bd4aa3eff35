package io.etcdworkers.launcher.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A request's kind is its work's, so it carries the flags of its kind only; a restore of every member
 * is one request per member, which the factory names and labels per member.
 */
@Timeout(30)
class JobWorkTest {
    private static final StoreRef S3 = new StoreRef(StorageProvider.S3, "bkt", "", null, "sec", null);
    private static final String PEERS = "m0=https://m0.peer:2380,m1=https://m1.peer:2380";

    @Test
    void theKindIsTheWorks() {
        assertThat(request(RestoreFlags.builder("claim").build()).kind()).isEqualTo(WorkerKind.RESTORE);
        assertThat(request(CompactFlags.none()).kind()).isEqualTo(WorkerKind.COMPACT);
        assertThat(request(ExtractFlags.builder("out", "/registry/").build()).kind())
                .isEqualTo(WorkerKind.EXTRACT);
        for (WorkerKind check : List.of(WorkerKind.VERIFY, WorkerKind.DRILL, WorkerKind.SIZING)) {
            assertThat(request(JobWork.check(check)).kind()).isEqualTo(check);
        }
        assertThatThrownBy(() -> JobWork.check(WorkerKind.RESTORE)).hasMessageContaining("takes its own flags");
        assertThatThrownBy(() -> request(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("work");
    }

    @Test
    void onlyACompactionWithLeaseRenewalGetsTheApi() {
        CompactFlags renew = new CompactFlags(null, null, null, null, null, null, true, "e-full-snap");
        assertThat(JobRequest.builder("e", "ns", "img", S3, renew)
                        .serviceAccountName("sa")
                        .build()
                        .needsApiAccess())
                .isTrue();
        assertThat(request(CompactFlags.none()).needsApiAccess()).isFalse();
        assertThat(request(JobWork.VERIFY).needsApiAccess()).isFalse();
    }

    @Test
    void aChangedCopyKeepsEverythingElse() {
        JobRequest verify = JobRequest.builder("e", "ns", "img", S3, JobWork.VERIFY)
                .backoffLimit(5)
                .serviceAccountName("sa")
                .output(new WorkerOutput("json", null))
                .build();
        JobRequest drill = verify.withWork(JobWork.DRILL);
        assertThat(drill)
                .isEqualTo(new JobRequest(
                        "e",
                        "ns",
                        "img",
                        S3,
                        JobWork.DRILL,
                        verify.resources(),
                        verify.defrag(),
                        verify.activeDeadline(),
                        5,
                        verify.ttlAfterFinished(),
                        null,
                        "sa",
                        verify.placement(),
                        verify.output()));
        assertThat(verify.toBuilder().build()).isEqualTo(verify);
    }

    @Test
    void everyMemberGetsAJobNamedAndLabelledAfterIt() {
        ClusterRestoreRequest cluster = ClusterRestoreRequest.of(
                JobRequest.builder("etcd-main", "ns", "img", S3, null),
                RestoreFlags.builder(null).initialClusterToken("tok"),
                PEERS,
                Map.of("m0", "c0", "m1", "c1"));

        List<Job> jobs =
                new JobFactory(Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC)).build(cluster);

        assertThat(jobs)
                .extracting(j -> j.getMetadata().getName())
                .containsExactly("etcd-main-restore-m0-20261129-220000", "etcd-main-restore-m1-20261129-220000");
        for (int i = 0; i < 2; i++) {
            Job job = jobs.get(i);
            assertThat(job.getMetadata().getLabels())
                    .containsEntry(JobNames.LABEL_MEMBER, "m" + i)
                    .containsEntry(JobNames.LABEL_INSTANCE, job.getMetadata().getName())
                    .containsAllEntriesOf(JobNames.targetSelector("etcd-main", WorkerKind.RESTORE));
            assertThat(job.getSpec().getTemplate().getMetadata().getLabels())
                    .containsEntry(JobNames.LABEL_MEMBER, "m" + i);
            assertThat(job.getSpec()
                            .getTemplate()
                            .getSpec()
                            .getContainers()
                            .get(0)
                            .getArgs())
                    .contains(
                            "--name=m" + i,
                            "--initial-cluster=" + PEERS,
                            "--initial-cluster-token=tok",
                            "--initial-advertise-peer-urls=https://m" + i + ".peer:2380");
            String claim = "c" + i;
            assertThat(job.getSpec().getTemplate().getSpec().getVolumes())
                    .anyMatch(v -> v.getPersistentVolumeClaim() != null
                            && v.getPersistentVolumeClaim().getClaimName().equals(claim));
        }
    }

    @Test
    void aClusterRestoreNamesEachMemberOnceWithItsClaim() {
        JobRequest.Builder common = JobRequest.builder("etcd-main", "ns", "img", S3, null);
        assertThatThrownBy(
                        () -> ClusterRestoreRequest.of(common, RestoreFlags.builder(null), PEERS, Map.of("m0", "c0")))
                .hasMessage("--member-claims must name exactly the members of --initial-cluster [m0, m1], got [m0]");
        assertThatThrownBy(() ->
                        ClusterRestoreRequest.of(common, RestoreFlags.builder(null), "m0=a,m0=b", Map.of("m0", "c0")))
                .hasMessage("--initial-cluster names m0 twice");
        assertThatThrownBy(() -> ClusterRestoreRequest.of(common, RestoreFlags.builder(null), "m0", Map.of("m0", "c0")))
                .hasMessageContaining("NAME=PEER_URL");
        JobRequest unnamed = request(RestoreFlags.builder("c0").build());
        assertThatThrownBy(() -> new ClusterRestoreRequest(List.of(unnamed))).hasMessageContaining("--name");
        JobRequest m0 = request(RestoreFlags.builder("c0").name("m0").build());
        assertThatThrownBy(() -> new ClusterRestoreRequest(List.of(m0, m0))).hasMessage("member m0 is named twice");
        assertThatThrownBy(() -> new ClusterRestoreRequest(List.of(
                        m0,
                        JobRequest.builder(
                                        "other",
                                        "ns",
                                        "img",
                                        S3,
                                        RestoreFlags.builder("c1").name("m1").build())
                                .build())))
                .hasMessageContaining("one etcd");
    }

    private static JobRequest request(JobWork work) {
        return JobRequest.builder("e", "ns", "img", S3, work).build();
    }
}
