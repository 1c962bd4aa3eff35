package io.etcdworkers.launcher.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.ErrorCode;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Job fails at once on exactly the workers' non-retryable exit codes and on the kernel's OOM kill
 * (137: the same memory limit would be hit again), and on no other.
 */
class PodFailurePolicyTest {

    @Test
    void failJobOnExactlyTheContractsNonRetryableCodes() {
        List<Integer> nonRetryable = Arrays.stream(ErrorCode.values())
                .filter(c -> !c.retryable())
                .map(ErrorCode::exitCode)
                .toList();

        PodFailurePolicyRule failJob = rule("FailJob");
        assertThat(failJob.getOnExitCodes().getOperator()).isEqualTo("In");
        assertThat(failJob.getOnExitCodes().getContainerName()).isEqualTo(JobFactory.CONTAINER);
        // ascending, as the API server requires
        List<Integer> withOomKill = new ArrayList<>(nonRetryable);
        withOomKill.add(137);
        assertThat(failJob.getOnExitCodes().getValues())
                .isSorted()
                .containsExactlyInAnyOrderElementsOf(withOomKill)
                // docs/reference.md's "retry helps: no" rows; a retryability changed there must be changed here too
                .containsExactly(2, 10, 11, 12, 13, 14, 21, 23, 25, 31, 32, 35, 36, 137);
    }

    @Test
    void aRetryableFailureAndADisruptionLeaveTheRetryToTheBackoffLimit() {
        List<Integer> failJob = rule("FailJob").getOnExitCodes().getValues();
        assertThat(ErrorCode.values())
                .filteredOn(ErrorCode::retryable)
                .allSatisfy(c -> assertThat(failJob).doesNotContain(c.exitCode()));
        assertThat(failJob).doesNotContain(0);
        assertThat(rule("Ignore").getOnPodConditions())
                .singleElement()
                .satisfies(c -> assertThat(c.getType()).isEqualTo("DisruptionTarget"));
    }

    private static PodFailurePolicyRule rule(String action) {
        PodFailurePolicy policy = JobFactory.podFailurePolicy();
        return policy.getRules().stream()
                .filter(r -> r.getAction().equals(action))
                .findFirst()
                .orElseThrow();
    }
}
