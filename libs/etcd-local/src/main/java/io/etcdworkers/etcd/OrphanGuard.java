package io.etcdworkers.etcd;

import java.util.ArrayList;
import java.util.List;

/**
 * Wraps a command line so that the process it starts dies when the JVM that started it dies,
 * even by {@code kill -9} or an OOM kill, where no shutdown hook runs.
 *
 * <p>How: {@code /bin/sh} keeps the JVM's stdin pipe on fd 3, forks a watcher subshell that
 * blocks reading it, then {@code exec}s the real command. So the JVM's child <em>is</em> etcd
 * (same pid, exit code and output; {@code Process.destroy()} signals etcd itself) and the
 * watcher is etcd's child. The JVM never writes to the pipe; when the JVM exits for any reason
 * the kernel closes its end, the watcher reads EOF and sends SIGTERM to etcd, then SIGKILL if
 * it is still there after {@value #KILL_AFTER_SECONDS} s.
 *
 * <p>The watcher signals only while it is still etcd's child (its parent pid, read from
 * {@code /proc/self/stat}, equals the pid it would signal): a living parent cannot have its pid
 * reused, so a watcher outliving etcd never hits an unrelated process. Closing the pipe from
 * Java (see {@link EmbeddedEtcd#close()}) lets a leftover watcher exit.
 *
 * <p>The shell also sets umask {@code 077} before the {@code exec}: etcd and its restore tools
 * create some files with the umask's mode (etcd's {@code .snap} files), and what they write is
 * the keyspace, so it is its owner's alone whatever umask the worker was started with.
 *
 * <p>Why not the alternatives: {@code prctl(PR_SET_PDEATHSIG)} is not reachable from Java
 * without native code; a separate watchdog process holding only a pid could kill a reused pid;
 * a shutdown hook alone does not run on SIGKILL. Needs {@code /bin/sh} and {@code /proc}
 * (Linux); {@code sleep} with a fractional argument (coreutils, busybox).
 */
public final class OrphanGuard {
    static final int KILL_AFTER_SECONDS = 10;
    static final String SHELL = "/bin/sh";

    // $$ in the subshell is the outer shell's pid, which becomes etcd's after exec.
    static final String SCRIPT = String.join(
            "\n",
            // whatever the worker's umask: what etcd and its tools create is their owner's alone
            "umask 077",
            "exec 3<&0",
            "(",
            "  while read -r _ <&3; do :; done",
            "  is_parent() { read -r _ _ _ ppid _ < /proc/self/stat; [ \"$ppid\" = \"$$\" ]; }",
            "  is_parent && kill -TERM \"$$\" 2>/dev/null",
            "  i=0",
            "  while is_parent; do",
            "    i=$((i + 1))",
            "    if [ \"$i\" -gt " + (KILL_AFTER_SECONDS * 5) + " ]; then kill -KILL \"$$\" 2>/dev/null; exit 0; fi",
            "    sleep 0.2",
            "  done",
            ") &",
            // etcd gets no stdin and not fd 3: only the watcher holds the read end of the pipe.
            "exec \"$@\" 3<&- </dev/null");

    private OrphanGuard() {}

    /** The command line that runs {@code command} under the guard; start it with stdin a pipe. */
    public static List<String> wrap(List<String> command) {
        List<String> argv = new ArrayList<>(List.of(SHELL, "-c", SCRIPT, "etcd-orphan-guard"));
        argv.addAll(command);
        return argv;
    }
}
