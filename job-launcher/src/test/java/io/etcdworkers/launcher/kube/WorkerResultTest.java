package io.etcdworkers.launcher.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.ErrorCode;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The worker's result as the launcher reads it from the pod's termination message: a JSON
 * object (possibly one the worker shortened to fit, marked {@code truncated}), or anything else
 * the kubelet hands over (a message it cut at its limit, the log's tail with
 * {@code FallbackToLogsOnError}, nothing), which is kept as raw text and never mistaken for a result.
 */
class WorkerResultTest {
    private static final String FAILED = "{\"kind\":\"restore\",\"outcome\":\"failed\",\"exitCode\":12,"
            + "\"errorCode\":\"HASH_MISMATCH\",\"retryable\":false,"
            + "\"error\":\"v2/Incr-00001173-00001750-1795986609: SHA-256 mismatch\",\"durationSeconds\":3.2}";

    @Test
    void aFailedResultGivesItsFieldsAndItsExitCodesMeaning() {
        WorkerResult result = WorkerResult.parse(FAILED + "\n");

        assertThat(result.json()).isTrue();
        assertThat(result.raw()).isEqualTo(FAILED + "\n");
        assertThat(result.kind()).isEqualTo("restore");
        assertThat(result.outcome()).isEqualTo("failed");
        assertThat(result.exitCode()).isEqualTo(12);
        assertThat(result.error()).isEqualTo("v2/Incr-00001173-00001750-1795986609: SHA-256 mismatch");
        assertThat(result.exitCodeMeaning()).contains(ErrorCode.HASH_MISMATCH.meaning());
        assertThat(result.summary())
                .containsExactly(
                        Map.entry("kind", "restore"),
                        Map.entry("outcome", "failed"),
                        Map.entry("exitCode", 12),
                        Map.entry("error", "v2/Incr-00001173-00001750-1795986609: SHA-256 mismatch"));
    }

    @Test
    void aSucceededResultTheWorkerShortenedStillParses() {
        WorkerResult result = WorkerResult.parse("{\"kind\":\"compact\",\"outcome\":\"succeeded\",\"exitCode\":0,"
                + "\"finalRevision\":3656,\"truncated\":true}");

        assertThat(result.json()).isTrue();
        assertThat(result.outcome()).isEqualTo("succeeded");
        assertThat(result.exitCode()).isZero();
        assertThat(result.exitCodeMeaning()).contains("done, or nothing to do");
        assertThat(result.error()).isNull();
        assertThat(result.summary()).containsOnlyKeys("kind", "outcome", "exitCode");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 60, 150})
    void aMessageCutShortIsRawTextNotAResult(int cutOff) {
        String cut = FAILED.substring(0, FAILED.length() - cutOff);

        WorkerResult result = WorkerResult.parse(cut);

        assertThat(result.json()).isFalse();
        assertThat(result.raw()).isEqualTo(cut);
        assertThat(result.kind()).isNull();
        assertThat(result.outcome()).isNull();
        assertThat(result.exitCode()).isNull();
        assertThat(result.exitCodeMeaning()).isEmpty();
        assertThat(result.summary()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "2026-12-01T13:32:47.817Z ERROR RestoreCommand - failed code=ETCD_FAILURE exitCode=30: etcd exited",
                "[{\"outcome\":\"failed\"}]",
                "\"failed\"",
                "30",
                "null",
                "{\"outcome\":\"failed\"} and then a log line"
            })
    void whatIsNotOneJsonObjectIsRawTextNotAResult(String message) {
        WorkerResult result = WorkerResult.parse(message);

        assertThat(result.json()).isFalse();
        assertThat(result.raw()).isEqualTo(message);
        assertThat(result.outcome()).isNull();
        assertThat(result.exitCode()).isNull();
    }

    @Test
    void noMessageIsAnEmptyRawText() {
        assertThat(WorkerResult.parse(null)).isEqualTo(new WorkerResult("", null, null, null, null, false));
        assertThat(WorkerResult.parse("  \n")).isEqualTo(new WorkerResult("  \n", null, null, null, null, false));
    }

    @Test
    void missingFieldsAreNullAndUnknownOnesIgnored() {
        WorkerResult result = WorkerResult.parse("{\"kind\":\"restore\",\"somethingNew\":[1,2]}");

        assertThat(result.json()).isTrue();
        assertThat(result.kind()).isEqualTo("restore");
        assertThat(result.outcome()).isNull();
        assertThat(result.exitCode()).isNull();
        assertThat(result.error()).isNull();
        assertThat(result.exitCodeMeaning()).isEmpty();
        assertThat(result.summary()).containsOnlyKeys("kind");
    }

    @Test
    void fieldsOfTheWrongTypeAreNotTakenForWhatTheyAreNot() {
        WorkerResult result = WorkerResult.parse(
                "{\"kind\":null,\"outcome\":7,\"exitCode\":\"12\"," + "\"error\":{\"message\":\"boom\"}}");

        assertThat(result.json()).isTrue();
        assertThat(result.kind()).isNull();
        assertThat(result.outcome()).isEqualTo("7");
        assertThat(result.exitCode()).as("a string is not an exit code").isNull();
        assertThat(result.error()).as("a structured error is kept as its JSON").isEqualTo("{\"message\":\"boom\"}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"99999999999", "-1"})
    void anExitCodeNoWorkerHasIsNotAKnownOne(String code) {
        WorkerResult result = WorkerResult.parse("{\"outcome\":\"failed\",\"exitCode\":" + code + "}");

        assertThat(result.exitCodeMeaning()).isEmpty();
    }
}
