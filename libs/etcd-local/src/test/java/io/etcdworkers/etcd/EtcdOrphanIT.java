package io.etcdworkers.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcdworkers.testsupport.EtcdTestEnvironment;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The no-orphan guarantee where it matters: a worker JVM killed with SIGKILL (no shutdown hook
 * runs) must not leave its etcd, nor its snapshot restore tool, behind.
 */
@Timeout(120)
class EtcdOrphanIT {
    @TempDir
    Path tmp;

    private Process jvm;
    private long etcdPid = -1;

    @AfterEach
    void cleanUp() {
        // Whatever the outcome, this test must not itself leave processes behind.
        if (jvm != null) {
            jvm.destroyForcibly();
        }
        if (etcdPid > 0) {
            ProcessHandle.of(etcdPid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void etcdDiesWhenTheJvmThatStartedItIsKilled() throws Exception {
        EtcdBinaries binaries =
                EtcdBinaries.locate(Optional.of(EtcdTestEnvironment.onPath().binDir()), "");
        EtcdMember member = EtcdMember.onFreeLoopbackPort();
        Path data = tmp.resolve("data");
        new SnapshotRestorer(binaries, tmp.resolve("scratch"), SnapshotRestorer.DEFAULT_TIMEOUT)
                .restore(new SnapshotRestorer.Request(
                        EtcdTestEnvironment.fullSnapshot(), member, data, Optional.empty(), false));

        String java = ProcessHandle.current().info().command().orElseThrow();
        jvm = new ProcessBuilder(List.of(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        EtcdChildJvmMain.class.getName(),
                        binaries.etcd().getParent().toString(),
                        data.toString(),
                        tmp.resolve("scratch").toString(),
                        member.name(),
                        member.peerUrl().toString(),
                        member.clusterToken()))
                .redirectError(tmp.resolve("child-jvm.err").toFile())
                .start();
        etcdPid = readEtcdPid(jvm);
        ProcessHandle etcd = ProcessHandle.of(etcdPid).orElseThrow();
        assertThat(etcd.parent().map(ProcessHandle::pid)).contains(jvm.pid());
        List<ProcessHandle> watchers = etcd.children().toList();
        assertThat(watchers).hasSize(1);

        long killedAt = System.nanoTime();
        jvm.destroyForcibly(); // SIGKILL: the child JVM runs no shutdown hook
        assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).isTrue();

        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> isGone(etcdPid));
        System.out.printf(
                "MEASURE orphan guard: etcd gone %d ms after SIGKILL of its JVM%n",
                (System.nanoTime() - killedAt) / 1_000_000);
        await().atMost(Duration.ofSeconds(20)).until(() -> watchers.stream().allMatch(w -> isGone(w.pid())));
    }

    /**
     * The tool is a stand-in that writes into the data dir for a minute, as a large {@code snapshot
     * restore} does: left running, it went on writing the {@code .part} the next run removed.
     */
    @Test
    void snapshotRestoreToolDiesWhenTheJvmThatStartedItIsKilled() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Files.createSymbolicLink(
                bin.resolve("etcd"), EtcdTestEnvironment.onPath().etcd());
        Path pidFile = tmp.resolve("tool.pid");
        // the pid file appears only once the first WAL write is done: the test then reads 0.wal's size
        String tool = String.join(
                "\n",
                "#!/bin/sh",
                "for a in \"$@\"; do case $a in --data-dir=*) dir=${a#--data-dir=};; esac; done",
                "mkdir -p \"$dir/member/wal\"",
                "echo start >> \"$dir/member/wal/0.wal\"",
                "echo $$ > " + pidFile + ".tmp && mv " + pidFile + ".tmp " + pidFile,
                "i=0; while [ $i -lt 600 ]; do echo $i >> \"$dir/member/wal/0.wal\"; sleep 0.1; i=$((i+1)); done",
                "");
        for (String name : List.of("etcdctl", "etcdutl")) {
            Files.writeString(bin.resolve(name), tool);
            assertThat(bin.resolve(name).toFile().setExecutable(true)).isTrue();
        }
        Path data = tmp.resolve("data.part");
        String java = ProcessHandle.current().info().command().orElseThrow();
        jvm = new ProcessBuilder(List.of(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        SnapshotRestoreChildJvmMain.class.getName(),
                        bin.toString(),
                        EtcdTestEnvironment.fullSnapshot().toString(),
                        data.toString(),
                        tmp.resolve("scratch").toString()))
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("child-jvm.out").toFile())
                .start();
        await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(pidFile) || !jvm.isAlive());
        assertThat(jvm.isAlive())
                .as("child JVM output: %s", Files.readString(tmp.resolve("child-jvm.out")))
                .isTrue();
        etcdPid = Long.parseLong(Files.readString(pidFile).strip()); // the tool's: cleaned up like etcd's

        jvm.destroyForcibly();
        assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).isTrue();

        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> isGone(etcdPid));
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        io.etcdworkers.testsupport.Processes.mentioning(data).isEmpty());
        Path wal = data.resolve("member/wal/0.wal");
        long size = Files.size(wal);
        await("nobody writes into the data dir")
                .during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(2))
                .until(() -> Files.size(wal) == size);
    }

    private long readEtcdPid(Process child) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                String l;
                while ((l = out.readLine()) != null) {
                    if (l.startsWith("ETCD_PID ")) {
                        return l;
                    }
                }
                return null;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        String found = line.get(60, TimeUnit.SECONDS);
        assertThat(found)
                .as("child JVM stderr: %s", Files.readString(tmp.resolve("child-jvm.err")))
                .isNotNull();
        return Long.parseLong(found.substring("ETCD_PID ".length()).trim());
    }

    /** Gone, or a zombie waiting for whoever adopted it: either way it runs no more and holds nothing. */
    private static boolean isGone(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException noSuchProcess) {
            return true;
        }
    }
}
