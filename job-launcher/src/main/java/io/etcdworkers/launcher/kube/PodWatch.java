package io.etcdworkers.launcher.kube;

import io.etcdworkers.contract.GoDuration;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Why a Job's pods are not running, from their status and their (and the Job's) Events; and whether
 * a pod has been in a state that does not recover by itself for longer than {@link WatchLimits} allow.
 *
 * <p>Fed one snapshot at a time by the watch loop; remembers what it printed (so each line is said
 * once). How long a pod has been stuck is counted from what the cluster reports: for an
 * unschedulable pod the {@code PodScheduled=False} condition's last transition, for an image that
 * cannot be pulled the pod's {@code startTime} (the kubelet has tried to pull since then: with
 * {@code restartPolicy: Never} the container never ran). Without that time, from the first snapshot
 * that showed the state. So {@code status --wait} on a pod that is stuck already gives up at once.
 */
final class PodWatch {
    /** Waiting reasons of a container whose image cannot be pulled; the kubelet only backs off. */
    static final Set<String> IMAGE_PULL_REASONS =
            Set.of("ImagePullBackOff", "ErrImagePull", "InvalidImageName", "ErrImageNeverPull");
    /** Events shown per snapshot at most, the latest ones. */
    static final int MAX_EVENTS = 5;

    /** What one snapshot adds: lines not printed before, and a reason to give up if there is one. */
    record Observation(List<String> lines, Optional<Stuck> stuck) {}

    /** A pod that will not start: the Kubernetes reason and the whole story in one sentence. */
    record Stuck(String reason, String message) {}

    private final WatchLimits limits;
    private final Map<String, Instant> since = new HashMap<>();
    private final Set<String> said = new HashSet<>();

    PodWatch(WatchLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    Observation observe(List<Pod> pods, List<Event> events, Instant now) {
        Set<String> lines = new LinkedHashSet<>();
        Set<String> stillTrue = new HashSet<>();
        Optional<Stuck> stuck = Optional.empty();
        for (Pod pod : pods) {
            String name = pod.getMetadata().getName();
            for (String line : describe(pod)) {
                lines.add("pod " + name + ": " + line);
            }
            Optional<String> pull = imagePullProblem(pod);
            Optional<String> unschedulable = unschedulable(pod);
            if (pull.isPresent()) {
                stuck = stuck.or(() -> check(
                        name,
                        "image",
                        pull.get(),
                        limits.imagePullLimit(),
                        now,
                        stillTrue,
                        waitingReason(pod).orElse("ImagePullBackOff"),
                        instant(pod.getStatus().getStartTime())));
            }
            if (unschedulable.isPresent()) {
                stuck = stuck.or(() -> check(
                        name,
                        "schedule",
                        unschedulable.get(),
                        limits.unschedulableLimit(),
                        now,
                        stillTrue,
                        "Unschedulable",
                        scheduledCondition(pod)
                                .map(PodCondition::getLastTransitionTime)
                                .flatMap(PodWatch::instant)));
            }
        }
        since.keySet().retainAll(stillTrue);
        events.stream()
                .sorted(Comparator.comparing(PodWatch::eventTime))
                .skip(Math.max(0, events.size() - MAX_EVENTS))
                .map(PodWatch::describe)
                .forEach(lines::add);
        List<String> fresh = new ArrayList<>();
        for (String line : lines) {
            if (said.add(line)) {
                fresh.add(line);
            }
        }
        return new Observation(fresh, stuck);
    }

    private Optional<Stuck> check(
            String pod,
            String kind,
            String problem,
            Duration limit,
            Instant now,
            Set<String> stillTrue,
            String reason,
            Optional<Instant> reported) {
        String key = pod + "/" + kind;
        stillTrue.add(key);
        Instant seen = since.computeIfAbsent(key, k -> now);
        Instant first = reported.filter(r -> r.isBefore(seen)).orElse(seen);
        Duration lasting = Duration.between(first, now);
        if (limit.isZero() || lasting.compareTo(limit) < 0) {
            return Optional.empty();
        }
        // the system clock has microseconds, which the format cannot write (and no one wants to read)
        return Optional.of(new Stuck(
                reason,
                "pod " + pod + " " + problem + " for "
                        + GoDuration.format(lasting.truncatedTo(ChronoUnit.SECONDS))
                        + " (limit " + GoDuration.format(limit.truncatedTo(ChronoUnit.MILLIS)) + ")"));
    }

    /** The pod's phase and each waiting container's reason and message. */
    static List<String> describe(Pod pod) {
        List<String> lines = new ArrayList<>();
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        unschedulable(pod).ifPresent(lines::add);
        for (ContainerStatus s : containerStatuses(pod)) {
            if (s.getState() != null && s.getState().getWaiting() != null) {
                var w = s.getState().getWaiting();
                lines.add(Objects.toString(phase, "Pending") + ", container " + s.getName() + " waiting: "
                        + w.getReason() + (w.getMessage() == null ? "" : " (" + w.getMessage() + ")"));
            }
        }
        return lines;
    }

    static Optional<String> imagePullProblem(Pod pod) {
        return waitingReason(pod).filter(IMAGE_PULL_REASONS::contains).map(r -> "cannot pull its image (" + r + ")");
    }

    static Optional<String> unschedulable(Pod pod) {
        return scheduledCondition(pod)
                .map(c -> "cannot be scheduled" + (c.getMessage() == null ? "" : " (" + c.getMessage() + ")"));
    }

    private static Optional<PodCondition> scheduledCondition(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream()
                .filter(c -> "PodScheduled".equals(c.getType())
                        && "False".equals(c.getStatus())
                        && "Unschedulable".equals(c.getReason()))
                .findFirst();
    }

    private static Optional<Instant> instant(String rfc3339) {
        try {
            return rfc3339 == null ? Optional.empty() : Optional.of(Instant.parse(rfc3339));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> waitingReason(Pod pod) {
        return containerStatuses(pod).stream()
                .filter(s -> s.getState() != null && s.getState().getWaiting() != null)
                .map(s -> s.getState().getWaiting().getReason())
                .filter(Objects::nonNull)
                .findFirst();
    }

    private static List<ContainerStatus> containerStatuses(Pod pod) {
        if (pod.getStatus() == null) {
            return List.of();
        }
        List<ContainerStatus> all = new ArrayList<>();
        Optional.ofNullable(pod.getStatus().getInitContainerStatuses()).ifPresent(all::addAll);
        Optional.ofNullable(pod.getStatus().getContainerStatuses()).ifPresent(all::addAll);
        return all;
    }

    static String describe(Event e) {
        String object = e.getInvolvedObject() == null
                ? "?"
                : e.getInvolvedObject().getKind() + "/" + e.getInvolvedObject().getName();
        String count = e.getCount() != null && e.getCount() > 1 ? " (x" + e.getCount() + ")" : "";
        return "event " + object + ": " + e.getType() + " " + e.getReason() + count + ": "
                + Objects.toString(e.getMessage(), "").strip();
    }

    /** RFC 3339 UTC timestamps sort as text; the newest of the times an Event may carry. */
    static String eventTime(Event e) {
        if (e.getLastTimestamp() != null) {
            return e.getLastTimestamp();
        }
        if (e.getEventTime() != null && e.getEventTime().getTime() != null) {
            return e.getEventTime().getTime();
        }
        return Objects.toString(e.getMetadata() == null ? null : e.getMetadata().getCreationTimestamp(), "");
    }
}
