package io.etcdworkers.compaction.lease;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.contract.ErrorCode;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Lease update against fabric8's mock API server (CRUD mode; a second server in expectation mode
 * answers 403), and what each outcome makes of the compaction's result and exit code.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class SnapshotLeaseUpdaterTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC);
    private static final String LEASE = "etcd-main-full-snap";
    private static final String UPLOADED = "etcd-main/v2/Full-00000000-00003656-1764453600.gz";

    KubernetesClient client;

    private SnapshotLeaseUpdater.Result renew(KubernetesClient c, long revision) {
        return new SnapshotLeaseUpdater(c, "default", CLOCK).renew(LEASE, revision);
    }

    private static ObjectNode succeeded() {
        ObjectNode result = new ObjectMapper().createObjectNode();
        result.put("kind", "compact");
        result.put("outcome", "succeeded");
        result.put("exitCode", 0);
        return result;
    }

    @Test
    void aRenewedLeaseSucceeds() {
        client.leases()
                .inNamespace("default")
                .resource(new LeaseBuilder()
                        .withNewMetadata()
                        .withName(LEASE)
                        .endMetadata()
                        .withNewSpec()
                        .withHolderIdentity("601")
                        .endSpec()
                        .build())
                .create();
        SnapshotLeaseUpdater.Result renewed = renew(client, 3656);
        assertThat(renewed.updated()).isTrue();
        assertThat(client.leases()
                        .inNamespace("default")
                        .withName(LEASE)
                        .get()
                        .getSpec()
                        .getHolderIdentity())
                .isEqualTo("3656");

        ObjectNode result = succeeded();
        assertThat(LeaseRenewal.record(result, LEASE, renewed, LeaseRenewal.Policy.REQUIRED, UPLOADED))
                .isZero();
        assertThat(result.get("outcome").asText()).isEqualTo("succeeded");
        assertThat(result.get("snapshotLease").get("previousRevision").asLong()).isEqualTo(601);
    }

    @Test
    void aMissingLeaseFailsTheRunWithItsOwnCodeAndSaysTheSnapshotWasUploaded() {
        SnapshotLeaseUpdater.Result renewed = renew(client, 3656);
        assertThat(renewed.error())
                .hasValueSatisfying(e -> assertThat(e).contains("Lease default/" + LEASE + " does not exist"));

        ObjectNode result = succeeded();
        assertThat(LeaseRenewal.record(result, LEASE, renewed, LeaseRenewal.Policy.REQUIRED, UPLOADED))
                .isEqualTo(ErrorCode.LEASE_NOT_RENEWED.exitCode())
                .isEqualTo(23);
        assertThat(result.get("outcome").asText()).isEqualTo("failed");
        assertThat(result.get("exitCode").asInt()).isEqualTo(23);
        assertThat(result.get("errorCode").asText()).isEqualTo("LEASE_NOT_RENEWED");
        assertThat(result.get("retryable").asBoolean()).isFalse();
        assertThat(result.get("error").asText())
                .contains("the new full snapshot " + UPLOADED + " was uploaded")
                .contains("does not exist")
                .contains("--lease-renewal=best-effort");
        assertThat(result.get("snapshotLease").get("error").asText()).contains("does not exist");
    }

    @Test
    void bestEffortRecordsTheFailureAndSucceeds() {
        ObjectNode result = succeeded();
        assertThat(LeaseRenewal.record(result, LEASE, renew(client, 3656), LeaseRenewal.Policy.BEST_EFFORT, UPLOADED))
                .isZero();
        assertThat(result.get("outcome").asText()).isEqualTo("succeeded");
        assertThat(result.get("snapshotLease").get("updated").asBoolean()).isFalse();
        assertThat(result.get("snapshotLease").get("policy").asText()).isEqualTo("best-effort");
        assertThat(result.get("snapshotLease").get("error").asText()).contains("does not exist");
    }

    @Test
    void aForbiddenLeaseSaysWhichRightsAreMissingAndFailsTheRun() {
        KubernetesMockServer server = new KubernetesMockServer(false);
        server.init();
        try (KubernetesClient denied = server.createClient()) {
            server.expect()
                    .get()
                    .withPath("/apis/coordination.k8s.io/v1/namespaces/default/leases/" + LEASE)
                    .andReturn(
                            403,
                            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Forbidden\","
                                    + "\"code\":403,\"message\":\"leases.coordination.k8s.io \\\"" + LEASE
                                    + "\\\" is forbidden\"}")
                    .always();
            SnapshotLeaseUpdater.Result renewed = renew(denied, 3656);
            assertThat(renewed.updated()).isFalse();
            assertThat(renewed.error())
                    .hasValueSatisfying(e -> assertThat(e)
                            .contains("access to Lease default/" + LEASE + " is forbidden")
                            .contains("get and patch"));
            ObjectNode result = succeeded();
            assertThat(LeaseRenewal.record(result, LEASE, renewed, LeaseRenewal.Policy.REQUIRED, UPLOADED))
                    .isEqualTo(23);
            assertThat(result.get("error").asText()).contains("forbidden");
        } finally {
            server.destroy();
        }
    }

    @Test
    void thePolicyFlagValues() {
        assertThat(LeaseRenewal.Policy.parse("required")).isEqualTo(LeaseRenewal.Policy.REQUIRED);
        assertThat(LeaseRenewal.Policy.parse("Best-Effort")).isEqualTo(LeaseRenewal.Policy.BEST_EFFORT);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LeaseRenewal.Policy.parse("sometimes"))
                .hasMessageContaining("required or best-effort");
    }
}
