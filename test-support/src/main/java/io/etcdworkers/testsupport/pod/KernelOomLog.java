package io.etcdworkers.testsupport.pod;

import io.etcdworkers.testsupport.ProcessRun;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Whether the kernel's OOM killer killed a process of a container, read from the kernel's log as
 * the kubelet's own OOM watcher reads it: the {@code oom-kill:} line names the memory cgroup the
 * limit was hit in ({@code oom_memcg=}) and the killed task's ({@code task_memcg=}), which for a
 * podman container end in {@code libpod-<container id>}.
 *
 * <p>podman 4.3's own {@code State.OOMKilled} stays false under cgroup v1 with the cgroupfs manager
 * (its monitor, conmon, never reports the event there, while the kernel logs the kill), so it is
 * taken when true and the kernel's log is asked otherwise.
 */
final class KernelOomLog {
    private KernelOomLog() {}

    /**
     * @return whether the log has an OOM kill in the container's memory cgroup
     * @throws IllegalStateException when the kernel's log cannot be read (then an exit 137 cannot be told
     *     from any other SIGKILL)
     */
    static boolean killedIn(String containerId) {
        ProcessRun dmesg = ProcessRun.run(
                List.of("dmesg"), Map.of("PATH", "/usr/bin:/bin:/usr/sbin:/sbin"), Duration.ofSeconds(30));
        if (dmesg.exitCode() != 0) {
            throw new IllegalStateException("the kernel's log cannot be read (dmesg exit " + dmesg.exitCode() + ": "
                    + dmesg.stderr().strip() + "), so an exit 137 cannot be told apart from an OOM kill");
        }
        String memcg = "libpod-" + containerId;
        return dmesg.stdout()
                .lines()
                .anyMatch(line -> line.contains("oom-kill:") && (line.contains("oom_memcg=") && line.contains(memcg)));
    }
}
