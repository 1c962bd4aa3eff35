package io.etcdworkers.compaction.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.compaction.cli.CompactionWorkerCommand;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.workercli.WorkerContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * docs/reference.md and the workers' {@code --help} never drift apart: every flag documented in
 * a command's section exists, and every flag the command has is documented there.
 */
class ReferenceDocTest {
    private static final Pattern FLAG = Pattern.compile("--[a-z][a-z0-9-]*");
    private static final Set<String> STANDARD = Set.of("--help", "--version");

    static Stream<Arguments> commands() {
        WorkerContext context = new WorkerContext(
                Map.of(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                Clock.systemUTC(),
                Path.of("."),
                Path.of("no-termination-log"));
        CommandLine restore = RestoreWorkerCommand.commandLine(context);
        CommandLine compact = CompactionWorkerCommand.commandLine(context);
        return Stream.of(
                Arguments.of("restore-worker restore", restore.getSubcommands().get("restore")),
                Arguments.of(
                        "restore-worker verify-backup", restore.getSubcommands().get("verify-backup")),
                Arguments.of("restore-worker extract", restore.getSubcommands().get("extract")),
                Arguments.of(
                        "compaction-worker compact", compact.getSubcommands().get("compact")),
                Arguments.of("compaction-worker copy", compact.getSubcommands().get("copy")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void everyFlagIsDocumentedAndEveryDocumentedFlagExists(String section, CommandLine command) throws IOException {
        Set<String> documented = documentedFlags(section);
        Set<String> actual = new TreeSet<>();
        for (OptionSpec option : command.getCommandSpec().options()) {
            for (String name : option.names()) {
                if (name.startsWith("--") && !STANDARD.contains(name)) {
                    actual.add(name);
                    if (option.negatable()) {
                        actual.add("--no-" + name.substring(2));
                    }
                }
            }
        }

        assertThat(documented)
                .as("flags in docs/reference.md section '%s' vs --help", section)
                .containsExactlyInAnyOrderElementsOf(actual);
    }

    /** Flags in the first column of the section's table and in its prose (not in descriptions). */
    private static Set<String> documentedFlags(String section) throws IOException {
        List<String> lines = Files.readAllLines(Path.of(System.getProperty("user.dir"), "..", "docs", "reference.md"));
        int start = lines.indexOf("### " + section);
        assertThat(start).as("section ### %s in docs/reference.md", section).isNotNegative();
        Set<String> flags = new TreeSet<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
            String line = lines.get(i);
            String text = line.startsWith("|") ? firstCell(line) : line;
            Matcher m = FLAG.matcher(text);
            while (m.find()) {
                flags.add(m.group());
            }
        }
        return flags;
    }

    private static String firstCell(String row) {
        String[] cells = row.split("\\|");
        return cells.length > 1 ? cells[1] : "";
    }
}
