package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.ProcessRun;
import io.etcdworkers.testsupport.ReferencePeer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/etcdbrctl, the image's entry point for etcd-druid's Jobs, run from the checkout on this
 * module's jar: {@code compact} goes to the compaction worker by exec (signals reach its JVM) and
 * finds a Local store under {@code $HOME} as etcdbrctl v0.41 does; anything else goes to the real
 * etcdbrctl binary, or is refused with exit 2 when there is none.
 */
@Timeout(120)
class EtcdbrctlEntryPointIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int EXIT_ON_SIGTERM = 128 + 15;

    @TempDir
    Path dir;

    @Test
    void compactIsTheWorkersJvmItselfAndTakesSigterm() throws Exception {
        Path out = dir.resolve("stdout");
        ProcessBuilder builder = new ProcessBuilder(script().toString(), "compact", "--version")
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(dir.resolve("stderr").toFile());
        builder.environment().clear();
        Map<String, String> env = env();
        // the JVM waits before main for a debugger that never comes: it lives until signalled
        env.put("JAVA_OPTS", "-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0");
        builder.environment().putAll(env);
        Process started = builder.start();
        try {
            Awaitility.await("the JVM up and waiting")
                    .atMost(TIMEOUT)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> Files.readString(out, StandardCharsets.UTF_8).contains("Listening for transport"));
            Path java = Path.of(System.getProperty("java.home"), "bin", "java").toRealPath();
            assertThat(started.info().command()).hasValue(java.toString());
            assertThat(started.descendants())
                    .as("processes below the script's pid")
                    .isEmpty();

            started.destroy(); // SIGTERM
            assertThat(started.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(started.exitValue()).isEqualTo(EXIT_ON_SIGTERM);
        } finally {
            started.descendants().forEach(ProcessHandle::destroyForcibly);
            started.destroyForcibly();
        }
    }

    @Test
    void compactFindsALocalContainerUnderHomeAsEtcdbrctlDoes() throws IOException {
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.createDirectories(home.resolve("local-bkt/etcd-main/v2"));
        Map<String, String> env = env();
        env.put("HOME", home.toString());
        List<String> druidArgs = List.of(
                "compact",
                "--storage-provider=Local",
                "--store-prefix=etcd-main",
                "--store-container=local-bkt",
                "--data-dir=" + dir.resolve("data/compaction.etcd"));

        ProcessRun underHome = run(druidArgs, env);
        // the empty v2/ under $HOME/local-bkt/etcd-main was listed: no full snapshot there
        assertThat(underHome.exitCode()).as(underHome.stderr()).isEqualTo(10);
        assertThat(underHome.stdout()).contains(home.resolve("local-bkt").toString());

        // the plain worker reads the container as a path, relative to the working dir: not there
        env.put("ETCD_WORKER_LOCAL_UNDER_HOME", "false");
        ProcessRun asPath = run(druidArgs, env);
        assertThat(asPath.exitCode()).as(asPath.stderr()).isNotEqualTo(10).isNotZero();
    }

    @Test
    void otherCommandsWithoutTheRealBinaryAreRefusedSayingHowToGetIt() {
        Map<String, String> env = env();
        env.put("ETCDBRCTL_BINARY", dir.resolve("no-etcdbrctl").toString());

        ProcessRun server = run(List.of("server", "--storage-provider=Local"), env);

        assertThat(server.exitCode()).isEqualTo(2);
        assertThat(server.stderr())
                .contains("no etcdbrctl binary at " + dir.resolve("no-etcdbrctl"))
                .contains("only compact and copy run without it")
                .contains("--target etcdbrctl --build-arg ETCDBRCTL_IMAGE=");
    }

    @Test
    void everythingElseReachesTheRealBinary() {
        Path etcdbrctl = ReferencePeer.V0_40_0.require();
        Map<String, String> env = env();
        env.put("ETCDBRCTL_BINARY", etcdbrctl.toString());

        ProcessRun version = run(List.of("--version"), env);

        assertThat(version.exitCode()).isZero();
        assertThat(version.stdout() + version.stderr()).contains("etcd-backup-restore Version: v0.40.0");
    }

    private ProcessRun run(List<String> args, Map<String, String> env) {
        List<String> command = new ArrayList<>(List.of(script().toString()));
        command.addAll(args);
        return ProcessRun.run(command, env, dir, dir, TIMEOUT);
    }

    private static Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv("PATH"));
        env.put("JAVA_HOME", System.getProperty("java.home"));
        return env;
    }

    /** bin/etcdbrctl of the checkout (Maven runs the tests in the module's dir). */
    private static Path script() {
        return Path.of("").toAbsolutePath().getParent().resolve("bin").resolve("etcdbrctl");
    }
}
