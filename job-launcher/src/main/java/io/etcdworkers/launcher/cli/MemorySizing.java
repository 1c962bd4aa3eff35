package io.etcdworkers.launcher.cli;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.ResultFields;
import io.etcdworkers.launcher.job.JobFactory;
import io.etcdworkers.launcher.job.JobRequest;
import io.etcdworkers.launcher.job.JobResources;
import io.etcdworkers.launcher.job.JobWork;
import io.etcdworkers.launcher.kube.JobLauncher;
import io.etcdworkers.launcher.kube.JobOutcome;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.OptionalInt;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code --memory-limit=auto} and {@code --check-memory}: before the restore or compaction Job, a
 * sizing Job ({@code verify-backup --estimate-memory}) reads the backup and names the memory a
 * rebuild of it needs; the Job then gets that memory (auto) or is refused when the given limit is
 * smaller (check). A sizing Job that fails ends the run with its code: the backup it could not
 * read would not restore either.
 */
final class MemorySizing {
    static final String AUTO = "auto";
    /** What the sizing Job itself gets: it streams the objects and counts the base's keys from the scratch volume. */
    static final String SIZING_MEMORY = "512Mi";

    static final int SIZING_HEAP_PERCENT = 50;
    private static final long MIB = 1024 * 1024;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private MemorySizing() {}

    /** What the sizing Job found. */
    record Estimate(long memoryLimitBytes, int heapPercent, long keysAtMost, long databaseBytesAtMost) {
        String limit() {
            return (memoryLimitBytes + MIB - 1) / MIB + "Mi";
        }
    }

    static boolean wanted(PodOptions pod) {
        return AUTO.equals(pod.memoryLimit) || pod.checkMemory;
    }

    /**
     * Sizes {@code pod} from the backup when asked to.
     *
     * @return an exit code to end the run with (the sizing Job failed, or the given limit is too
     *     small), or empty to go on with {@code pod}'s memory set
     */
    static OptionalInt apply(
            CliContext ctx,
            ClusterOptions cluster,
            RunOptions run,
            StuckOptions stuck,
            PodOptions pod,
            StoreOptions store,
            String namespace) {
        if (!wanted(pod)) {
            return OptionalInt.empty();
        }
        if (run.dryRun) {
            throw new IllegalArgumentException("--memory-limit=auto and --check-memory run a sizing Job in the cluster "
                    + "first; with --dry-run give a size (verify-backup --estimate-memory prints one)");
        }
        JobRequest request = JobRequest.builder(pod.etcd, namespace, pod.image, store.toStoreRef(), JobWork.SIZING)
                .resources(new JobResources(
                        pod.cpuRequest,
                        pod.cpuLimit,
                        SIZING_MEMORY,
                        SIZING_MEMORY,
                        pod.scratchSize,
                        pod.tmpSize,
                        SIZING_HEAP_PERCENT))
                .activeDeadline(pod.deadline)
                .backoffLimit(0)
                .ttlAfterFinished(pod.ttlAfterFinished)
                .owner(pod.owner())
                .serviceAccountName(pod.serviceAccount)
                .placement(pod.placement())
                .output(pod.output())
                .build();
        Job job = new JobFactory(ctx.clock()).build(request);
        JobLauncher launcher = JobRun.launcher(ctx, cluster);
        Job created = launcher.create(job);
        ctx.err()
                .println("job " + created.getMetadata().getNamespace() + "/"
                        + created.getMetadata().getName() + " created: sizing the Job from the backup");
        ctx.err().flush();
        Duration timeout = run.timeout != null
                ? run.timeout
                : Duration.ofSeconds(job.getSpec().getActiveDeadlineSeconds()).plus(JobRun.WAIT_MARGIN);
        JobOutcome outcome = launcher.watch(
                created.getMetadata().getNamespace(),
                created.getMetadata().getName(),
                stuck.limits(timeout),
                OutcomePrinter.progress(ctx.err()),
                OutcomePrinter.diagnostics(ctx.err()));
        if (outcome.exitCode() != 0) {
            ctx.out().println("sizing failed: no restore or compaction Job was created");
            OutcomePrinter.print(ctx.out(), outcome);
            return OptionalInt.of(outcome.exitCode());
        }
        Estimate estimate = estimate(outcome);
        ctx.err()
                .println(String.format(
                        "sized from the backup: at most %d keys, a database of at most %d MiB: "
                                + "--memory-limit=%s --heap-percent=%d",
                        estimate.keysAtMost(),
                        estimate.databaseBytesAtMost() / MIB,
                        estimate.limit(),
                        estimate.heapPercent()));
        ctx.err().flush();
        if (AUTO.equals(pod.memoryLimit)) {
            pod.memoryLimit = estimate.limit();
            pod.memoryRequest = estimate.limit();
            pod.heapPercent = estimate.heapPercent();
            return OptionalInt.empty();
        }
        BigDecimal given = Quantity.getAmountInBytes(new Quantity(pod.memoryLimit));
        if (given.compareTo(BigDecimal.valueOf(estimate.memoryLimitBytes())) < 0) {
            ctx.err()
                    .println("error: --memory-limit=" + pod.memoryLimit + " cannot hold this backup: it needs "
                            + estimate.limit() + " with --heap-percent=" + estimate.heapPercent()
                            + " (docs/tuning.md has the rule); or run with --memory-limit=auto");
            return OptionalInt.of(ErrorCode.USAGE.exitCode());
        }
        return OptionalInt.empty();
    }

