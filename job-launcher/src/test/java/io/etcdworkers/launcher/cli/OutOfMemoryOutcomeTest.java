package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.launcher.kube.JobOutcome;
import io.etcdworkers.launcher.kube.WorkerResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** What the launcher prints when the worker ran out of memory, by the kernel's kill or its own heap. */
class OutOfMemoryOutcomeTest {
    @Test
    void theAdviceIsTwiceTheLimitThatWasTooSmall() {
        assertThat(MemoryAdvice.forLimit("2Gi")).contains("--memory-limit=4096Mi", "twice 2Gi");
        assertThat(MemoryAdvice.forLimit("1500M")).contains("--memory-limit=2862Mi");
        assertThat(MemoryAdvice.forLimit(null)).contains("a larger --memory-limit");
    }

    @Test
    void anOomKillIsPrintedWithItsLimitAndTheSizeToRerunWith() {
        JobOutcome o = new JobOutcome(
                "ns",
                "etcd-main-restore-1",
                JobOutcome.State.FAILED,
                "PodFailurePolicy",
                null,
                WorkerResult.parse(""),
                137,
                JobOutcome.OOM_KILLED,
                "400Mi");

        String printed = print(o);

        assertThat(printed)
                .contains(
                        "killed by the kernel's OOM killer (OOMKilled)",
                        "memory limit of 400Mi",
                        "--memory-limit=800Mi",
                        "exit code: 35");
        assertThat(printed).doesNotContain("termination message is not a result JSON");
    }

    @Test
    void aHeapThatRanOutIsPrintedWithTheWorkersResult() {
        JobOutcome o = new JobOutcome(
                "ns",
                "etcd-main-restore-1",
                JobOutcome.State.FAILED,
                "PodFailurePolicy",
                null,
                WorkerResult.parse("{\"kind\":\"restore\",\"outcome\":\"failed\",\"exitCode\":35,"
                        + "\"error\":\"the Java heap (at most 100 MiB) ran out\"}"),
                35,
                "Error",
                "1Gi");

        String printed = print(o);

        assertThat(printed)
                .contains(
                        "its Java heap ran out (exit 35)", "--memory-limit=2048Mi", "at most 100 MiB", "exit code: 35");
    }

    private static String print(JobOutcome o) {
        StringWriter text = new StringWriter();
        OutcomePrinter.print(new PrintWriter(text), o);
        return text.toString();
    }
}
