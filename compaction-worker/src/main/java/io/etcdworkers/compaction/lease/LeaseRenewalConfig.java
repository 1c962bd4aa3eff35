package io.etcdworkers.compaction.lease;

import java.util.Objects;
import java.util.Optional;

/**
 * {@code --enable-snapshot-lease-renewal}: after the upload, record the new revision in this
 * full-snapshot Lease, in the pod's namespace.
 *
 * @param leaseName the Lease ({@code --full-snapshot-lease-name})
 * @param policy whether a failed renewal fails the run ({@code --lease-renewal})
 * @param namespace the Lease's namespace ({@code POD_NAMESPACE}), or empty for the Kubernetes client's
 */
public record LeaseRenewalConfig(String leaseName, LeaseRenewal.Policy policy, Optional<String> namespace) {
    public LeaseRenewalConfig {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(namespace, "namespace");
        if (leaseName == null || leaseName.isBlank()) {
            throw new IllegalArgumentException("--enable-snapshot-lease-renewal needs --full-snapshot-lease-name");
        }
    }
}
