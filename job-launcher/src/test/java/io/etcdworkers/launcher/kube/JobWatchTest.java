package io.etcdworkers.launcher.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.launcher.job.JobFactory;
import io.etcdworkers.launcher.job.JobFactoryTest;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * --wait says why a pod is Pending (its waiting reason, the latest Events of it and of the Job) and
 * gives up on a pod that cannot start by itself; against the CRUD mock server, time from an injected
 * clock (fixed, or one that moves on each time it is read), never a sleep.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class JobWatchTest {
    private static final String NS = "default";
    private static final Instant NOW = Instant.parse("2026-11-29T22:00:00Z");
    private static final Duration POLL = Duration.ofMillis(20);

    KubernetesClient client;
    private String job;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    @BeforeEach
    void createJob() {
        Job built = new JobFactory(Clock.fixed(NOW, ZoneOffset.UTC)).build(JobFactoryTest.sampleRestore());
        job = new JobLauncher(client).create(built).getMetadata().getName();
    }

    private JobOutcome watch(Clock clock, WatchLimits limits) {
        return new JobLauncher(client, clock, POLL).watch(NS, job, limits, j -> {}, lines::add);
    }

    @Test
    void aPendingPodShowsItsWaitingReasonAndTheLatestEventsThenTheOutcome() throws Exception {
        Pod pod = pod("p1", "ContainerCreating", null, null);
        event(
                "e1",
                "Pod",
                pod.getMetadata().getName(),
                "FailedAttachVolume",
                "Multi-Attach error for volume \"pv-etcd-main-0\" Volume is already used by pod(s) etcd-main-0",
                "2026-11-29T21:59:00Z");
        event(
                "e2",
                "Job",
                job,
                "SuccessfulCreate",
                "Created pod: " + pod.getMetadata().getName(),
                "2026-11-29T21:58:00Z");
        event("e3", "Pod", "someone-else", "Killing", "not ours", "2026-11-29T21:59:30Z");

        CompletableFuture<JobOutcome> outcome = CompletableFuture.supplyAsync(
                () -> watch(Clock.fixed(NOW, ZoneOffset.UTC), WatchLimits.of(Duration.ofHours(1))));
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> lines.stream().anyMatch(l -> l.contains("Multi-Attach")));
        finish("Failed", "DeadlineExceeded");

        assertThat(outcome.get(20, TimeUnit.SECONDS).exitCode())
                .isEqualTo(LauncherError.JOB_FAILED_WITHOUT_RESULT.exitCode());
        assertThat(lines)
                .containsSubsequence(
                        "pod " + job + "-p1: Pending, container worker waiting: ContainerCreating",
                        "event Job/" + job + ": Normal SuccessfulCreate: Created pod: " + job + "-p1",
                        "event Pod/" + job
                                + "-p1: Warning FailedAttachVolume: Multi-Attach error for volume \"pv-etcd-main-0\""
                                + " Volume is already used by pod(s) etcd-main-0");
        assertThat(lines).noneMatch(l -> l.contains("not ours"));
        assertThat(lines).as("each line once").doesNotHaveDuplicates();
    }

    @Test
    void anImageThatCannotBePulledBeyondTheLimitEndsTheWatchWithItsOwnCode() {
        pod("p1", "ImagePullBackOff", "Back-off pulling image \"registry.example/etcd-workers:typo\"", null);
        // each read of the clock is a minute later: the limit is reached after a few looks, without waiting
        JobOutcome o = watch(
                new TickingClock(NOW, Duration.ofMinutes(1)),
                new WatchLimits(Duration.ofHours(2), Duration.ofMinutes(5), null));

        assertThat(o.state()).isEqualTo(JobOutcome.State.POD_STUCK);
        assertThat(o.exitCode()).isEqualTo(LauncherError.POD_STUCK.exitCode()).isEqualTo(55);
        assertThat(o.reason()).isEqualTo("ImagePullBackOff");
        assertThat(o.message())
                .contains("pod " + job + "-p1 cannot pull its image (ImagePullBackOff) for")
                .contains("(limit 5m)")
                .contains("the Job was left running");
        assertThat(lines)
                .contains("pod " + job + "-p1: Pending, container worker waiting: ImagePullBackOff"
                        + " (Back-off pulling image \"registry.example/etcd-workers:typo\")");
        assertThat(client.batch().v1().jobs().inNamespace(NS).withName(job).get())
                .isNotNull();
    }

    @Test
    void aPodThatStartedLongAgoAndStillCannotPullGivesUpAtTheFirstLook() {
        pod("p1", "ErrImagePull", null, "2026-11-29T21:50:00Z");
        // the clock's first reading starts the watch, its second is the first look: 22:01, 11 minutes after the start
        JobOutcome o = watch(
                new TickingClock(NOW, Duration.ofMinutes(1)),
                new WatchLimits(Duration.ofMinutes(30), Duration.ofMinutes(5), null));
        assertThat(o.exitCode()).isEqualTo(55);
        assertThat(o.message()).contains("cannot pull its image (ErrImagePull) for 11m (limit 5m)");
    }

    @Test
    void aClockFinerThanMillisecondsStillGivesUpWithTheStory() {
        // the system clock has microseconds; the message says whole seconds
        pod("p1", "ErrImagePull", null, "2026-11-29T21:50:00Z");
        JobOutcome o = watch(
                new TickingClock(NOW.plusNanos(123_456), Duration.ofMinutes(1)),
                new WatchLimits(Duration.ofMinutes(30), Duration.ofMinutes(5), null));
        assertThat(o.exitCode()).isEqualTo(55);
        assertThat(o.message()).contains("cannot pull its image (ErrImagePull) for 11m (limit 5m)");
    }

    @Test
    void belowTheLimitTheWatchGoesOnAndZeroNeverGivesUp() {
        pod("p1", "ImagePullBackOff", null, "2026-11-29T21:57:00Z");
        JobOutcome below = watch(
                new TickingClock(NOW, Duration.ofMinutes(1)),
                new WatchLimits(Duration.ofMinutes(3), Duration.ofMinutes(30), null));
        assertThat(below.state()).isEqualTo(JobOutcome.State.WATCH_TIMED_OUT);
        assertThat(below.exitCode()).isEqualTo(51);

        JobOutcome never = watch(
                new TickingClock(NOW, Duration.ofMinutes(1)),
                new WatchLimits(Duration.ofMinutes(30), Duration.ZERO, null));
        assertThat(never.state()).isEqualTo(JobOutcome.State.WATCH_TIMED_OUT);
    }

    @Test
    void anUnschedulablePodGivesUpAfterItsLimitCountedFromTheCondition() {
        Pod pod = new PodBuilder(pod("p1", null, null, null))
                .editStatus()
                .withContainerStatuses()
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("False")
                .withReason("Unschedulable")
                .withMessage("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.")
                .withLastTransitionTime("2026-11-29T21:45:00Z")
                .endCondition()
                .endStatus()
                .build();
        client.pods().inNamespace(NS).resource(pod).update();

        JobOutcome o = watch(Clock.fixed(NOW, ZoneOffset.UTC), WatchLimits.of(Duration.ofHours(2)));
        assertThat(o.exitCode()).isEqualTo(55);
        assertThat(o.reason()).isEqualTo("Unschedulable");
        assertThat(o.message())
                .contains("cannot be scheduled (0/3 nodes are available")
                .contains("for 15m (limit 10m)");
        assertThat(lines).anyMatch(l -> l.startsWith("pod " + job + "-p1: cannot be scheduled (0/3 nodes"));
    }

    private Pod pod(String name, String waitingReason, String message, String startTime) {
        PodBuilder b = new PodBuilder()
                .withNewMetadata()
                .withName(job + "-" + name)
                .withNamespace(NS)
                .addToLabels(JobLauncher.POD_JOB_LABEL, job)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName(JobFactory.CONTAINER)
                .withImage("img")
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase("Pending")
                .withStartTime(startTime)
                .endStatus();
        if (waitingReason != null) {
            b.editStatus()
                    .addNewContainerStatus()
                    .withName(JobFactory.CONTAINER)
                    .withNewState()
                    .withNewWaiting()
                    .withReason(waitingReason)
                    .withMessage(message)
                    .endWaiting()
                    .endState()
                    .endContainerStatus()
                    .endStatus();
        }
        return client.pods().inNamespace(NS).resource(b.build()).create();
    }

    private void event(String name, String kind, String object, String reason, String message, String at) {
        client.v1()
                .events()
                .inNamespace(NS)
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(NS)
                        .endMetadata()
                        .withNewInvolvedObject()
                        .withKind(kind)
                        .withName(object)
                        .withNamespace(NS)
                        .endInvolvedObject()
                        .withType(reason.startsWith("Failed") || reason.equals("Killing") ? "Warning" : "Normal")
                        .withReason(reason)
                        .withMessage(message)
                        .withLastTimestamp(at)
                        .withCount(1)
                        .build())
                .create();
    }

    private void finish(String type, String reason) {
        client.batch()
                .v1()
                .jobs()
                .inNamespace(NS)
                .withName(job)
                .editStatus(j -> new JobBuilder(j)
                        .editOrNewStatus()
                        .addToConditions(new JobConditionBuilder()
                                .withType(type)
                                .withStatus("True")
                                .withReason(reason)
                                .build())
                        .endStatus()
                        .build());
    }
}
