package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.kube.JobOutcome;
import io.etcdworkers.launcher.kube.WorkerResult;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import java.io.PrintWriter;
import java.util.Objects;
import java.util.function.Consumer;

/** Prints progress (stderr, on change only) and outcomes (stdout, last line the raw result). */
final class OutcomePrinter {
    private OutcomePrinter() {}

    /** A progress sink that prints a line whenever the Job's pod counts change. */
    static Consumer<Job> progress(PrintWriter err) {
        String[] last = {""};
        return job -> {
            JobStatus s = job.getStatus();
            String line = "job " + job.getMetadata().getName() + ": active=" + count(s == null ? null : s.getActive())
                    + " ready=" + count(s == null ? null : s.getReady())
                    + " succeeded=" + count(s == null ? null : s.getSucceeded())
                    + " failed=" + count(s == null ? null : s.getFailed());
            if (!line.equals(last[0])) {
                last[0] = line;
                err.println(line);
                err.flush();
            }
        };
    }

    /** A sink for the watch's lines about the pods (waiting reasons, Events): stderr, each once. */
    static Consumer<String> diagnostics(PrintWriter err) {
        return line -> {
            err.println(line);
            err.flush();
        };
    }

    static void print(PrintWriter out, JobOutcome o) {
        StringBuilder head = new StringBuilder("job ")
                .append(o.namespace())
                .append('/')
                .append(o.jobName())
                .append(": ")
                .append(o.state());
        if (o.reason() != null) {
            head.append(" (").append(o.reason()).append(')');
        }
        if (o.message() != null) {
            head.append(": ").append(o.message());
        }
        out.println(head);
        if (o.oomKilled()) {
            out.println("worker: killed by the kernel's OOM killer (OOMKilled) at the container's memory limit"
                    + (o.memoryLimit() == null ? "" : " of " + o.memoryLimit()) + "; it wrote no result. "
                    + MemoryAdvice.forLimit(o.memoryLimit()));
        } else if (o.outOfMemory()) {
            out.println("worker: its Java heap ran out (exit 35). " + MemoryAdvice.forLimit(o.memoryLimit()));
        }
        WorkerResult r = o.result();
        if (r != null && !(o.oomKilled() && !r.json())) {
            StringBuilder worker = new StringBuilder("worker:");
            r.summary()
                    .forEach((k, v) -> worker.append(' ').append(k).append('=').append(v));
            r.exitCodeMeaning().ifPresent(m -> worker.append(" (").append(m).append(')'));
            if (!r.json()) {
                worker.append(" termination message is not a result JSON");
            }
            out.println(worker);
            out.println("result: " + r.raw().strip());
        } else if (o.finished()) {
            out.println("worker: no termination message found (the pod may never have run, or was removed)");
        }
        if (o.state() != JobOutcome.State.RUNNING) {
            out.println("exit code: " + o.exitCode());
        }
        out.flush();
    }

    private static String count(Integer n) {
        return Objects.toString(n, "0");
    }
}
