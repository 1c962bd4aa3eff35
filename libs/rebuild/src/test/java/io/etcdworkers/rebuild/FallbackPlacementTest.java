package io.etcdworkers.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.rebuild.engine.BuiltDatabase;
import io.etcdworkers.rebuild.engine.DatabaseEngine;
import io.etcdworkers.rebuild.engine.Engine;
import io.etcdworkers.rebuild.engine.EngineInput;
import io.etcdworkers.rebuild.engine.EngineRefused;
import io.etcdworkers.rebuild.engine.Placement;
import io.etcdworkers.rebuild.engine.VerifiedDatabase;
import io.etcdworkers.rebuild.engine.WrittenDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offline engine restores into the placed dir before its verification; when that
 * verification refuses, the replay must find the placed dir gone (its database is placed after
 * it), and the scratch etcd's dirs too.
 */
class FallbackPlacementTest {
    @TempDir
    Path dir;

    @Test
    void aRefusalAfterPlacingClearsThePlacedDirBeforeTheReplayBuilds() throws Exception {
        Path part = dir.resolve("data.part");
        Path verifyDir = dir.resolve("scratch/verify.etcd");
        EngineInput in = new EngineInput(
                null,
                EtcdMember.onFreeLoopbackPort(),
                null,
                dir.resolve("base.db"),
                false,
                dir.resolve("scratch"),
                verifyDir,
                Optional.empty(),
                null,
                Optional.of(new Placement(EtcdMember.onFreeLoopbackPort(), part)));
        List<String> seenByReplay = new ArrayList<>();
        DatabaseEngine offline = input -> new Built(() -> {
            // what the offline engine leaves when etcd then serves something else
            write(part.resolve("member/snap/db"));
            write(verifyDir.resolve("member/snap/db"));
            throw new EngineRefused(ErrorCode.ETCD_FAILURE, "etcd serves another keyspace", null);
        });
        DatabaseEngine replay = input -> {
            seenByReplay.add("part " + (Files.exists(part) ? "present" : "absent"));
            seenByReplay.add("verify dir " + (Files.exists(verifyDir) ? "present" : "absent"));
            throw new WorkerException(ErrorCode.ETCD_FAILURE, "the replay stops here: this test has no etcd");
        };

        BuiltDatabase built = new FallbackEngine(offline, replay).build(in);

        assertThatThrownBy(built::verify).isInstanceOf(WorkerException.class).hasMessageContaining("stops here");
        assertThat(seenByReplay).containsExactly("part absent", "verify dir absent");
    }

    private static void write(Path file) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, "database");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private interface Verify {
        VerifiedDatabase run() throws EngineRefused;
    }

    private record Built(Verify check) implements BuiltDatabase {
        @Override
        public Engine engine() {
            return Engine.OFFLINE;
        }

        @Override
        public Optional<WrittenDatabase> written() {
            return Optional.empty();
        }

        @Override
        public VerifiedDatabase verify() throws EngineRefused {
            return check.run();
        }

        @Override
        public void close() {}
    }
}
