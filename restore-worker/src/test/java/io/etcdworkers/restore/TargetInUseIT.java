package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.RunningEtcd;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A data dir a running etcd serves is never replaced, {@code --force} or not: etcd would go on
 * serving the deleted files and acknowledge writes that are then lost. The etcd here is a real
 * one (the one on PATH) started on the target by the test; the worker exits 36 naming its pid,
 * and the target, its siblings and the etcd are as they were.
 */
@Timeout(300)
class TargetInUseIT {
    @TempDir
    Path dir;

    private Path target;
    private RunningEtcd etcd;

    @BeforeEach
    void etcdRunningOnTheTarget() throws IOException {
        target = dir.resolve("data/member.etcd");
        CommandRun first = run(List.of(
                "restore",
                "--store-container",
                Fixtures.bucket("gzip").toString(),
                "--data-dir",
                target.toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString(),
                "--engine=offline"));
        assertThat(first.exitCode()).as(first.stderr()).isZero();
        etcd = RunningEtcd.start(target, Files.createDirectories(dir.resolve("logs")));
    }

    @AfterEach
    void stopEtcd() {
        if (etcd != null) {
            etcd.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"offline", "replay"})
    void restoreForceOntoARunningEtcdIsRefusedBeforeAnythingIsTouched(String engine) throws IOException {
        Snapshot before = Snapshot.of(target);

        CommandRun run = run(List.of(
                "restore",
                "--store-container",
                Fixtures.bucket("gzip").toString(),
                "--data-dir",
                target.toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString(),
                "--engine=" + engine,
                "--force"));

        assertRefused(run, before);
    }

    @Test
    void extractAsADataDirWithForceOntoARunningEtcdIsRefused() throws IOException {
        Snapshot before = Snapshot.of(target);

        CommandRun run = run(List.of(
                "extract",
                "--store-container",
                Fixtures.bucket("gzip").toString(),
                "--prefix",
                "/",
                "--output",
                target.toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString(),
                "--engine=offline",
                "--output-format=etcd",
                "--force"));

        assertRefused(run, before);
    }

    private void assertRefused(CommandRun run, Snapshot before) throws IOException {
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ErrorCode.TARGET_IN_USE.exitCode());
        JsonNode result = run.result();
        assertThat(result.get("errorCode").asText()).isEqualTo("TARGET_IN_USE");
        assertThat(result.get("error").asText()).contains("pid " + etcd.pid(), "etcd", target.toString());
        assertThat(Snapshot.of(target)).isEqualTo(before);
        assertThat(etcd.isAlive()).as("the etcd on the target still runs").isTrue();
    }

    private CommandRun run(List<String> args) {
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                new ArrayList<>(args).toArray(String[]::new));
    }

    /** What "untouched" means here: the same dir and database inodes, and the same names beside the target. */
    private record Snapshot(Object dirKey, Object databaseKey, List<String> siblings) {
        static Snapshot of(Path target) throws IOException {
            try (Stream<Path> names = Files.list(target.getParent())) {
                return new Snapshot(
                        Files.readAttributes(target, BasicFileAttributes.class).fileKey(),
                        Files.readAttributes(target.resolve("member/snap/db"), BasicFileAttributes.class)
                                .fileKey(),
                        names.map(p -> p.getFileName().toString()).sorted().toList());
            }
        }
    }
}
