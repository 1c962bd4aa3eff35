package io.etcdworkers.workercli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one result JSON of a run: whole on stdout and in {@code --result-file}; as the pod's
 * termination message, within what Kubernetes keeps (4096 bytes; the launcher parses it, so a
 * cut-off message would lose the outcome), made to fit by dropping the fields named droppable,
 * in their order and no more than needed, then by cutting the error.
 */
class ResultReporterTest {
    /** What the kubelet keeps of a termination message. */
    private static final int KUBERNETES_LIMIT = 4096;

    private static final List<String> RESTORE_DROPPABLE = List.of("phaseSeconds", "metaSha256", "kvSha256");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aResultThatFitsIsWrittenWholeToStdoutTheResultFileAndTheTerminationLog() throws Exception {
        ObjectNode result = succeeded();
        result.putObject("phaseSeconds").put("download", 1.5).put("replay", 12.25);
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        Path resultFile = dir.resolve("result.json");
        Path terminationLog = Files.createFile(dir.resolve("termination-log"));

        new ResultReporter(
                        new PrintStream(stdout, true, StandardCharsets.UTF_8), Optional.of(resultFile), terminationLog)
                .publish(result, RESTORE_DROPPABLE);

        assertThat(stdout.toString(StandardCharsets.UTF_8)).isEqualTo(result + System.lineSeparator());
        assertThat(Files.readString(resultFile)).isEqualTo(result + "\n");
        assertThat(Files.readString(terminationLog)).isEqualTo(result + "\n");
        assertThat(JSON.readTree(Files.readString(terminationLog)).has("truncated"))
                .isFalse();
    }

    @Test
    void withoutATerminationLogNothingIsCreatedThere() {
        Path absent = dir.resolve("no-such-dir/termination-log");

        new ResultReporter(
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        Optional.empty(),
                        absent)
                .publish(succeeded(), RESTORE_DROPPABLE);

        assertThat(absent).doesNotExist();
    }

    @Test
    void aLargeResultIsWholeOnStdoutAndInTheResultFileAndFittedOnlyInTheTerminationLog() throws Exception {
        ObjectNode result = succeeded();
        result.put("phaseSeconds", "p".repeat(5000));
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        Path resultFile = dir.resolve("result.json");
        Path terminationLog = Files.createFile(dir.resolve("termination-log"));

        new ResultReporter(
                        new PrintStream(stdout, true, StandardCharsets.UTF_8), Optional.of(resultFile), terminationLog)
                .publish(result, RESTORE_DROPPABLE);

        assertThat(JSON.readTree(stdout.toString(StandardCharsets.UTF_8))).isEqualTo(result);
        assertThat(JSON.readTree(Files.readString(resultFile))).isEqualTo(result);
        JsonNode message = JSON.readTree(Files.readString(terminationLog));
        assertThat(message.has("phaseSeconds")).isFalse();
        assertThat(message.get("truncated").asBoolean()).isTrue();
        assertThat(message.get("kvSha256").asText())
                .isEqualTo(result.get("kvSha256").asText());
    }

    @Test
    void dropsTheFirstDroppableFieldOnlyWhenThatIsEnough() {
        ObjectNode result = succeeded();
        result.put("phaseSeconds", "p".repeat(2500));
        result.put("metaSha256", "m".repeat(2000));

        ObjectNode fitted = ResultReporter.fit(result, RESTORE_DROPPABLE);

        assertThat(fieldNames(fitted))
                .containsExactly("kind", "outcome", "exitCode", "metaSha256", "kvSha256", "keys", "truncated");
        assertThat(bytes(fitted)).isLessThanOrEqualTo(ResultReporter.TERMINATION_LIMIT);
        assertThat(result.has("phaseSeconds"))
                .as("the caller's result is not changed")
                .isTrue();
    }

    @Test
    void dropsTheDroppableFieldsInTheirOrderUntilItFits() {
        ObjectNode result = succeeded();
        result.put("phaseSeconds", "p".repeat(1000));
        result.put("metaSha256", "m".repeat(2000));
        result.put("kvSha256", "k".repeat(2000));

        ObjectNode fitted = ResultReporter.fit(result, RESTORE_DROPPABLE);

        // without phaseSeconds still ~4,100 bytes: metaSha256 goes too, the last one stays
        assertThat(fitted.has("phaseSeconds")).isFalse();
        assertThat(fitted.has("metaSha256")).isFalse();
        assertThat(fitted.get("kvSha256").asText()).isEqualTo("k".repeat(2000));
        assertThat(fitted.get("truncated").asBoolean()).isTrue();
        assertThat(bytes(fitted)).isLessThanOrEqualTo(ResultReporter.TERMINATION_LIMIT);
    }

    @Test
    void theOrderIsTheCallersNotTheResults() {
        ObjectNode result = succeeded();
        result.put("phaseSeconds", "p".repeat(2500));
        result.put("metaSha256", "m".repeat(2500));

        ObjectNode fitted = ResultReporter.fit(result, List.of("metaSha256", "phaseSeconds"));

        assertThat(fitted.has("metaSha256")).isFalse();
        assertThat(fitted.get("phaseSeconds").asText()).hasSize(2500);
    }

