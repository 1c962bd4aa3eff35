package io.etcdworkers.compaction.lease;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.ResultFields;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a compaction's result says about the full-snapshot Lease, and the exit code that follows.
 *
 * <p>The renewal comes after the upload, so when it fails the new full snapshot is in the store
 * all the same; but etcd-druid reads the Lease to know the latest full snapshot, and would go on
 * seeing the old one. So a failed renewal is a failed run ({@link ErrorCode#LEASE_NOT_RENEWED}, not
 * retryable: a rerun finds the new snapshot as its base, skips, and leaves the Lease as it is) unless
 * the caller chose {@link Policy#BEST_EFFORT}, and the result names the uploaded snapshot either way.
 */
public final class LeaseRenewal {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseRenewal.class);

    /** {@code --lease-renewal}: whether a failed renewal fails the run. */
    public enum Policy {
        /** A failed renewal fails the run with {@link ErrorCode#LEASE_NOT_RENEWED} (the default). */
        REQUIRED,
        /** A failed renewal is a warning in the result; the run succeeds. */
        BEST_EFFORT;

        /** {@code required} or {@code best-effort}. */
        public static Policy parse(String value) {
            for (Policy p : values()) {
                if (p.flagValue().equals(value.strip().toLowerCase(Locale.ROOT))) {
                    return p;
                }
            }
            throw new IllegalArgumentException("--lease-renewal must be required or best-effort: " + value);
        }

        public String flagValue() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private LeaseRenewal() {}

    /**
     * Writes {@code snapshotLease} into the succeeded result and returns the exit code: 0, or
     * that of {@link ErrorCode#LEASE_NOT_RENEWED} with the result turned into a failure that says the
     * snapshot was uploaded.
     */
    public static int record(
            ObjectNode result,
            String leaseName,
            SnapshotLeaseUpdater.Result renewed,
            Policy policy,
            String uploadedSnapshot) {
        ObjectNode lease = result.putObject("snapshotLease");
        lease.put("name", leaseName);
        lease.put("updated", renewed.updated());
        lease.put("previousRevision", renewed.previousRevision());
        if (renewed.error().isEmpty()) {
            return 0;
        }
        String error = renewed.error().get();
        lease.put("error", error);
        lease.put("policy", policy.flagValue());
        if (policy == Policy.BEST_EFFORT) {
            LOG.warn(
                    "snapshot lease not renewed, tolerated by --lease-renewal=best-effort lease={} uploaded={}: {}",
                    leaseName,
                    uploadedSnapshot,
                    error);
            return 0;
        }
        ErrorCode code = ErrorCode.LEASE_NOT_RENEWED;
        result.put(ResultFields.OUTCOME, ResultFields.FAILED);
        result.put(ResultFields.EXIT_CODE, code.exitCode());
        result.put(ResultFields.ERROR_CODE, code.name());
        result.put(ResultFields.RETRYABLE, code.retryable());
        result.put(
                ResultFields.ERROR,
                "the new full snapshot " + uploadedSnapshot + " was uploaded, but the "
                        + "full-snapshot Lease " + leaseName
                        + " was not renewed, so etcd-druid still sees the previous full snapshot: " + error
                        + " (fix it and renew by hand, or pass --lease-renewal=best-effort to tolerate it)");
        LOG.error("snapshot lease not renewed lease={} uploaded={}: {}", leaseName, uploadedSnapshot, error);
        return code.exitCode();
    }
}
