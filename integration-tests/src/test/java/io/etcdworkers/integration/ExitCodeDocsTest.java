package io.etcdworkers.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.launcher.kube.LauncherError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every list of exit codes in the user docs (README.md and docs/*.md) is the enums' list: the workers'
 * {@link ErrorCode} or, where a list has the launcher's own codes, {@link LauncherError}. Found, not
 * named: every Markdown table whose first column is "code" or "exit code", every "non-retryable
 * codes (...)" list, and the prose lists of the README and of launcher.md. A code the enum gains and a
 * doc lacks, a code a doc names and the enum lacks, a name or a "retry helps" cell that disagrees:
 * each fails, naming the file and the list.
 */
@Timeout(60)
class ExitCodeDocsTest {

    private static final Pattern NON_RETRYABLE = Pattern.compile(
            "(?:non-retryable (?:exit )?codes|codes whose retry does not help) \\(([0-9 ,-]+)[:)]([^.]*)");
    private static final Pattern README_LIST =
            Pattern.compile("exits with a code that says what happened \\(([^)]*)\\)");
    private static final Pattern LAUNCHER_LIST = Pattern.compile("Launcher codes: (.*?)\\(\\[");
    private static final Pattern LEADING_CODES = Pattern.compile("^\\s*([0-9]+(?:\\s*[-,]\\s*[0-9]+)*)");

    @Test
    void everyExitCodeTableIsTheEnumsWithItsNamesAndRetryability() throws IOException {
        List<String> checked = new ArrayList<>();
        for (Path doc : docs()) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                if (!isCodeTableHeader(lines.get(i))) {
                    continue;
                }
                List<String[]> rows = new ArrayList<>();
                String[] header = cells(lines.get(i));
                for (int j = i + 2; j < lines.size() && lines.get(j).startsWith("|"); j++) {
                    rows.add(cells(lines.get(j)));
                }
                String where = doc.getFileName() + " line " + (i + 1);
                checkTable(where, header, rows);
                checked.add(where);
            }
        }
        assertThat(checked)
                .as("exit-code tables found (reference.md's two, operations.md's)")
                .hasSizeGreaterThanOrEqualTo(3);
    }

    @Test
    void everyNonRetryableListIsTheEnumsAndNamesTheKernelsOomKill() throws IOException {
        List<String> checked = new ArrayList<>();
        for (Path doc : docs()) {
            for (String paragraph : paragraphs(doc)) {
                Matcher m = NON_RETRYABLE.matcher(paragraph);
                while (m.find()) {
                    String where = doc.getFileName() + ": " + m.group();
                    assertThat(codes(m.group(1)))
                            .as("non-retryable codes in %s", where)
                            .containsExactlyElementsOf(ErrorCode.nonRetryableExitCodes());
                    assertThat(paragraph.substring(m.end(1)))
                            .as("%s names 137, the kernel's OOM kill the Job also fails on", where)
                            .contains("137");
                    checked.add(where);
                }
            }
        }
        assertThat(checked)
                .as("non-retryable lists found (launcher.md's, operations.md's)")
                .hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void theReadmesListNamesEveryWorkerCode() throws IOException {
        String readme = String.join(" ", paragraphs(repoRoot().resolve("README.md")));
        Matcher m = README_LIST.matcher(readme);
        assertThat(m.find())
                .as("README.md: 'exits with a code that says what happened (...)'")
                .isTrue();
        Set<Integer> listed = new TreeSet<>();
        for (String item : m.group(1).split(",")) {
            listed.addAll(leadingCodes(item));
        }
        listed.remove(0);
        assertThat(listed).as("README.md's list of exit codes").containsExactlyElementsOf(workerCodes());
    }

    @Test
    void theLauncherDocsListNamesEveryLauncherCode() throws IOException {
        String launcher = String.join(" ", paragraphs(repoRoot().resolve("docs/launcher.md")));
        Matcher m = LAUNCHER_LIST.matcher(launcher);
        assertThat(m.find()).as("launcher.md: 'Launcher codes: ...'").isTrue();
        Set<Integer> listed = new TreeSet<>();
        for (String item : m.group(1).split(";")) {
            listed.addAll(leadingCodes(item));
        }
        assertThat(listed).as("launcher.md's list of launcher codes").containsExactlyElementsOf(launcherCodes());
    }

    @Test
    void aMissingRowAnExtraRowAndAWrongRetryCellAreEachFound() {
        String[] header = {"code", "name", "retry helps", "meaning"};
        List<String[]> rows = new ArrayList<>();
        for (ErrorCode c : ErrorCode.values()) {
            rows.add(new String[] {
                Integer.toString(c.exitCode()), "`" + c.name() + "`", c.retryable() ? "yes" : "no", c.meaning()
            });
        }
        checkTable("the enum's own table", header, rows);

        List<String[]> missing = new ArrayList<>(rows.subList(1, rows.size()));
        assertThatThrownBy(() -> checkTable("without 1", header, missing)).hasMessageContaining("[1]");
        List<String[]> extra = new ArrayList<>(rows);
        extra.add(new String[] {"16", "`NOT_A_CODE`", "no", "none"});
        assertThatThrownBy(() -> checkTable("with 16", header, extra)).hasMessageContaining("code 16 is no ErrorCode");
        List<String[]> wrongRetry = new ArrayList<>(rows);
        wrongRetry.set(0, new String[] {"1", "`UNEXPECTED`", "no", "a bug"});
        assertThatThrownBy(() -> checkTable("retry", header, wrongRetry)).hasMessageContaining("'retry helps' of 1");
    }

    private static void checkTable(String where, String[] header, List<String[]> rows) {
        int name = column(header, "name");
        int retry = column(header, "retry helps");
        Set<Integer> listed = new TreeSet<>();
        for (String[] row : rows) {
            List<Integer> rowCodes = codes(row[0]);
            listed.addAll(rowCodes);
            for (int code : rowCodes) {
                if (code == 0 || code >= 50) {
                    continue;
                }
                ErrorCode error = ErrorCode.of(code).orElse(null);
                assertThat(error).as("%s: code %d is no ErrorCode", where, code).isNotNull();
                if (name >= 0) {
                    assertThat(row[name].replace("`", "").strip())
                            .as("%s: name of %d", where, code)
                            .isEqualTo(error.name());
                }
                if (retry >= 0) {
                    assertThat(row[retry].strip())
                            .as("%s: 'retry helps' of %d (%s)", where, code, error.name())
                            .isEqualTo(error.retryable() ? "yes" : "no");
                }
            }
        }
        listed.remove(0);
        boolean launcherTable = listed.stream().anyMatch(c -> c >= 50);
        assertThat(listed)
                .as("%s: the codes of %s", where, launcherTable ? "LauncherError" : "ErrorCode")
                .containsExactlyElementsOf(launcherTable ? launcherCodes() : workerCodes());
    }

    private static Set<Integer> workerCodes() {
        return Arrays.stream(ErrorCode.values())
                .map(ErrorCode::exitCode)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<Integer> launcherCodes() {
        return Arrays.stream(LauncherError.values())
                .map(LauncherError::exitCode)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static boolean isCodeTableHeader(String line) {
        if (!line.startsWith("|")) {
            return false;
        }
        String first = cells(line)[0].strip().toLowerCase(Locale.ROOT);
        return first.equals("code") || first.equals("exit code");
    }

    private static int column(String[] header, String title) {
        for (int i = 0; i < header.length; i++) {
            if (header[i].strip().equalsIgnoreCase(title)) {
                return i;
            }
        }
        return -1;
    }

    /** The cells of a table row, without the empty ones before the first and after the last bar. */
    private static String[] cells(String row) {
        String inner = row.strip();
        inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
        return inner.split("\\|", -1);
    }

    /** "11, 12, 13, 14", "10-14", "2" -> the codes; a cell with no number (0's blank name) is none. */
    private static List<Integer> codes(String cell) {
        List<Integer> codes = new ArrayList<>();
        for (String part : cell.split(",")) {
            String p = part.strip();
            if (p.matches("[0-9]+-[0-9]+")) {
                String[] ends = p.split("-");
                for (int c = Integer.parseInt(ends[0]); c <= Integer.parseInt(ends[1]); c++) {
                    codes.add(c);
                }
            } else if (p.matches("[0-9]+")) {
                codes.add(Integer.parseInt(p));
            }
        }
        return codes;
    }

    /** "10-15 a damaged backup" -> 10..15; "2 bad flags" -> 2. */
    private static List<Integer> leadingCodes(String item) {
        Matcher m = LEADING_CODES.matcher(item);
        return m.find() ? codes(m.group(1)) : List.of();
    }

    /** A file's paragraphs, each on one line (a list that wraps is found whole). */
    private static List<String> paragraphs(Path doc) throws IOException {
        return Arrays.stream(Files.readString(doc).split("\\n\\s*\\n"))
                .map(p -> p.replaceAll("\\s*\\n\\s*", " "))
                .toList();
    }

    private static List<Path> docs() throws IOException {
        Path root = repoRoot();
        try (Stream<Path> files = Files.list(root.resolve("docs"))) {
            List<Path> docs = new ArrayList<>(
                    files.filter(p -> p.toString().endsWith(".md")).sorted().toList());
            docs.add(root.resolve("README.md"));
            return docs;
        }
    }

    private static Path repoRoot() {
        return Path.of(System.getProperty("user.dir")).getParent();
    }
}