    @Test
    void neverDropsAFieldNotNamedDroppableAndSkipsDroppableOnesThatAreAbsent() {
        ObjectNode result = failed("x".repeat(100));
        result.put("engineFallback", "f".repeat(1000));
        result.put("problems", "p".repeat(3500));

        ObjectNode fitted = ResultReporter.fit(result, List.of("skippedKeys", "problems"));

        assertThat(fieldNames(fitted))
                .containsExactly(
                        "kind",
                        "outcome",
                        "exitCode",
                        "errorCode",
                        "retryable",
                        "error",
                        "engineFallback",
                        "truncated");
        assertThat(fitted.get("error").asText()).isEqualTo("x".repeat(100));
    }

    @Test
    void aResultThatFitsIsNotMarkedTruncatedEvenWhenItHasDroppableFields() {
        ObjectNode result = succeeded();
        result.put("phaseSeconds", "p".repeat(3000));

        ObjectNode fitted = ResultReporter.fit(result, RESTORE_DROPPABLE);

        assertThat(fitted).isEqualTo(result);
        assertThat(fitted.has("truncated")).isFalse();
    }

    @Test
    void aLongErrorIsCutWhenDroppingIsNotEnoughKeepingItsStart() {
        String error = "etcd exited with code 1 while starting on /var/lib/etcd: " + "z".repeat(20_000);
        ObjectNode result = failed(error);
        result.put("phaseSeconds", "p".repeat(500));

        ObjectNode fitted = ResultReporter.fit(result, RESTORE_DROPPABLE);

        assertThat(fitted.has("phaseSeconds")).isFalse();
        assertThat(fitted.get("error").asText())
                .startsWith(error.substring(0, 1000))
                .endsWith("...");
        assertThat(fitted.get("exitCode").asInt()).isEqualTo(30);
        assertThat(fitted.get("truncated").asBoolean()).isTrue();
        assertThat(bytes(fitted)).isLessThanOrEqualTo(ResultReporter.TERMINATION_LIMIT);
    }

    /**
     * The limit is in bytes: an error of characters that take 2 to 4 bytes in UTF-8 (a store
     * prefix, an object key or a server's message need not be ASCII), or that JSON escapes
     * (etcd's log lines are JSON: every quote doubles), must be cut to bytes that fit.
     */
    @ParameterizedTest
    @ValueSource(strings = {"é", "数", "😀", "\"", "\u0001"})
    void anErrorOfWideCharactersIsCutToFitInBytes(String character) throws Exception {
        ObjectNode result = failed("x" + character.repeat(5000));

        ObjectNode fitted = ResultReporter.fit(result, RESTORE_DROPPABLE);

        assertThat(bytes(fitted)).isLessThanOrEqualTo(KUBERNETES_LIMIT);
        assertThat(fitted.get("truncated").asBoolean()).isTrue();
        assertThat(fitted.get("error").asText())
                .startsWith("x" + character.repeat(10))
                .endsWith("...");
    }

    /** A cut must not split a surrogate pair: the termination log is written as UTF-8, which has no half characters. */
    @Test
    void theTerminationLogOfACutErrorIsValidJson() throws Exception {
        ObjectNode result = failed("x" + "😀".repeat(3000));
        Path terminationLog = Files.createFile(dir.resolve("termination-log"));

        new ResultReporter(
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        Optional.empty(),
                        terminationLog)
                .publish(result, RESTORE_DROPPABLE);

        String written = Files.readString(terminationLog);
        assertThat(written.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(KUBERNETES_LIMIT);
        JsonNode message = JSON.readTree(written);
        assertThat(message.get("outcome").asText()).isEqualTo("failed");
        assertThat(message.get("error").asText()).startsWith("x😀😀").endsWith("😀...");
    }

    private static ObjectNode succeeded() {
        ObjectNode result = ResultReporter.newResult();
        result.put("kind", "restore");
        result.put("outcome", "succeeded");
        result.put("exitCode", 0);
        result.put("metaSha256", "e8cf56954a6cf0f53a002227a205b80d8a8550e922273e8fd9cf8cd09ea74425");
        result.put("kvSha256", "367170fb06ade03f7cb9112b4f3b4e493bc6ec9fe50f8db08a4325530303bdf2");
        result.put("keys", 1364);
        return result;
    }

    private static ObjectNode failed(String error) {
        ObjectNode result = ResultReporter.newResult();
        result.put("kind", "restore");
        result.put("outcome", "failed");
        result.put("exitCode", 30);
        result.put("errorCode", "ETCD_FAILURE");
        result.put("retryable", false);
        result.put("error", error);
        return result;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static int bytes(JsonNode node) {
        return node.toString().getBytes(StandardCharsets.UTF_8).length;
    }
}
