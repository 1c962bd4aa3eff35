package io.etcdworkers.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.WorkerCommands;
import io.etcdworkers.workercli.WorkerContext;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** The command line built for the subcommand a start names is that subcommand as the full one has it. */
class RestoreWorkerCommandTest {
    @TempDir
    Path dir;

    private WorkerContext context() {
        return new WorkerContext(
                Map.of(),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()),
                Clock.systemUTC(),
                dir,
                dir.resolve("none"));
    }

    @ParameterizedTest
    @ValueSource(strings = {RestoreWorkerCommand.VERIFY_BACKUP, WorkerCommands.RESTORE, WorkerCommands.EXTRACT})
    void aNamedSubcommandIsBuiltAloneAndReadsAsInTheFullCommandLine(String name) {
        CommandLine full = RestoreWorkerCommand.commandLine(context());
        CommandLine alone = RestoreWorkerCommand.commandLine(context(), name);

        assertThat(alone.getSubcommands()).containsOnlyKeys(name);
        assertThat(usage(alone.getSubcommands().get(name)))
                .isEqualTo(usage(full.getSubcommands().get(name)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "unknown", "RESTORE", ""})
    void anythingElseGetsEverySubcommand(String first) {
        assertThat(RestoreWorkerCommand.commandLine(context(), first).getSubcommands())
                .containsOnlyKeys(RestoreWorkerCommand.VERIFY_BACKUP, WorkerCommands.RESTORE, WorkerCommands.EXTRACT);
        assertThat(RestoreWorkerCommand.commandLine(context(), null).getSubcommands())
                .hasSize(3);
    }

    private static String usage(CommandLine command) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        command.usage(new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
