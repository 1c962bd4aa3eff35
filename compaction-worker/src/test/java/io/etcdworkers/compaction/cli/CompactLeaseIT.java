package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.compaction.lease.KubernetesClients;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.workercli.WorkerContext;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With lease renewal on, a compaction records its revision in the full-snapshot Lease (as
 * etcd-backup-restore does for etcd-druid), and never moves it backwards. The API server is
 * fabric8's mock server in CRUD mode.
 */
@Timeout(300)
@EnableKubernetesMockClient(crud = true)
class CompactLeaseIT {
    KubernetesClient client;

    @TempDir
    Path dir;

    private CommandRun compact(Path bucket, String... more) {
        KubernetesClients clients = new KubernetesClients() {
            @Override
            public KubernetesClient create() {
                return new KubernetesClientBuilder()
                        .withConfig(client.getConfiguration())
                        .build();
            }
        };
        return CommandRun.run(
                WorkerContext::new,
                (WorkerContext c, String[] a) ->
                        CompactionWorkerCommand.commandLineWith(c, clients).execute(a),
                Map.of("PATH", System.getenv("PATH")),
                dir,
                Stream.concat(
                                Stream.of(
                                        "compact",
                                        "--store-container",
                                        bucket.toString(),
                                        "--scratch-dir",
                                        dir.resolve("scratch").toString(),
                                        "--enable-snapshot-lease-renewal",
                                        "--full-snapshot-lease-name",
                                        "etcd-main-full-snap"),
                                Arrays.stream(more))
                        .toArray(String[]::new));
    }

    private void lease(String holder) {
        client.leases()
                .resource(new LeaseBuilder()
                        .withNewMetadata()
                        .withName("etcd-main-full-snap")
                        .endMetadata()
                        .withNewSpec()
                        .withHolderIdentity(holder)
                        .endSpec()
                        .build())
                .createOr(l -> l.update());
    }

    @Test
    void leaseMovesForwardToTheCompactedRevision() {
        lease("601");

        CommandRun run = compact(Fixtures.copyBucket("gzip", dir.resolve("bucket")));

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode lease = run.result().get("snapshotLease");
        assertThat(lease.get("updated").asBoolean()).isTrue();
        assertThat(lease.get("previousRevision").asLong()).isEqualTo(601);
        Lease stored = client.leases().withName("etcd-main-full-snap").get();
        assertThat(stored.getSpec().getHolderIdentity()).isEqualTo("3656");
        assertThat(stored.getSpec().getRenewTime()).isNotNull();
    }

    @Test
    void leaseAlreadyAheadIsLeftAlone() {
        lease("99999");

        CommandRun run = compact(Fixtures.copyBucket("zlib", dir.resolve("bucket")));

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("snapshotLease").get("updated").asBoolean()).isFalse();
        assertThat(client.leases()
                        .withName("etcd-main-full-snap")
                        .get()
                        .getSpec()
                        .getHolderIdentity())
                .isEqualTo("99999");
    }

    @Test
    void aMissingLeaseFailsTheUploadedCompactionWithExit23() {
        CommandRun run = compact(Fixtures.copyBucket("plain", dir.resolve("bucket")));

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(23);
        assertThat(run.result().get("outcome").asText()).isEqualTo("failed");
        assertThat(run.result().get("errorCode").asText()).isEqualTo("LEASE_NOT_RENEWED");
        assertThat(run.result().get("uploaded").get("name").asText()).contains("Full-00000000-00003656");
        assertThat(run.result().get("error").asText()).contains("was uploaded").contains("does not exist");
        assertThat(run.result().get("snapshotLease").get("error").asText()).contains("does not exist");
    }

    @Test
    void aMissingLeaseWithBestEffortIsReportedWithoutFailingTheUploadedCompaction() {
        CommandRun run = compact(Fixtures.copyBucket("plain", dir.resolve("bucket")), "--lease-renewal=best-effort");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("uploaded").get("name").asText()).contains("Full-00000000-00003656");
        assertThat(run.result().get("snapshotLease").get("error").asText()).contains("does not exist");
    }
}
