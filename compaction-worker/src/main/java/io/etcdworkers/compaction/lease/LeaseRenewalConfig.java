package io.etcdworkers.compaction.lease;

import java.util.Objects;

/**
 * {@code --enable-snapshot-lease-renewal}: after the upload, record the new revision in this
 * full-snapshot Lease, in the pod's namespace.
 *
 * @param leaseName the Lease ({@code --full-snapshot-lease-name})
 * @param policy whether a failed renewal fails the run ({@code --lease-renewal})
 */
public record LeaseRenewalConfig(String leaseName, LeaseRenewal.Policy policy) {
    public LeaseRenewalConfig {
        Objects.requireNonNull(policy, "policy");
        if (leaseName == null || leaseName.isBlank()) {
            throw new IllegalArgumentException("--enable-snapshot-lease-renewal needs --full-snapshot-lease-name");
        }
    }
}
