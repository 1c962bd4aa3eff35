package io.etcdworkers.launcher.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.launcher.cli.CliContext;
import io.etcdworkers.launcher.cli.LauncherCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/launcher.md's flag table and the launcher's {@code --help} never drift apart: every flag
 * of every subcommand is in the table, and every flag in the table exists.
 */
class LauncherDocTest {
    private static final Pattern OPTION_LINE = Pattern.compile("^\\s+(?:-\\w, )?(--[a-z][a-z0-9-]*)");
    private static final Pattern FLAG = Pattern.compile("--[a-z][a-z0-9-]*");
    private static final List<String> COMMANDS =
            List.of("restore", "extract", "compact", "copy", "verify", "cronjob", "status", "cancel", "lease-role");

    @Test
    void flagTableMatchesEverySubcommandsHelp() throws IOException {
        Set<String> fromHelp = new TreeSet<>();
        for (String command : COMMANDS) {
            StringWriter out = new StringWriter();
            CliContext ctx = new CliContext(
                    Map.of(),
                    Clock.systemUTC(),
                    name -> {
                        throw new IllegalStateException("--help must not contact a cluster");
                    },
                    new PrintWriter(out, true),
                    new PrintWriter(new StringWriter(), true));
            assertThat(LauncherCli.execute(ctx, command, "--help")).isZero();
            for (String line : out.toString().split("\n")) {
                Matcher m = OPTION_LINE.matcher(line);
                if (m.find()) {
                    fromHelp.add(m.group(1));
                }
            }
        }
        fromHelp.removeAll(Set.of("--help", "--version"));

        assertThat(documented())
                .as("flags in docs/launcher.md '## Flags' vs the subcommands' --help")
                .containsExactlyInAnyOrderElementsOf(fromHelp);
    }

    private static Set<String> documented() throws IOException {
        List<String> lines = Files.readAllLines(Path.of(System.getProperty("user.dir"), "..", "docs", "launcher.md"));
        int start = lines.indexOf("## Flags");
        assertThat(start).as("## Flags in docs/launcher.md").isNotNegative();
        Set<String> flags = new TreeSet<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            if (lines.get(i).startsWith("|")) {
                Matcher m = FLAG.matcher(lines.get(i));
                while (m.find()) {
                    flags.add(m.group());
                }
            }
        }
        return flags;
    }
}
