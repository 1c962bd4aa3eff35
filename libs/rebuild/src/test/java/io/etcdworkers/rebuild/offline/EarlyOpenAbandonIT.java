package io.etcdworkers.rebuild.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.rebuild.engine.EngineInput;
import io.etcdworkers.rebuild.engine.EngineSettings;
import io.etcdworkers.rebuild.engine.Phases;
import io.etcdworkers.rebuild.engine.Placement;
import io.etcdworkers.store.LocalDirectoryStore;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.Processes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link EarlyOpen} on etcdbrctl's compacted snapshot with a real etcd: handed over, etcd serves
 * the base; abandoned, at whatever point, no etcd or tool is left running and the dirs it wrote
 * (the verifying etcd's and the placement) are gone, so the fold's own database can be restored
 * there.
 */
@Timeout(120)
class EarlyOpenAbandonIT {
    @TempDir
    Path dir;

    @Test
    void handedOverItServesTheBaseAtItsRevision() throws Exception {
        EngineInput in = input();
        EarlyOpen early = EarlyOpen.start(in, EngineSettings.defaults());

        try (VerifyingEtcd opened = early.get()) {
            assertThat(opened.etcd().client().status().getHeader().getRevision())
                    .isEqualTo(3656);
            assertThat(opened.fileRead().get().entries()).isEqualTo(1364);
            early.abandon();
            assertThat(opened.etcd().process().isAlive())
                    .as("abandon after the hand-over leaves etcd alone")
                    .isTrue();
        }
        Processes.awaitNoneMentioning(dir);
    }

    @Test
    void abandonedOnceEtcdRunsItStopsItAndRemovesItsDirs() throws Exception {
        EngineInput in = input();
        EarlyOpen early = EarlyOpen.start(in, EngineSettings.defaults());
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(20))
                .until(early::finished);
        assertThat(Processes.mentioning(in.dataDir()))
                .as("etcd runs on the early dir")
                .isNotEmpty();

        early.abandon();

        assertNothingLeft(in);
    }

    @Test
    void abandonedAtOnceItLeavesNothingEither() throws Exception {
        EngineInput in = input();
        EarlyOpen early = EarlyOpen.start(in, EngineSettings.defaults());

        early.abandon();

        assertNothingLeft(in);
    }

    /** A stop signal interrupts the worker's thread while it waits for the early etcd. */
    @Test
    void interruptedWhileWaitingItAbandonsAndLeavesNothing() throws Exception {
        EngineInput in = input();
        EarlyOpen early = EarlyOpen.start(in, EngineSettings.defaults());

        Thread.currentThread().interrupt();
        assertThatThrownBy(early::get).isInstanceOf(InterruptedException.class);

        assertThat(Thread.interrupted())
                .as("the interrupt is not swallowed twice")
                .isFalse();
        assertNothingLeft(in);
    }

    private void assertNothingLeft(EngineInput in) {
        Processes.awaitNoneMentioning(dir);
        assertThat(in.dataDir()).doesNotExist();
        assertThat(in.placement().orElseThrow().dataDir()).doesNotExist();
    }

    private EngineInput input() throws Exception {
        Path bucket = Fixtures.bucket("compacted");
        LocalDirectoryStore store = new LocalDirectoryStore(bucket);
        var selection = SnapshotCatalog.load(store, "").select();
        Path base = Files.copy(bucket.resolve("v2/Full-00000000-00003656-1795986628"), dir.resolve("base.db"));
        EtcdBinaries binaries =
                EtcdBinaries.locate(Optional.of(EtcdTestEnvironment.onPath().binDir()), "");
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        return new EngineInput(
                binaries,
                EtcdMember.onFreeLoopbackPort(),
                selection,
                base,
                false,
                scratch,
                scratch.resolve("verify.etcd"),
                Optional.empty(),
                new Phases(Clock.systemUTC()),
                Optional.of(new Placement(EtcdMember.onFreeLoopbackPort(), dir.resolve("data.part"))));
    }
}
