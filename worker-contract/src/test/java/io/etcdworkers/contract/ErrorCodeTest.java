package io.etcdworkers.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The exit codes are docs/reference.md's table, number for number: the table is the spec. */
class ErrorCodeTest {

    @Test
    void everyCodeIsTheReferenceTablesRowWithItsNumberAndRetryability() throws IOException {
        Map<String, String> documented = documentedRows();
        Map<String, String> actual = Arrays.stream(ErrorCode.values())
                .collect(Collectors.toMap(
                        ErrorCode::name,
                        c -> c.exitCode() + " " + (c.retryable() ? "yes" : "no"),
                        (a, b) -> a,
                        LinkedHashMap::new));

        assertThat(actual)
                .as("ErrorCode vs the exit-code table of docs/reference.md")
                .containsExactlyInAnyOrderEntriesOf(documented);
    }

    @Test
    void codesAreDistinctProcessExitCodesAndNeverZero() {
        List<Integer> codes =
                Arrays.stream(ErrorCode.values()).map(ErrorCode::exitCode).toList();
        assertThat(codes).doesNotHaveDuplicates().allSatisfy(c -> assertThat(c).isBetween(1, 125));
    }

    @Test
    void everyMeaningIsOneLine() {
        assertThat(ErrorCode.values())
                .allSatisfy(c -> assertThat(c.meaning()).isNotBlank().doesNotContain("\n"));
    }

    @Test
    void looksUpByExitCode() {
        assertThat(ErrorCode.of(23)).contains(ErrorCode.LEASE_NOT_RENEWED);
        assertThat(ErrorCode.of(0)).isEmpty();
        assertThat(ErrorCode.of(99)).isEmpty();
    }

    @Test
    void nonRetryableCodesAreAscendingAndOnlyTheNonRetryableOnes() {
        List<Integer> codes = ErrorCode.nonRetryableExitCodes();
        assertThat(codes)
                .isSorted()
                .allSatisfy(c ->
                        assertThat(ErrorCode.of(c).orElseThrow().retryable()).isFalse());
        assertThat(codes).hasSize((int)
                Arrays.stream(ErrorCode.values()).filter(c -> !c.retryable()).count());
    }

    /** Name -> "code yes|no" for every named row of the "## Exit codes" table (up to the launcher's). */
    private static Map<String, String> documentedRows() throws IOException {
        List<String> lines = Files.readAllLines(Path.of(System.getProperty("user.dir"), "..", "docs", "reference.md"));
        int start = lines.indexOf("## Exit codes");
        assertThat(start).as("section ## Exit codes in docs/reference.md").isNotNegative();
        Map<String, String> rows = new LinkedHashMap<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
            String[] cells = lines.get(i).split("\\|");
            if (cells.length > 3 && cells[2].strip().matches("`[A-Z_]+`")) {
                rows.put(cells[2].strip().replace("`", ""), cells[1].strip() + " " + cells[3].strip());
            }
        }
        assertThat(rows).as("rows of the exit-code table").isNotEmpty();
        return rows;
    }
}