    /** The estimate in a sizing Job's result. */
    static Estimate estimate(JobOutcome outcome) {
        if (outcome.result() == null || !outcome.result().json()) {
            throw new IllegalStateException("the sizing Job " + outcome.jobName() + " succeeded without a result");
        }
        JsonNode size;
        try {
            size = JSON.readTree(outcome.result().raw()).path(ResultFields.SIZE_ESTIMATE);
        } catch (JacksonException e) {
            throw new IllegalStateException("the sizing Job's result is not JSON: " + e.getMessage(), e);
        }
        if (!size.hasNonNull(ResultFields.MEMORY_LIMIT_BYTES) || !size.hasNonNull(ResultFields.HEAP_PERCENT)) {
            throw new IllegalStateException("the sizing Job " + outcome.jobName() + " reported no "
                    + ResultFields.SIZE_ESTIMATE + " (a worker image older than this launcher?)");
        }
        return atLeastTheSmallestHeap(new Estimate(
                size.get(ResultFields.MEMORY_LIMIT_BYTES).asLong(),
                size.get(ResultFields.HEAP_PERCENT).asInt(),
                size.path("keysAtMost").asLong(),
                size.path("databaseBytesAtMost").asLong()));
    }

    /**
     * The estimate with at least the heap every Job's worker gets ({@link JobResources#MIN_HEAP_BYTES}):
     * a small backup's fold needs less (the rule's 64 MiB and its keys, half as much again: 38 % of
     * 256Mi for 3,000 keys), which the Job would refuse. The heap's share is raised to it; where that
     * would pass {@link JobResources#MAX_HEAP_PERCENT}, the limit is raised instead.
     */
    static Estimate atLeastTheSmallestHeap(Estimate e) {
        long floorPercent = (JobResources.MIN_HEAP_BYTES * 100 + e.memoryLimitBytes() - 1) / e.memoryLimitBytes();
        if (floorPercent <= e.heapPercent()) {
            return e;
        }
        if (floorPercent <= JobResources.MAX_HEAP_PERCENT) {
            return new Estimate(e.memoryLimitBytes(), (int) floorPercent, e.keysAtMost(), e.databaseBytesAtMost());
        }
        long limit = (JobResources.MIN_HEAP_BYTES * 100 / JobResources.MAX_HEAP_PERCENT + MIB - 1) / MIB * MIB;
        return new Estimate(limit, JobResources.MAX_HEAP_PERCENT, e.keysAtMost(), e.databaseBytesAtMost());
    }
}
