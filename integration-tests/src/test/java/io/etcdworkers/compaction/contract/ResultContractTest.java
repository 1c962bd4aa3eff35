package io.etcdworkers.compaction.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.compaction.lease.LeaseRenewal;
import io.etcdworkers.compaction.lease.SnapshotLeaseUpdater;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerCommands;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.launcher.job.WorkerKind;
import io.etcdworkers.launcher.kube.WorkerResult;
import io.etcdworkers.workercli.ResultJson;
import org.junit.jupiter.api.Test;

/** The result JSON the workers write is the one the launcher reads, failure by failure. */
class ResultContractTest {

    @Test
    void aFailedRestoreReadsAsItsCodeWithTheContractsMeaning() {
        ObjectNode result = ResultJson.start(WorkerCommands.RESTORE);
        ResultJson.failed(
                result,
                new WorkerException(io.etcdworkers.contract.ErrorCode.HASH_MISMATCH, "sha mismatch in v2/Incr-1-2.gz"));

        WorkerResult read = WorkerResult.parse(result.toString());
        assertThat(read.json()).isTrue();
        assertThat(read.kind()).isEqualTo(WorkerKind.RESTORE.subcommand());
        assertThat(read.outcome()).isEqualTo("failed");
        assertThat(read.exitCode()).isEqualTo(ErrorCode.HASH_MISMATCH.exitCode());
        assertThat(read.error()).isEqualTo("sha mismatch in v2/Incr-1-2.gz");
        assertThat(read.exitCodeMeaning()).contains(ErrorCode.HASH_MISMATCH.meaning());
    }

    @Test
    void aLeaseNotRenewedReadsAsTwentyThree() {
        ObjectNode result = ResultJson.start(WorkerCommands.COMPACT);
        ResultJson.succeeded(result);
        int exit = LeaseRenewal.record(
                result,
                "etcd-main-full-snap",
                SnapshotLeaseUpdater.Result.failed("leases.coordination.k8s.io is forbidden"),
                LeaseRenewal.Policy.REQUIRED,
                "v2/Full-00000000-00003656-1795986606.gz");

        WorkerResult read = WorkerResult.parse(result.toString());
        assertThat(read.kind()).isEqualTo(WorkerKind.COMPACT.subcommand());
        assertThat(read.outcome()).isEqualTo("failed");
        assertThat(read.exitCode()).isEqualTo(exit).isEqualTo(ErrorCode.LEASE_NOT_RENEWED.exitCode());
        assertThat(read.error()).contains("was not renewed").contains("forbidden");
        assertThat(read.exitCodeMeaning()).contains(ErrorCode.LEASE_NOT_RENEWED.meaning());
    }

    @Test
    void aSucceededRunReadsAsZero() {
        ObjectNode result = ResultJson.start(WorkerCommands.COMPACT);
        ResultJson.succeeded(result);

        WorkerResult read = WorkerResult.parse(result.toString());
        assertThat(read.outcome()).isEqualTo("succeeded");
        assertThat(read.exitCode()).isZero();
        assertThat(read.exitCodeMeaning()).isPresent();
    }
}
