package io.etcdworkers.integration;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * docs/reliability.md's table names, for every case, the tests that keep it true: each named test
 * class exists in a module's test tree, and each named method in it (or in a type it extends or
 * implements). A row in the "## What was tried" table has four cells (kind, tried, how it ends,
 * test), and its test cell names at least one test as {@code `Class#method`} or {@code `Class`};
 * other backticked words there (a flag, a main class named as a note) are text.
 */
@Timeout(60)
class ReliabilityTableTest {
    /** {@code `FooIT#bar`} or {@code `FooTest`}: a test reference. */
    private static final Pattern TEST = Pattern.compile("`([A-Z][A-Za-z0-9]*(?:Test|IT))(?:#([a-zA-Z0-9_]+))?`");
    /** A backticked word that looks like a class or Class#method but is not a test's. */
    private static final Pattern CLASS_LIKE = Pattern.compile("`([A-Z][A-Za-z0-9]*)(?:[#.]([a-zA-Z0-9_.]+))?`");

    private static final Pattern SUPERTYPES = Pattern.compile("(?:extends|implements)\\s+([A-Z][A-Za-z0-9, ]*)");

    private static Map<String, List<Path>> sources;

    @BeforeAll
    static void indexTheSourceTree() throws IOException {
        sources = new HashMap<>();
        try (Stream<Path> files = Files.walk(root())) {
            files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> p.toString().contains("/src/"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .forEach(p -> sources.computeIfAbsent(
                                    p.getFileName().toString().replace(".java", ""), k -> new ArrayList<>())
                            .add(p));
        }
    }

    @Test
    void everyRowNamesTestsThatExist() throws IOException {
        List<String[]> rows = rows();
        assertThat(rows).as("rows of the table under ## What was tried").hasSizeGreaterThan(50);
        List<String> problems = new ArrayList<>();
        for (String[] row : rows) {
            String where = row.length > 1 ? row[0].strip() + " | " + abbreviate(row[1]) : abbreviate(row[0]);
            if (row.length != 4) {
                problems.add(where + ": " + row.length + " cells, not 4 (kind, tried, how it ends, test)");
                continue;
            }
            String tests = row[3];
            Matcher m = TEST.matcher(tests);
            int named = 0;
            while (m.find()) {
                named++;
                String missing = missing(m.group(1), m.group(2));
                if (missing != null) {
                    problems.add(where + ": " + missing);
                }
            }
            if (named == 0) {
                problems.add(where + ": names no test (`Class#method` or `Class`)");
            }
            Matcher other = CLASS_LIKE.matcher(tests);
            while (other.find()) {
                if (other.group(2) != null && !TEST.matcher(other.group()).matches()) {
                    problems.add(
                            where + ": " + other.group() + " is not a test reference (`Class#method`, a test class)");
                }
            }
        }
        assertThat(problems).as("docs/reliability.md").isEmpty();
    }

    @Test
    void aMissingTestOrMethodIsFound() {
        assertThat(missing("ReliabilityTableTest", "everyRowNamesTestsThatExist"))
                .isNull();
        assertThat(missing("ReliabilityTableTest", "noSuchMethod")).contains("no method noSuchMethod");
        assertThat(missing("NoSuchClassIT", null)).contains("no test class NoSuchClassIT");
        // a method a test class inherits from the interface it implements
        assertThat(missing("StartScriptIT", "theWorkersJvmWritesNoPerfDataFile"))
                .isNull();
    }

    /** Why {@code cls#method} does not exist, or null when it does. */
    private static String missing(String cls, String method) {
        List<Path> files = sources.getOrDefault(cls, List.of()).stream()
                .filter(p -> p.toString().contains("/src/test/java/"))
                .toList();
        if (files.isEmpty()) {
            return "no test class " + cls + " in any module's src/test/java";
        }
        if (method == null) {
            return null;
        }
        for (Path file : files) {
            if (declares(file, method, 2)) {
                return null;
            }
        }
        return "no method " + method + " in " + cls;
    }

    /** Whether the source declares the method, itself or in a type it extends or implements (to {@code depth}). */
    private static boolean declares(Path file, String method, int depth) {
        String source = read(file);
        if (Pattern.compile("\\b" + Pattern.quote(method) + "\\s*\\(")
                .matcher(source)
                .find()) {
            return true;
        }
        if (depth == 0) {
            return false;
        }
        Matcher m = SUPERTYPES.matcher(source);
        while (m.find()) {
            for (String type : m.group(1).split(",")) {
                for (Path parent : sources.getOrDefault(type.strip(), List.of())) {
                    if (declares(parent, method, depth - 1)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The cells of each row of the table under "## What was tried" (bars inside backticks are text). */
    private static List<String[]> rows() throws IOException {
        List<String> lines = Files.readAllLines(root().resolve("docs/reliability.md"));
        int start = lines.indexOf("## What was tried");
        assertThat(start).as("## What was tried in docs/reliability.md").isNotNegative();
        int i = start + 1;
        while (i < lines.size() && !lines.get(i).startsWith("|")) {
            i++;
        }
        List<String[]> rows = new ArrayList<>();
        for (i += 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            rows.add(cells(lines.get(i)));
        }
        return rows;
    }

    private static String[] cells(String row) {
        String inner = row.strip();
        inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean code = false;
        for (char c : inner.toCharArray()) {
            if (c == '`') {
                code = !code;
            }
            if (c == '|' && !code) {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString());
        return cells.toArray(String[]::new);
    }

    private static String abbreviate(String text) {
        String s = text.strip();
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path root() {
        return Path.of(System.getProperty("user.dir")).getParent();
    }
}
