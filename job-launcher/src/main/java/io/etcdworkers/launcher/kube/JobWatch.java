package io.etcdworkers.launcher.kube;

import io.etcdworkers.launcher.job.RequestChecks;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The watch loop of {@link JobLauncher#watch}: reads the Job once per poll interval (sooner when a
 * watch of it reports a change), and each time looks at its pods and their Events, so that a pod that waits for an
 * image, a node or a volume says why, and one that cannot start by itself ends the watch early.
 *
 * <p>Time (the timeout and the give-up limits) is the injected clock's; only the poll interval is
 * real time.
 */
final class JobWatch {
    private final KubernetesClient client;
    private final Clock clock;
    private final Duration pollInterval;

    JobWatch(KubernetesClient client, Clock clock, Duration pollInterval) {
        this.client = Objects.requireNonNull(client, "client");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.pollInterval = RequestChecks.positive(pollInterval, "poll interval");
    }

    /** The finished Job, or the reason to stop watching it; see {@link JobLauncher#watch}. */
    Result run(
            String namespace, String name, WatchLimits limits, Consumer<Job> progress, Consumer<String> diagnostics) {
        Instant end = clock.instant().plus(limits.timeout());
        PodWatch pods = new PodWatch(limits);
        // one watch for the whole run, only to wake the loop early when the Job changes; the loop reads
        // the Job itself, so a watch that closes (API server timeout) only makes it poll
        BlockingQueue<Watcher.Action> changes = new LinkedBlockingQueue<>();
        try (Watch ignored = KubeCall.run(
                () -> client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace)
                        .withName(name)
                        .watch(new Watcher<Job>() {
                            @Override
                            public void eventReceived(Action action, Job resource) {
                                changes.add(action);
                            }

                            @Override
                            public void onClose(WatcherException cause) {
                                // polling goes on without it
                            }
                        }),
                "watch Job " + name)) {
            while (true) {
                Job job = KubeCall.run(
                        () -> client.batch()
                                .v1()
                                .jobs()
                                .inNamespace(namespace)
                                .withName(name)
                                .get(),
                        "get Job " + name);
                if (job == null) {
                    return Result.gone();
                }
                progress.accept(job);
                if (JobConditions.finished(job)) {
                    return Result.done(job);
                }
                List<Pod> current = JobPods.of(client, namespace, name);
                PodWatch.Observation seen = pods.observe(current, events(namespace, name, current), clock.instant());
                seen.lines().forEach(diagnostics);
                if (seen.stuck().isPresent()) {
                    return Result.gaveUp(seen.stuck().get());
                }
                Duration left = Duration.between(clock.instant(), end);
                if (left.isNegative() || left.isZero()) {
                    return Result.timedOut();
                }
                Duration wait = left.compareTo(pollInterval) < 0 ? left : pollInterval;
                if (changes.poll(Math.max(1, wait.toMillis()), TimeUnit.MILLISECONDS) != null) {
                    changes.clear();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException(LauncherError.WATCH_TIMEOUT, "interrupted while watching Job " + name, e);
        }
    }

    /**
     * The Events of the Job and of each of its pods. One list of the namespace's Events per look,
     * filtered here: a field selector on {@code involvedObject.name} would need one call per object,
     * and fabric8's mock server (the tests) does not answer it.
     */
    private List<Event> events(String namespace, String job, List<Pod> pods) {
        Set<String> objects = new HashSet<>();
        objects.add("Job/" + job);
        pods.forEach(p -> objects.add("Pod/" + p.getMetadata().getName()));
        return KubeCall.run(
                        () -> client.v1().events().inNamespace(namespace).list().getItems(),
                        "list Events in " + namespace)
                .stream()
                .filter(e -> e.getInvolvedObject() != null
                        && objects.contains(e.getInvolvedObject().getKind() + "/"
                                + e.getInvolvedObject().getName()))
                .toList();
    }

    /** How a watch ended. */
    record Result(Job finished, PodWatch.Stuck stuck, boolean deleted) {
        static Result done(Job job) {
            return new Result(job, null, false);
        }

        static Result gaveUp(PodWatch.Stuck stuck) {
            return new Result(null, stuck, false);
        }

        static Result gone() {
            return new Result(null, null, true);
        }

        static Result timedOut() {
            return new Result(null, null, false);
        }
    }
}
